// The converters taken from the Collector's pkg/ottl/ottlfuncs, each case an input and the output
// its tests expect (func_fnv_test.go, func_hex_test.go, func_convert_case_test.go, ...), and the
// arguments refused when a statement is loaded.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AnyValue } from '../../src/model/anyvalue.js';
import { OttlRuntimeError } from '../../src/ottl/errors.js';
import { LOCAL_ZONE } from '../../src/ottl/zones.js';
import { attrs } from '../helpers/rows.js';
import { run, valueOf } from './run.js';

const plain = (value: AnyValue): unknown => (value !== null && typeof value === 'object' && !(value instanceof Uint8Array) && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)])) : Array.isArray(value) ? value.map(plain) : value);

describe('converters', () => {
  it.each<[string, unknown, Record<string, AnyValue>?]>([
    // func_trim_test.go: a space by default, an empty replacement trims nothing.
    ['Trim(" this is a test ")', 'this is a test'],
    ['Trim(" this is a test ", " ")', 'this is a test'],
    ['Trim(" this is a test ", "")', ' this is a test '],
    ['Trim("", " ")', ''],
    ['Trim("xx😀yx", "xy")', '😀'],
    ['FNV("hello world")', 8618312879776256743n],
    ['FNV("")', -3750763034362895579n],
    ['Hex(12)', '000000000000000c'],
    ['Hex(attributes["none"])', ''],
    ['Hex("a")', '61'],
    ['Hex(1.0)', '3ff0000000000000'],
    ['Hex(true)', '01'],
    ['Hex(0x0aff)', '0aff'],
    ['ConvertCase("simpleString", "snake")', 'simple_string'],
    ['ConvertCase("simple_string", "snake")', 'simple_string'],
    ['ConvertCase("CPUUtilizationMetric", "snake")', 'cpu_utilization_metric'],
    ['ConvertCase("simple-string", "snake")', 'simple_string'],
    ['ConvertCase("http.Request2Body", "snake")', 'http_request_2_body'],
    ['ConvertCase("", "snake")', ''],
    ['ConvertCase("simple_string", "camel")', 'SimpleString'],
    ['ConvertCase("SimpleString", "camel")', 'SimpleString'],
    ['ConvertCase("simple-string", "camel")', 'SimpleString'],
    ['ConvertCase("CPUUtilizationMetric", "camel")', 'CpuutilizationMetric'],
    ['ConvertCase("k8s.pod name", "camel")', 'K8SPodName'],
    ['ConvertCase("simple", "upper")', 'SIMPLE'],
    ['ConvertCase("complex_SET-of.WORDS1234", "upper")', 'COMPLEX_SET-OF.WORDS1234'],
    ['ConvertCase("complex_SET-of.WORDS1234", "lower")', 'complex_set-of.words1234'],
    ['TraceID(0x5b8efff798038103d269b633813fc60c)', Uint8Array.from(Buffer.from('5b8efff798038103d269b633813fc60c', 'hex'))],
    ['SpanID(0xeee19b7ec3c1b174)', Uint8Array.from(Buffer.from('eee19b7ec3c1b174', 'hex'))],
    ['ParseJSON("{\\"a\\": 1, \\"b\\": [1, \\"x\\", true, null], \\"c\\": {\\"d\\": \\"e\\"}}")', { a: 1, b: [1, 'x', true, null], c: { d: 'e' } }],
    ['ParseJSON("[1, {\\"k\\": 2.5}]")', [1, { k: 2.5 }]],
    ['ParseKeyValue("name=ottl func=key_value")', { name: 'ottl', func: 'key_value' }],
    ['ParseKeyValue("k1:v1,k2:v2", ":", ",")', { k1: 'v1', k2: 'v2' }],
    ['ParseKeyValue("k1=v1 k2=v2", "", "")', { k1: 'v1', k2: 'v2' }],
    ['ParseKeyValue("  k1=v1   k2=v2  ")', { k1: 'v1', k2: 'v2' }],
    ['ParseKeyValue("k1=\\"v 1\\" \\"k 2\\"=\'v=2\'")', { k1: 'v 1', 'k 2': 'v=2' }],
    ['ParseKeyValue("k1=\\"a \\\\\\"b\\\\\\"\\"")', { k1: 'a \\"b\\"' }],
    ['ParseKeyValue("k1=v1=x k1=v2")', { k1: 'v2' }],
    ['ParseKeyValue("k1 = v1 || k2 = v2", "=", "||")', { k1: 'v1', k2: 'v2' }],
    ['ExtractPatterns("a=1 b=22", "b=(?P<b>\\\\d+)")', { b: '22' }],
    ['ExtractPatterns("user=ann id=7", "user=(?<user>\\\\w+)( id=(?<id>\\\\d+))?( x=(?<x>\\\\d))?")', { user: 'ann', id: '7', x: '' }],
    ['ExtractPatterns("nothing", "b=(?P<b>\\\\d+)")', {}],
    ['UnixNano(Unix(1, 5))', 1_000_000_005n],
    ['UnixSeconds(Unix(1700000000))', 1_700_000_000n],
    ['UnixMilli(Unix(-1, 500000000))', -500n],
    ['UnixMicro(Unix(0, 1999))', 1n],
    ['UnixNano(Unix(0) + Duration("3h2m"))', 10_920_000_000_000n],
    ['UnixNano(Unix(0) - Duration("1.5s"))', -1_500_000_000n],
    ['UnixNano(Unix(10) + (Duration("1h") - Duration("30m")))', 1_810_000_000_000n],
    ['UnixNano(Duration("2h45m30.5s") + Unix(0))', 9_930_500_000_000n],
    ['UnixNano(Unix(0) + Duration("1us") + Duration("1µs") + Duration("300ms") + Duration("-0"))', 300_002_000n],
    ['UnixNano(TruncateTime(Time("2022-05-26 12:34:56.789", "%Y-%m-%d %H:%M:%S.%L", "UTC"), Duration("1s")))', 1_653_568_496_000_000_000n],
    ['UnixNano(TruncateTime(Time("2022-05-26 12:34:56", "%Y-%m-%d %H:%M:%S", "UTC"), Duration("1h")))', 1_653_566_400_000_000_000n],
    ['UnixNano(TruncateTime(Unix(7), Duration("0s")))', 7_000_000_000n],
  ])('%s', (expression, expected, attributes) => {
    expect(plain(valueOf(expression, attributes))).toEqual(expected);
  });

  const utc = (iso: string): bigint => BigInt(Date.parse(iso)) * 1_000_000n;

  it.each<[string, bigint]>([
    ['Time("1986-10-01T00:17:33 MST", "%Y-%m-%dT%H:%M:%S %Z")', utc('1986-10-01T07:17:33Z')],
    ['Time("Feb 15, 2023", "%b %d, %Y", "America/New_York")', utc('2023-02-15T05:00:00Z')],
    ['Time("July 4, 2023 08:00 PM", "%B %g, %Y %I:%M %p", "America/New_York")', utc('2023-07-05T00:00:00Z')],
    ['Time("2023-05-26 12:34:56.789", "%Y-%m-%d %H:%M:%S.%L", "UTC")', utc('2023-05-26T12:34:56.789Z')],
    ['Time("2023-05-26 12:34:56.123456789", "%Y-%m-%d %H:%M:%S", "UTC")', utc('2023-05-26T12:34:56Z') + 123_456_789n],
    ['Time("2023-05-26 12:34:56 +0230", "%Y-%m-%d %H:%M:%S %z")', utc('2023-05-26T10:04:56Z')],
    ['Time("2023-05-26T12:34:56-07:00", "%Y-%m-%dT%H:%M:%S%j")', utc('2023-05-26T19:34:56Z')],
    ['Time("2023-05-26T12:34:56Z", "%Y-%m-%dT%H:%M:%SZ")', utc('2023-05-26T12:34:56Z')],
    ['Time("Mon Jan  2 15:04:05 2006", "%a %b %e %H:%M:%S %Y", "UTC")', utc('2006-01-02T15:04:05Z')],
    ['Time("mon JAN 02 15:04:05 2006", "%c", "UTC")', utc('2006-01-02T15:04:05Z')],
    ['Time("01/02/2006 3:04:05 pm", "%D %l:%M:%S %P", "UTC")', utc('2006-01-02T15:04:05Z')],
    ['Time("99-1-2", "%y-%q-%g", "UTC")', utc('1999-01-02T00:00:00Z')],
    ['Time("2006-01-02 10:00:00 UTC", "%F %T %Z", "Asia/Tokyo")', utc('2006-01-02T10:00:00Z')],
    ['Time("2006-01-02 10:00:00 EST", "%F %T %Z", "America/New_York")', utc('2006-01-02T15:00:00Z')],
    ['Time("2006-07-02 10:00:00 EDT", "%F %T %Z", "America/New_York")', utc('2006-07-02T14:00:00Z')],
  ])('%s', (expression, nanos) => {
    expect(valueOf(`UnixNano(${expression})`)).toBe(nanos);
  });

  describe('a text without a year (the Collector\'s SetTimestampYear)', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it.each<[string, string, string]>([
      ['2026-07-15T12:00:00Z', 'Time("Jan 01 00:00:00", "%b %d %H:%M:%S", "UTC")', '2026-01-01T00:00:00Z'],
      ['2026-07-15T12:00:00Z', 'Time("Jul 22 12:00:00", "%b %d %H:%M:%S", "UTC")', '2026-07-22T12:00:00Z'],
      // More than a week ahead is last year's.
      ['2026-07-15T12:00:00Z', 'Time("Jul 23 12:00:01", "%b %d %H:%M:%S", "UTC")', '2025-07-23T12:00:01Z'],
      ['2026-01-02T00:00:00Z', 'Time("Dec 31 23:00:00", "%b %d %H:%M:%S", "UTC")', '2025-12-31T23:00:00Z'],
      // Without a month and day, Go reads January 1: not today.
      ['2026-07-15T12:00:00Z', 'Time("12:00:00", "%H:%M:%S", "UTC")', '2026-01-01T12:00:00Z'],
      // The year is now's in the process's zone (UTC here, still 2026 where Tokyo has 2027), the date built in the location.
      ['2026-12-31T20:00:00Z', 'Time("Jan 01 00:00:00", "%b %d %H:%M:%S", "Asia/Tokyo")', '2025-12-31T15:00:00Z'],
    ])('at %s, %s is %s', (now, expression, expected) => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date(now));
      expect(valueOf(`UnixNano(${expression})`)).toBe(utc(expected));
    });
  });

  it('runs in UTC (vitest.config.ts), so that cases without a location do not depend on the machine', () => {
    expect(LOCAL_ZONE).toBe('UTC');
    expect(new Date(0).getTimezoneOffset()).toBe(0);
  });

  it.each<[string, bigint]>([
    // An abbreviation the location uses, in English as en-US or en-GB names it.
    ['Time("2023-07-01 10:00:00 BST", "%F %T %Z", "Europe/London")', utc('2023-07-01T09:00:00Z')],
    ['Time("2023-07-01 10:00:00 CEST", "%F %T %Z", "Europe/Berlin")', utc('2023-07-01T08:00:00Z')],
    ['Time("2023-01-01 10:00:00 CET", "%F %T %Z", "Europe/Berlin")', utc('2023-01-01T09:00:00Z')],
    ['Time("2023-01-01 10:00:00 EDT", "%F %T %Z", "America/New_York")', utc('2023-01-01T14:00:00Z')],
    // One it does not use: only Go's top-level zone names load, at their standard offset.
    ['Time("2023-07-01 10:00:00 CET", "%F %T %Z", "UTC")', utc('2023-07-01T09:00:00Z')],
    ['Time("2023-07-01 10:00:00 EST", "%F %T %Z")', utc('2023-07-01T15:00:00Z')],
    ['Time("2023-07-01 10:00:00 PRC", "%F %T %Z", "UTC")', utc('2023-07-01T10:00:00Z')],
    // Go names a zone GMT+3 but keeps the wall clock as UTC.
    ['Time("2023-07-01 10:00:00 GMT+3", "%F %T %Z", "UTC")', utc('2023-07-01T10:00:00Z')],
    ['Time("2023-07-01 10:00:00 GMT", "%F %T %Z", "America/New_York")', utc('2023-07-01T10:00:00Z')],
    ['Time("2023-07-01 10:00:00", "%F %T", "Local")', utc('2023-07-01T10:00:00Z')],
    ['Time("2023-07-01 10:00:00", "%F %T", "US/Eastern")', utc('2023-07-01T14:00:00Z')],
    ['Time("2023-07-01 10:00:00", "%F %T", "EST5EDT")', utc('2023-07-01T14:00:00Z')],
  ])('%s', (expression, nanos) => {
    expect(valueOf(`UnixNano(${expression})`)).toBe(nanos);
  });

  it.each<[string, string]>([
    ['Duration("1.5' + '0'.repeat(400) + 's")', 1_500_000_000n.toString()],
    // Go's leadingFraction: digits past 2^63 are dropped, with the scale.
    ['Duration("0.1234567890123456789012s")', '123456789'],
    ['Duration("9223372036854775807ns")', '9223372036854775807'],
    ['Duration("-9223372036854775808ns")', '-9223372036854775808'],
    ['Duration("1h1.5m")', '3690000000000'],
  ])('%s is %s ns', (expression, nanos) => {
    expect(valueOf(`UnixNano(Unix(0) + ${expression})`)).toBe(BigInt(nanos));
  });

  // No time limit of its own: reading the text again for each digit would not finish within the
  // suite's 30 s timeout (vitest.config.ts) on this megabyte, however loaded the machine.
  it('refuses a megabyte of digits in a duration at once, quoting only the start of it', () => {
    const text = `${'1'.repeat(1 << 20)}s`;
    const act = (): unknown => valueOf('Duration(attributes["d"])', { d: text });
    expect(act).toThrow(OttlRuntimeError);
    expect(act).toThrow(`…(${text.length} bytes)`);
    let message = '';
    try {
      act();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.length).toBeLessThan(200);
  });

  it('reads JSON nested 64 deep and refuses 65', () => {
    const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
    expect(valueOf('ParseJSON(attributes["j"])', { j: nested(64) })).toBeDefined();
    expect(() => valueOf('ParseJSON(attributes["j"])', { j: nested(65) })).toThrow('ParseJSON: the document is nested deeper than 64 levels');
    expect(() => valueOf('ParseJSON(attributes["j"])', { j: nested(1_000_000) })).toThrow(OttlRuntimeError);
  });

  it('reads 1,000 key-value pairs, refuses more, and lists five bad ones', () => {
    const pairs = (n: number): string => Array.from({ length: n }, (_, i) => `k${i}=v`).join(' ');
    expect(Object.keys(valueOf('ParseKeyValue(attributes["s"])', { s: pairs(1000) }) as object)).toHaveLength(1000);
    expect(() => valueOf('ParseKeyValue(attributes["s"])', { s: pairs(1001) })).toThrow('ParseKeyValue: more than 1000 pairs');
    expect(() => valueOf('ParseKeyValue("a b c d e f g")')).toThrow('cannot split "a" into 2 items, got 1 item(s); cannot split "b" into 2 items, got 1 item(s); cannot split "c" into 2 items, got 1 item(s); cannot split "d" into 2 items, got 1 item(s); cannot split "e" into 2 items, got 1 item(s); and 2 more');
  });

  it.each<[string, boolean]>([
    ['Duration("1h") == Duration("60m")', true],
    ['Duration("1h") > Duration("59m59s")', true],
    ['Time("2023-01-02", "%Y-%m-%d", "UTC") - Time("2023-01-01", "%Y-%m-%d", "UTC") == Duration("24h")', true],
    ['Time("2023-01-01T01:00:00 +0100", "%Y-%m-%dT%H:%M:%S %z") == Time("2023-01-01", "%Y-%m-%d", "UTC")', true],
    ['Now() > Time("2020-01-01", "%Y-%m-%d", "UTC")', true],
    ['Now() == 1', false],
    ['Now() != 1', true],
    ['Duration("1s") == 1000000000', false],
    ['Now() != nil', true],
  ])('%s is %s', (condition, expected) => {
    expect(run([`set(attributes["out"], true) where ${condition}`]).attributes.out === true).toBe(expected);
  });

  it.each<[string, string]>([
    ['Trim(1)', 'Trim: expected string but got int64'],
    ['Trim(attributes["none"])', 'Trim: expected string but got nil'],
    ['FNV(1)', 'FNV: expected string but got int64'],
    ['FNV(attributes["none"])', 'FNV: expected string but got nil'],
    ['Hex(attributes["m"])', 'Hex: unsupported type: map'],
    ['ConvertCase(10, "upper")', 'ConvertCase: expected string but got int64'],
    ['ParseJSON("\\"str\\"")', 'could not convert parsed value of type "Str" to JSON object'],
    ['ParseJSON("1")', 'could not convert parsed value of type "Double" to JSON object'],
    ['ParseJSON("{")', 'ParseJSON: '],
    ['ParseKeyValue("")', 'cannot parse from empty target'],
    ['ParseKeyValue("k1=v1 k2")', 'cannot split "k2" into 2 items, got 1 item(s)'],
    ['ParseKeyValue("k1=\\"v1 k2=v2")', 'never reached the end of a quoted value'],
    ['Time("", "%Y")', 'time cannot be nil'],
    ['Time("01/02/2006 3:4:05 pm", "%D %l:%M:%S %P", "UTC")', 'cannot parse "4:05 pm" as "%M"'],
    ['Time("Febuary 15, 2023", "%B %d, %Y", "UTC")', 'parsing time "Febuary 15, 2023" as "%B %d, %Y": cannot parse "Febuary 15, 2023" as "%B"'],
    ['Time("2023-13-01", "%Y-%m-%d", "UTC")', 'parsing time "2023-13-01": month out of range'],
    ['Time("2023-02-30", "%Y-%m-%d", "UTC")', 'parsing time "2023-02-30": day out of range'],
    ['Time("2023-02-01 extra", "%Y-%m-%d", "UTC")', 'parsing time "2023-02-01 extra": extra text: " extra"'],
    ['Time("2023-02-01 10:00 XYZ", "%Y-%m-%d %H:%M %Z", "UTC")', 'failed to load location XYZ: unknown time zone XYZ'],
    // ICU knows these as legacy ids (BST is Asia/Dhaka there); Go's time.LoadLocation does not.
    ['Time("2023-07-01 10:00 BST", "%Y-%m-%d %H:%M %Z", "UTC")', 'failed to load location BST: unknown time zone BST'],
    ['Time("2023-07-01 10:00 PST", "%Y-%m-%d %H:%M %Z", "UTC")', 'failed to load location PST: unknown time zone PST'],
    ['Time("2023-07-01 10:00 JST", "%Y-%m-%d %H:%M %Z", "UTC")', 'failed to load location JST: unknown time zone JST'],
    ['Time("2023-07-01 10:00 CEST", "%Y-%m-%d %H:%M %Z", "Europe/London")', 'failed to load location CEST: unknown time zone CEST'],
    ['Time("2023-07-01 10:00 +03", "%Y-%m-%d %H:%M %Z", "UTC")', 'failed to load location +03: unknown time zone +03'],
    ['Time("' + 'x'.repeat(1000) + '", "%Y", "UTC")', '…(1000 bytes)'],
    ['Duration("1x")', 'time: unknown unit "x" in duration "1x"'],
    ['Duration("1")', 'time: missing unit in duration "1"'],
    ['Duration("")', 'time: invalid duration ""'],
    ['Duration(".s")', 'time: invalid duration ".s"'],
    ['UnixNano(1)', 'UnixNano: expected time but got int64'],
    ['TruncateTime(Now(), 1)', 'TruncateTime: expected duration but got int64'],
    ['Unix("1")', 'Unix: expected int64 but got string'],
    ['Now()', 'set: a time.Time cannot be stored'],
    ['Duration("1s")', 'set: a time.Duration cannot be stored'],
    ['[Now()]', 'a list literal: a time.Time cannot be stored'],
    ['Now() + 1', 'time.Time must be added to time.Duration'],
    ['Duration("1s") * 2', 'only addition and subtraction supported for time.Time and time.Duration'],
    ['Concat([Now()], "")', 'unsupported type: time.Time'],
  ])('%s fails: %s', (expression, message) => {
    const act = (): unknown => valueOf(expression, { m: attrs({ a: 1n }) });
    expect(act).toThrow(OttlRuntimeError);
    expect(act).toThrow(message);
  });

  it.each<[string, string]>([
    ['ConvertCase("a", "unset")', 'invalid case: unset, allowed cases are: lower, upper, snake, camel'],
    ['TraceID(0x0102)', 'traces ids must be 16 bytes'],
    ['SpanID(0x5b8efff798038103d269b633813fc60c)', 'span ids must be 8 bytes'],
    ['TraceID("5b8efff798038103d269b633813fc60c")', 'bytes written in the statement'],
    ['ParseKeyValue("a", ":", ":")', 'pair delimiter ":" cannot be equal to delimiter ":"'],
    ['ExtractPatterns("a", "(\\\\d+)")', 'at least 1 named capture group must be supplied in the given regex'],
    ['ExtractPatterns("a", "(?P<x>a)(?=b)")', 'lookarounds'],
    ['Time("a", "")', 'format cannot be nil'],
    ['Time("a", "%Y-%m-%d %Q")', 'convert to go time format: [unsupported ctimefmt.ToNative() directive: %Q]'],
    ['Time("a", "%Y-%m-%d1")', 'format string should not contain decimals'],
    ['Time("a", "%S%L")', "invalid fractional seconds directive: '%L'. must be preceded with '.' or ','"],
    ['Time("a", "%Y Mon")', 'would be read by the Collector as a time element'],
    ['Time("a", "%Y", "Mars/Base")', 'failed to load location Mars/Base: unknown time zone Mars/Base'],
    ['Time("a", "%Y", "america/new_york")', 'failed to load location america/new_york: unknown time zone america/new_york'],
    ['Time("a", "%Y", "BST")', 'failed to load location BST: unknown time zone BST'],
    ['Time("a", "%Y", "PST")', 'failed to load location PST: unknown time zone PST'],
    ['Time("a", "%Y", "utc")', 'failed to load location utc: unknown time zone utc'],
    ['Time("a", "%Y", "UTC", "fr")', "unsupported locale 'fr'"],
  ])('%s is refused when loaded: %s', (expression, message) => {
    // A converter's own refusal is a plain Error that the processor reports as a settings problem.
    expect(() => valueOf(expression)).toThrow(message);
  });

  it('gives a TraceID that compares with and sets the row\'s id', () => {
    const row = run(['set(attributes["same"], true) where trace_id == TraceID(0x5b8efff798038103d269b633813fc60c)', 'set(span_id, SpanID(0x0102030405060708))']);
    expect(row.attributes.same).toBe(true);
    expect(row.spanId).toBe('0102030405060708');
  });
});
