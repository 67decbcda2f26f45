// The Collector's OTTL end-to-end table (pkg/ottl/e2e/e2e_test.go at commit
// fb91537327d2411c446f424305663b234c3f6ebc): each statement run on a log record built as its test
// builds one (the same attributes, body, times, ids, resource and scope), with the change it
// expects; its value expressions read back; parse errors of pkg/ottl's parser_test.go
// (Test_parseStatement, Test_parseCondition) with otelgate's message and column; and a value of
// the wrong type under each error_mode, through the filter and the transform processors.
//
// Skipped from e2e_test.go (all but the last refused when loaded, with a message naming what is
// missing):
// - dynamic indexing, a path or converter as a key (docs/processors.md lists only string and
//   integer keys): set(attributes[ConvertCase(attributes["A|B|C"], "upper")], "myvalue"),
//   set(attributes[ConvertCase(attributes[attributes["flags"]], "upper")], "myvalue"),
//   set(attributes[attributes["flags"]], "something33"),
//   set(attributes[attributes[attributes["flags"]]], "something2"),
//   set(body, attributes["things"][Len(attributes["things"]) - 1]["name"]),
//   set(body, attributes["things"][attributes["int_value"] + 1]["name"]),
//   the two set(body, attributes[attributes["foo"][attributes["slice"]]...]),
//   the three set(... resource.attributes[attributes["flags"]] ...),
//   set(attributes["array"][attributes["int_value"]], 3), and the where clause
//   attributes[attributes["flags"]] != nil ("where clause with dynamic indexing");
// - the time paths (time): set(time, TruncateTime(time, ...)), FormatTime(time, ...),
//   UnixMicro/UnixMilli/UnixNano/UnixSeconds(time) > 0, and "map value" (UnixNano(time) in a map);
// - the function argument of replace_pattern: replace_pattern(..., "/", "@", SHA256);
// - converters otelgate does not have: Base64Decode, Decode, ToCamelCase, ToSnakeCase,
//   ConvertAttributesToElementsXML, ConvertTextToElementsXML (2), ExtractGrokPatterns, Format,
//   Hour, Hours, InsertXML, GetXML, Log, IsValidLuhn (2), Microseconds, Milliseconds, Minutes,
//   Murmur3Hash128, Murmur3Hash, Nanoseconds, ParseCSV (2), ToKeyValueString (4),
//   ParseSimplifiedXML, ParseXML, RemoveXML, Seconds, SHA512, Sort (6), ProfileID, UUID, UserAgent,
//   SliceToMap (2), and the span context's IsRootSpan (Test_ProcessTraces_TraceContext);
// - the span event context's event_index (Test_ProcessSpanEvents): transform has no span event
//   statements;
// - set(attributes["test"], String(span_id)), where the Collector gives "[1,2,3,4,5,6,7,8]" (its
//   span id is a [8]byte, which String writes as JSON) and otelgate "0102030405060708" (an id is
//   bytes there, and bytes are written in hex, as the Collector writes a []byte).
import { describe, expect, it } from 'vitest';
import { PermanentError } from '../../src/errors.js';
import { batchOf } from '../../src/model/batch.js';
import type { AnyValue } from '../../src/model/anyvalue.js';
import type { LogRow } from '../../src/model/logs.js';
import { OttlError, OttlRuntimeError } from '../../src/ottl/errors.js';
import { parseCondition, parseStatement } from '../../src/ottl/parser.js';
import { processorPipeline } from '../helpers/processors.js';
import { attrs, RECEIVED } from '../helpers/rows.js';
import { run } from './run.js';

/** 2020-02-11 20:26:12.000000321 and 20:26:13.000000789 UTC, as the Collector's TestLogTime and TestObservedTime. */
const TIME = 1_581_452_772_000_000_321n;
const OBSERVED = 1_581_452_773_000_000_789n;
const TRACE_ID = '0102030405060708090a0b0c0d0e0f10';
const SPAN_ID = '0102030405060708';

function logRecord(attributes: Record<string, AnyValue>, resource: Record<string, AnyValue>): LogRow {
  return {
    resource: { attributes: attrs(resource), droppedAttributesCount: 0, schemaUrl: '' },
    scope: { name: 'scope', version: '', attributes: attrs({}), droppedAttributesCount: 0, schemaUrl: '' },
    timeUnixNano: TIME,
    observedTimeUnixNano: OBSERVED,
    severityNumber: 1,
    severityText: '',
    body: 'operationA',
    attributes: attrs(attributes),
    droppedAttributesCount: 1,
    // plog.DefaultLogRecordFlags.WithIsSampled(true)
    flags: 1,
    traceId: TRACE_ID,
    spanId: SPAN_ID,
    eventName: '',
  };
}

const things = (): AnyValue[] => [attrs({ name: 'foo', value: 2n }), attrs({ name: 'bar', value: 5n })];
const foo = (): AnyValue => attrs({ bar: 'pass', flags: 'pass', slice: ['val'], nested: attrs({ test: 'pass' }) });
const http = { 'http.method': 'get', 'http.path': '/health', 'http.url': 'http://localhost/health', flags: 'A|B|C', 'total.string': '123456789' };

/** constructLogTransformContextEditors */
const editorsRecord = (): LogRow =>
  logRecord({ ...http, conflict: attrs({ conflict1: attrs({ conflict2: 'pass' }) }), 'conflict.conflict1': attrs({ conflict2: 'nopass' }), foo: foo(), things: things() }, { 'host.name': 'localhost' });

/** constructLogTransformContext: "foo" is first a string, then a map in the same place. */
const convertersRecord = (): LogRow =>
  logRecord(
    { ...http, 'A|B|C': 'something', foo: foo(), slice: 'slice', val: 'val2', int_value: 0n, array: ['looong'], things: things() },
    { 'host.name': 'localhost', 'A|B|C': 'newValue' },
  );

/** constructLogTransformContextValueExpressions */
const valuesRecord = (): LogRow =>
  logRecord(
    {
      ...http,
      'A|B|C': 'something',
      foo: attrs({ bar: 'pass' }),
      slice: 'slice',
      val: 'val2',
      int_value: 0n,
      array: ['looong'],
      foo2: attrs({ slice: ['val'] }),
      foo3: attrs({ nested: attrs({ test: 'pass' }) }),
      things: [attrs({ name: 'foo' }), attrs({ name: 'bar' })],
    },
    { 'host.name': 'localhost', 'A|B|C': 'newValue' },
  );

const plain = (value: AnyValue | undefined): unknown =>
  value !== null && typeof value === 'object' && !(value instanceof Uint8Array) && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)])) : Array.isArray(value) ? value.map(plain) : value;

/** Everything of a record that a statement may change, as plain data. */
function view(row: LogRow) {
  return {
    resource: plain(row.resource.attributes) as Record<string, unknown>,
    scope: [row.scope.name, row.scope.version, plain(row.scope.attributes)],
    times: [row.timeUnixNano, row.observedTimeUnixNano],
    severityNumber: row.severityNumber,
    severityText: row.severityText,
    body: plain(row.body),
    attributes: plain(row.attributes) as Record<string, unknown>,
    droppedAttributesCount: row.droppedAttributesCount,
    flags: row.flags,
    traceId: row.traceId,
    spanId: row.spanId,
    eventName: row.eventName,
  };
}

/** What a statement changes: attributes put (`put`), removed (`remove`) or all replaced (`attributes`), and other fields. */
interface Change {
  put?: Record<string, unknown>;
  remove?: readonly string[];
  attributes?: Record<string, unknown>;
  body?: unknown;
  severityNumber?: number;
  traceId?: string;
  spanId?: string;
  resource?: Record<string, unknown>;
}
type Outcome = Change | { fails: string } | { refused: string };

const NONE: Change = {};

function changed(before: ReturnType<typeof view>, change: Change): ReturnType<typeof view> {
  const attributes = { ...(change.attributes ?? before.attributes), ...change.put };
  for (const key of change.remove ?? []) delete attributes[key];
  return {
    ...before,
    attributes,
    resource: { ...before.resource, ...change.resource },
    ...(change.body === undefined ? {} : { body: change.body }),
    ...(change.severityNumber === undefined ? {} : { severityNumber: change.severityNumber }),
    ...(change.traceId === undefined ? {} : { traceId: change.traceId }),
    ...(change.spanId === undefined ? {} : { spanId: change.spanId }),
  };
}

function check(statements: readonly string[], record: () => LogRow, outcome: Outcome): void {
  const row = record();
  const before = view(row);
  if ('refused' in outcome) {
    expect(() => run(statements, row)).toThrow(OttlError);
    expect(() => run(statements, row)).toThrow(outcome.refused);
  } else if ('fails' in outcome) {
    expect(() => run(statements, row)).toThrow(new OttlRuntimeError(outcome.fails));
  } else {
    expect(view(run(statements, row))).toEqual(changed(before, outcome));
  }
  expect(view(row)).toEqual(before);
}

const FOO = { bar: 'pass', flags: 'pass', slice: ['val'], nested: { test: 'pass' } };

// Test_e2e_editors, on constructLogTransformContextEditors.
const EDITORS: readonly (readonly [string, Outcome])[] = [
  ['delete_key(attributes, "http.method")', { remove: ['http.method'] }],
  ['delete_matching_keys(attributes, "^http")', { remove: ['http.method', 'http.path', 'http.url'] }],
  ['keep_matching_keys(attributes, "^http")', { remove: ['flags', 'total.string', 'foo', 'things', 'conflict.conflict1', 'conflict'] }],
  [
    'flatten(attributes)',
    {
      remove: ['foo', 'conflict.conflict1', 'conflict', 'things'],
      put: { 'foo.bar': 'pass', 'foo.flags': 'pass', 'foo.slice.0': 'val', 'foo.nested.test': 'pass', 'conflict.conflict1.conflict2': 'nopass', 'things.0.name': 'foo', 'things.0.value': 2n, 'things.1.name': 'bar', 'things.1.value': 5n },
    },
  ],
  [
    'flatten(attributes, "test")',
    {
      attributes: {
        'test.http.method': 'get', 'test.http.path': '/health', 'test.http.url': 'http://localhost/health', 'test.flags': 'A|B|C', 'test.total.string': '123456789',
        'test.foo.bar': 'pass', 'test.foo.flags': 'pass', 'test.foo.slice.0': 'val', 'test.foo.nested.test': 'pass', 'test.conflict.conflict1.conflict2': 'nopass',
        'test.things.0.name': 'foo', 'test.things.0.value': 2n, 'test.things.1.name': 'bar', 'test.things.1.value': 5n,
      },
    },
  ],
  [
    'flatten(attributes, "test", resolveConflicts=true)',
    {
      attributes: {
        'test.http.method': 'get', 'test.http.path': '/health', 'test.http.url': 'http://localhost/health', 'test.flags': 'A|B|C', 'test.total.string': '123456789',
        'test.foo.bar': 'pass', 'test.foo.flags': 'pass', 'test.foo.slice': 'val', 'test.foo.nested.test': 'pass',
        'test.conflict.conflict1.conflict2': 'pass', 'test.conflict.conflict1.conflict2.0': 'nopass',
        'test.things.0.name': 'foo', 'test.things.0.value': 2n, 'test.things.1.name': 'bar', 'test.things.1.value': 5n,
      },
    },
  ],
  [
    'flatten(attributes, depth=1)',
    {
      attributes: {
        ...http, 'foo.bar': 'pass', 'foo.flags': 'pass', 'foo.slice': ['val'], 'foo.nested': { test: 'pass' },
        'conflict.conflict1.conflict2': 'nopass', 'conflict.conflict1': { conflict2: 'pass' },
        'things.0': { name: 'foo', value: 2n }, 'things.1': { name: 'bar', value: 5n },
      },
    },
  ],
  ['keep_keys(attributes, ["flags", "total.string"])', { attributes: { flags: 'A|B|C', 'total.string': '123456789' } }],
  ['limit(attributes, 100, [])', NONE],
  ['limit(attributes, 1, ["total.string"])', { attributes: { 'total.string': '123456789' } }],
  ['merge_maps(attributes, attributes["foo"], "insert")', { put: { bar: 'pass', slice: ['val'], nested: { test: 'pass' } } }],
  ['merge_maps(attributes, attributes["foo"], "update")', { put: { flags: 'pass' } }],
  ['merge_maps(attributes, attributes["foo"], "upsert")', { put: { bar: 'pass', flags: 'pass', slice: ['val'], nested: { test: 'pass' } } }],
  ['merge_maps(attributes, {"map_literal": {"list": [{"foo":"bar"}, "test"]}}, "upsert")', { put: { map_literal: { list: [{ foo: 'bar' }, 'test'] } } }],
  ['replace_all_matches(attributes, "*/*", "test")', { put: { 'http.path': 'test', 'http.url': 'test' } }],
  ['replace_all_patterns(attributes, "key", "^http", "test")', { remove: ['http.method', 'http.path', 'http.url'], put: { 'test.method': 'get', 'test.path': '/health', 'test.url': 'http://localhost/health' } }],
  ['replace_all_patterns(attributes, "value", "/", "@")', { put: { 'http.path': '@health', 'http.url': 'http:@@localhost@health' } }],
  ['replace_match(attributes["http.path"], "*/*", "test")', { put: { 'http.path': 'test' } }],
  ['replace_pattern(attributes["http.path"], "/", "@")', { put: { 'http.path': '@health' } }],
  ['set(attributes["test"], "pass")', { put: { test: 'pass' } }],
  ['set(attributes["test"], nil)', NONE],
  ['set(attributes["test"], attributes["unknown"])', NONE],
  ['set(attributes["foo"]["test"], "pass")', { put: { foo: { ...FOO, test: 'pass' } } }],
  ['truncate_all(attributes, 100)', NONE],
  ['truncate_all(attributes, 1)', { put: { 'http.method': 'g', 'http.path': '/', 'http.url': 'h', flags: 'A', 'total.string': '1' } }],
  ['append(attributes["foo"]["slice"], "sample_value")', { put: { foo: { ...FOO, slice: ['val', 'sample_value'] } } }],
  ['append(attributes["foo"]["flags"], "sample_value")', { put: { foo: { ...FOO, flags: ['pass', 'sample_value'] } } }],
  ['append(attributes["foo"]["slice"], values=[5,6])', { put: { foo: { ...FOO, slice: ['val', 5n, 6n] } } }],
  ['append(attributes["foo"]["new_slice"], values=[5,6])', { put: { foo: { ...FOO, new_slice: [5n, 6n] } } }],
];

// Test_e2e_converters, on constructLogTransformContext.
const CONVERTERS: readonly (readonly [string, Outcome])[] = [
  ['set(attributes["newOne"], attributes[1])', { fails: 'cannot index a map by 1: only a slice takes an integer key' }],
  // The Collector refuses these two when they run (a float, and a string, as a slice's index);
  // otelgate when they are loaded, since a key is a string or an integer written in the statement.
  ['set(attributes["array"][0.0], "bar")', { refused: 'column 25: expected a string or an integer as a key but found "0.0"' }],
  ['set(attributes["array"][ConvertCase(attributes["A|B|C"], "upper")], "bar")', { refused: 'column 25: expected a string or an integer as a key but found "ConvertCase"' }],
  ['set(body, attributes["array"])', { body: ['looong'] }],
  ['set(attributes["test"], Concat(["A","B"], ":"))', { put: { test: 'A:B' } }],
  ['set(attributes["test"], ConvertCase(attributes["http.method"], "upper"))', { put: { test: 'GET' } }],
  ['set(attributes["test"], ConvertCase("PASS", "lower"))', { put: { test: 'pass' } }],
  ['set(attributes["test"], ConvertCase("fooBar", "snake"))', { put: { test: 'foo_bar' } }],
  ['set(attributes["test"], ConvertCase("foo_bar", "camel"))', { put: { test: 'FooBar' } }],
  ['set(attributes["test"], ToUpperCase(attributes["http.method"]))', { put: { test: 'GET' } }],
  ['set(attributes["test"], ToLowerCase("PASS"))', { put: { test: 'pass' } }],
  ['set(attributes["test"], Double(1.0))', { put: { test: 1 } }],
  ['set(attributes["test"], Double("1"))', { put: { test: 1 } }],
  ['set(attributes["test"], Double(true))', { put: { test: 1 } }],
  ['set(attributes["test"], Double(1))', { put: { test: 1 } }],
  ['set(attributes["test"], "pass") where Time("10", "%M") - Time("01", "%M") < Duration("10m")', { put: { test: 'pass' } }],
  ['set(attributes["test"], ExtractPatterns("aa123bb", "(?P<numbers>\\\\d+)"))', { put: { test: { numbers: '123' } } }],
  ['set(attributes["test"], FNV("pass"))', { put: { test: 266877920130663416n } }],
  ['set(attributes["test"], Int(1.0))', { put: { test: 1n } }],
  ['set(attributes["test"], Int("1"))', { put: { test: 1n } }],
  ['set(attributes["test"], Int(true))', { put: { test: 1n } }],
  ['set(attributes["test"], Int(1))', { put: { test: 1n } }],
  ['set(attributes["test"], Hex(1.0))', { put: { test: '3ff0000000000000' } }],
  ['set(attributes["test"], Hex(true))', { put: { test: '01' } }],
  ['set(attributes["test"], Hex(12))', { put: { test: '000000000000000c' } }],
  ['set(attributes["test"], Hex("12"))', { put: { test: '3132' } }],
  ['set(attributes["test"], "pass") where IsBool(false)', { put: { test: 'pass' } }],
  ['set(attributes["test"], "pass") where IsDouble(1.0)', { put: { test: 'pass' } }],
  ['set(attributes["test"], "pass") where IsMap(attributes["foo"])', { put: { test: 'pass' } }],
  ['set(attributes["test"], "pass") where IsList(attributes["foo"]["slice"])', { put: { test: 'pass' } }],
  ['set(attributes["test"], "pass") where IsMatch("aa123bb", "\\\\d{3}")', { put: { test: 'pass' } }],
  ['set(attributes["test"], "pass") where IsString("")', { put: { test: 'pass' } }],
  ['set(attributes["test"], Len(attributes["foo"]))', { put: { test: 4n } }],
  ['set(attributes["test"], MD5("pass"))', { put: { test: '1a1dc91c907325c69271ddf0c944bc72' } }],
  ['set(attributes["test"], "pass") where Now() - Now() < Duration("1h")', { put: { test: 'pass' } }],
  ['set(attributes["test"], ParseJSON("{\\"id\\":1}"))', { put: { test: { id: 1 } } }],
  ['set(attributes["test"], ParseJSON("[\\"value1\\",\\"value2\\"]"))', { put: { test: ['value1', 'value2'] } }],
  ['set(attributes["test"], ParseKeyValue("k1=v1 k2=v2"))', { put: { test: { k1: 'v1', k2: 'v2' } } }],
  ['set(attributes["test"], ParseKeyValue("k1!v1_k2!v2", "!", "_"))', { put: { test: { k1: 'v1', k2: 'v2' } } }],
  ['set(attributes["test"], ParseKeyValue("k1!v1_k2!\\"v2__!__v2\\"", "!", "_"))', { put: { test: { k1: 'v1', k2: 'v2__!__v2' } } }],
  ['set(attributes["test"], SHA1("pass"))', { put: { test: '9d4e1e23bd5b727046a9e3b4b7db57bd8d6ee684' } }],
  ['set(attributes["test"], SHA256("pass"))', { put: { test: 'd74ff0ee8da3b9806b18c877dbf29bbde50b5bd8e4dad7a3a725000feb82e8f1' } }],
  ['set(span_id, SpanID(0x0000000000000000))', { spanId: '' }],
  ['set(attributes["test"], Split(attributes["flags"], "|"))', { put: { test: ['A', 'B', 'C'] } }],
  ['set(attributes["test"], String("test"))', { put: { test: 'test' } }],
  ['set(attributes["test"], String(attributes["http.method"]))', { put: { test: 'get' } }],
  ['set(attributes["test"], String([1,2,3]))', { put: { test: '[1,2,3]' } }],
  ['set(attributes["test"], String(true))', { put: { test: 'true' } }],
  ['set(attributes["test"], Substring("pass", 0, 2))', { put: { test: 'pa' } }],
  ['set(trace_id, TraceID(0x00000000000000000000000000000000))', { traceId: '' }],
  ['set(attributes["test"], "\\\\")', { put: { test: '\\' } }],
  ['set(attributes["test"], "\\\\\\\\")', { put: { test: '\\\\' } }],
  ['set(attributes["test"], "\\\\\\\\\\\\")', { put: { test: '\\\\\\' } }],
  ['set(attributes["test"], "\\\\\\\\\\\\\\\\")', { put: { test: '\\\\\\\\' } }],
  ['set(attributes["test"], "\\"")', { put: { test: '"' } }],
  ['keep_keys(attributes["foo"], ["\\\\", "bar"])', { put: { foo: { bar: 'pass' } } }],
  ['set(attributes["test"], {"list":[{"foo":"bar"}]})', { put: { test: { list: [{ foo: 'bar' }] } } }],
  ['set(attributes, {"list":[{"foo":"bar"}]})', { attributes: { list: [{ foo: 'bar' }] } }],
  ['set(attributes["arr"], [{"list":[{"foo":"bar"}]}, {"bar":"baz"}])', { put: { arr: [{ list: [{ foo: 'bar' }] }, { bar: 'baz' }] } }],
  ['set(attributes["test"], IsList([{"list":[{"foo":"bar"}]}, {"bar":"baz"}]))', { put: { test: true } }],
  ['set(attributes["test"], IsMap({"list":[{"foo":"bar"}]}))', { put: { test: true } }],
  ['set(attributes["test"], Len([{"list":[{"foo":"bar"}]}, {"bar":"baz"}]))', { put: { test: 2n } }],
];

// Test_e2e_ottl_features, on constructLogTransformContext.
const FEATURES: readonly (readonly [string, Outcome])[] = [
  ['set(attributes["test"], "pass") where body == "operationB"', NONE],
  ['set(attributes["test"], "pass") where resource.attributes["host.name"] == "localhost"', { put: { test: 'pass' } }],
  ['set(severity_number, SEVERITY_NUMBER_TRACE2) where severity_number == SEVERITY_NUMBER_TRACE', { severityNumber: 2 }],
  ['set(attributes["test"], "pass") where trace_id == TraceID(0x0102030405060708090a0b0c0d0e0f10)', { put: { test: 'pass' } }],
  ['set(attributes["test"], "pass") where IsMatch(body, "operation[AC]")', { put: { test: 'pass' } }],
  ['set(attributes["test"], "pass") where body == Concat(["operation", "A"], "")', { put: { test: 'pass' } }],
  ['merge_maps(attributes, ParseJSON("{\\"json_test\\":\\"pass\\"}"), "insert") where body == "operationA"', { put: { json_test: 'pass' } }],
  ['set(attributes["test"], attributes["foo"]["bar"])', { put: { test: 'pass' } }],
  ['set(attributes["test"], attributes["metadata"]["uid"])', NONE],
  ['set(attributes["isMap"], IsMap({"foo": {"bar": "baz", "test": "pass"}}))', { put: { isMap: true } }],
  ['set(attributes["my.environment.2"], Split(resource.attributes["host.name"],"h")[1])', { put: { 'my.environment.2': 'ost' } }],
];

// Test_e2e_ottl_statement_sequence, on constructLogTransformContext.
const SEQUENCES: readonly (readonly [readonly string[], Outcome])[] = [
  [['set(attributes["test"], {"foo":"bar", "list":[{"test":"hello"}]})', 'delete_key(attributes["test"], "foo")'], { put: { test: { list: [{ test: 'hello' }] } } }],
  [['set(attributes["test"], {"foo":"bar", "list":[{"test":"hello"}]})', 'delete_matching_keys(attributes["test"], ".*oo")'], { put: { test: { list: [{ test: 'hello' }] } } }],
  [['set(attributes["test"], {"foo":"bar", "list":[{"test":"hello"}]})', 'keep_matching_keys(attributes["test"], ".*ist")'], { put: { test: { list: [{ test: 'hello' }] } } }],
  [['set(attributes["test"], {"foo":"bar", "list":[{"test":"hello"}]})', 'flatten(attributes["test"])'], { put: { test: { foo: 'bar', 'list.0.test': 'hello' } } }],
];

// Test_e2e_ottl_value_expressions, on constructLogTransformContextValueExpressions: each value set
// into an attribute and read back.
const VALUES: readonly (readonly [string, unknown])[] = [
  ['"foo"', 'foo'],
  ['resource.attributes["host.name"]', 'localhost'],
  ['SEVERITY_NUMBER_TRACE', 1n],
  ['TraceID(0x0102030405060708090a0b0c0d0e0f10)', Uint8Array.from(Buffer.from(TRACE_ID, 'hex'))],
  ['Len(attributes) + Len(attributes)', 28n],
  ['Hex(Len(attributes) + Len(attributes))', '000000000000001c'],
  ['attributes["foo"]', { bar: 'pass' }],
  ['attributes["foo2"]', { slice: ['val'] }],
  ['attributes["foo3"]', { nested: { test: 'pass' } }],
  ['attributes["things"]', [{ name: 'foo' }, { name: 'bar' }]],
];

describe('the Collector\'s OTTL end-to-end cases on its log record', () => {
  it('has the exact number of rows taken from e2e_test.go', () => {
    expect([EDITORS.length, CONVERTERS.length, FEATURES.length, SEQUENCES.length, VALUES.length]).toEqual([29, 62, 11, 4, 10]);
  });

  it.each(EDITORS)('editors: %s', (statement, outcome) => check([statement], editorsRecord, outcome));
  it.each(CONVERTERS)('converters: %s', (statement, outcome) => check([statement], convertersRecord, outcome));
  it.each(FEATURES)('features: %s', (statement, outcome) => check([statement], convertersRecord, outcome));
  it.each(SEQUENCES)('sequence: %s', (statements, outcome) => check(statements, convertersRecord, outcome));
  it.each(VALUES)('value: %s', (expression, expected) => {
    expect(plain(run([`set(attributes["out"], ${expression})`], valuesRecord()).attributes.out)).toEqual(expected);
  });
});

// pkg/ottl/parser_test.go, Test_parseStatement and Test_parseCondition: what the Collector refuses,
// with otelgate's column and message, and what both read.
const BAD_STATEMENTS: readonly (readonly [string, string])[] = [
  ['set(', 'column 5: expected a value (a path, a literal, a converter or nil) but found the end'],
  ['set("foo)', 'column 5: a string is not closed: a " is missing'],
  ['set(name.)', 'column 10: expected a path field but found ")"'],
  ['("foo")', 'column 1: expected an editor such as set(...) but found "("'],
  ['set("foo") where name =||= "fido"', 'column 24: unexpected character "|"'],
  ['set(span_id, SpanIDWrapper{not a hex string})', 'column 27: expected "(" after the converter name SpanIDWrapper'],
  ['set(span_id, SpanIDWrapper{01})', 'column 27: expected "(" after the converter name SpanIDWrapper'],
  ['set(trace_id, TraceIDWrapper{0102030405060708090a0b0c0d0e0f})', 'column 29: expected "(" after the converter name TraceIDWrapper'],
  ['set("foo") where name = "fido"', 'column 23: expected a comparison operator (==, !=, <, <=, >, >=) but found "="'],
  ['set("foo") where name or "fido"', 'column 23: expected a comparison operator (==, !=, <, <=, >, >=) but found "or"'],
  ['set("foo") where name and', 'column 23: expected a comparison operator (==, !=, <, <=, >, >=) but found "and"'],
  ['set("foo") where (', 'column 19: expected a value (a path, a literal, a converter or nil) but found the end'],
  ['set("foo") where )', 'column 18: expected a value (a path, a literal, a converter or nil) but found ")"'],
  ['set("foo") where (name == "fido"))', 'column 34: unexpected ")"'],
  ['set("foo") where ((name == "fido")', 'column 35: expected ")" but found the end'],
  ['Set()', 'column 1: editor names must start with a lowercase letter but got \'Set\''],
  ['set(int())', 'column 5: converter names must start with an uppercase letter but got \'int\''],
  ['set(1 + int())', 'column 9: converter names must start with an uppercase letter but got \'int\''],
  ['set(1 * 1 + (2 * int()))', 'column 18: converter names must start with an uppercase letter but got \'int\''],
  ['set() where 1 == int()', 'column 18: converter names must start with an uppercase letter but got \'int\''],
  ['set() where false or 1 == int() ', 'column 27: converter names must start with an uppercase letter but got \'int\''],
  ['set(foo.attributes["bar"].cat)["key"]', 'column 32: only paths and converters may be indexed, not editors, but got set[...]'],
  ['test() where animal =< "dog"', 'column 21: expected a comparison operator (==, !=, <, <=, >, >=) but found "="'],
  ['test() where animal <> "dog"', 'column 22: expected a value (a path, a literal, a converter or nil) but found ">"'],
  ['test() where animal', 'column 20: expected a comparison operator (==, !=, <, <=, >, >=) but found the end'],
  ['test() where animal ==', 'column 23: expected a value (a path, a literal, a converter or nil) but found the end'],
  ['test() where == animal', 'column 14: expected a value (a path, a literal, a converter or nil) but found "=="'],
  ['test() where one() == 1', 'column 14: converter names must start with an uppercase letter but got \'one\''],
  ['test(fail())', 'column 6: converter names must start with an uppercase letter but got \'fail\''],
  ['Test()', 'column 1: editor names must start with a lowercase letter but got \'Test\''],
  // The Collector names the indexed converter too; otelgate stops at the first problem.
  ['set() where test(foo)["key"] == "bar"', 'column 13: converter names must start with an uppercase letter but got \'test\''],
];

const BAD_CONDITIONS: readonly (readonly [string, string])[] = [
  ['set(', 'column 1: converter names must start with an uppercase letter but got \'set\''],
  ['set("foo)', 'column 5: a string is not closed: a " is missing'],
  ['("foo")', 'column 7: expected a comparison operator (==, !=, <, <=, >, >=) but found ")"'],
  ['name =||= "fido"', 'column 7: unexpected character "|"'],
  ['name = "fido"', 'column 6: expected a comparison operator (==, !=, <, <=, >, >=) but found "="'],
  ['name and "fido"', 'column 6: expected a comparison operator (==, !=, <, <=, >, >=) but found "and"'],
  ['name or', 'column 6: expected a comparison operator (==, !=, <, <=, >, >=) but found "or"'],
  ['(', 'column 2: expected a value (a path, a literal, a converter or nil) but found the end'],
  [')', 'column 1: expected a value (a path, a literal, a converter or nil) but found ")"'],
  ['(name == "fido"))', 'column 17: unexpected ")"'],
  ['((name == "fido")', 'column 18: expected ")" but found the end'],
  ['set()', 'column 1: converter names must start with an uppercase letter but got \'set\''],
  ['animal => "dog"', 'column 8: expected a comparison operator (==, !=, <, <=, >, >=) but found "="'],
  ['animal', 'column 7: expected a comparison operator (==, !=, <, <=, >, >=) but found the end'],
  ['==', 'column 1: expected a value (a path, a literal, a converter or nil) but found "=="'],
  ['test(fail())', 'column 1: converter names must start with an uppercase letter but got \'test\''],
  ['"test" == Foo', 'column 14: expected "(" after the converter name Foo'],
  ['test(animal)["kind"] == "birds"', 'column 1: converter names must start with an uppercase letter but got \'test\''],
  // Test_ParseConditions_Error
  ['True(', 'column 6: expected a value (a path, a literal, a converter or nil) but found the end'],
  ['"foo == "foo"', 'column 13: a string is not closed: a " is missing'],
];

const GOOD_STATEMENTS = [
  'set(foo.attributes["bar"].cat, "dog")',
  'set(set = foo.attributes["animal"], val = "dog") where animal == "cat"',
  'test() where service == "pinger" or foo.attributes["verb"] == "GET" and foo.attributes["endpoint"] == "/x/alive"',
  'test() where animal >= "cat"',
  'test() where attributes["path"] == "/healthcheck"',
];
const GOOD_CONDITIONS = ['Int() == 1', '1 == Int()', 'true and 1 == Int() ', 'false or 1 == Int() ', 'animal < "cat"', 'One() == 1', 'Test()'];

describe('the Collector\'s parser cases', () => {
  const refusal = (parse: () => unknown): string => {
    try {
      parse();
    } catch (error) {
      if (error instanceof OttlError) return error.message;
      throw error;
    }
    return 'parsed';
  };

  it.each(BAD_STATEMENTS)('statement %s is refused: %s', (text, message) => expect(refusal(() => parseStatement(text))).toBe(message));
  it.each(BAD_CONDITIONS)('condition %s is refused: %s', (text, message) => expect(refusal(() => parseCondition(text))).toBe(message));
  it.each(GOOD_STATEMENTS)('statement %s parses', (text) => expect(refusal(() => parseStatement(text))).toBe('parsed'));
  it.each(GOOD_CONDITIONS)('condition %s parses', (text) => expect(refusal(() => parseCondition(text))).toBe('parsed'));
});

// A value of the wrong type, in the Collector's e2e record, under each error_mode.
const MISMATCHES: readonly (readonly [string, string])[] = [
  ['ToLowerCase(attributes["int_value"])', 'ToLowerCase: expected string but got int64'],
  ['attributes[1]', 'cannot index a map by 1: only a slice takes an integer key'],
  ['attributes["http.method"] + 1', 'string must be int64 or float64 in +'],
];
const MODES = ['ignore', 'silent', 'propagate'] as const;
const cases = MISMATCHES.flatMap(([value, message]) => MODES.map((mode) => [mode, value, message] as const));

/** The Collector's record, and the same with body "operationB". */
const twoRecords = () => batchOf('logs', 'shop', RECEIVED, [convertersRecord(), { ...convertersRecord(), body: 'operationB' }]);

describe('a value of the wrong type under each error_mode', () => {
  it.each(cases)('filter, error_mode %s: %s', async (mode, value, message) => {
    const condition = `${value} == "0"`;
    const { service, push, rec, lines } = processorPipeline('filter', `error_mode: ${mode}\nlogs:\n  log_record:\n    - '${condition}'\n    - 'body == "operationA"'`);
    await service.start();
    const pushed = push(twoRecords());
    if (mode === 'propagate') {
      await expect(pushed).rejects.toThrow(PermanentError);
      await expect(pushed).rejects.toThrow(`filter filter: the condition ${JSON.stringify(condition)} could not be evaluated on a log record: ${message}`);
      expect(rec.batches.get('capture')).toBeUndefined();
    } else {
      await pushed;
      // The condition that fails counts as not matching; the next one still drops operationA.
      expect((rec.batches.get('capture') ?? []).flatMap((b) => (b.rows as LogRow[]).map((r) => r.body))).toEqual(['operationB']);
      expect(lines.filter((l) => l['msg'] === 'A filter condition could not be evaluated on some rows; there it counted as not matching (error_mode: ignore)').map((l) => l['failures'])).toEqual(mode === 'ignore' ? [2] : []);
    }
    await service.shutdown();
  });

  it.each(cases)('transform, error_mode %s: %s', async (mode, value, message) => {
    const statement = `set(log.attributes["test"], ${value})`;
    const { service, push, last, lines } = processorPipeline('transform', `error_mode: ${mode}\nlog_statements:\n  - '${statement}'\n  - 'set(log.attributes["after"], "pass")'`);
    await service.start();
    const pushed = push(twoRecords());
    if (mode === 'propagate') {
      await expect(pushed).rejects.toThrow(PermanentError);
      await expect(pushed).rejects.toThrow(`transform transform: ${JSON.stringify(statement)} failed on a row: ${message}`);
      expect(last()).toBeUndefined();
    } else {
      await pushed;
      // The statement that fails is skipped on the row; the next one runs.
      expect(((last()?.rows ?? []) as LogRow[]).map((r) => [r.attributes['test'], r.attributes['after']])).toEqual([[undefined, 'pass'], [undefined, 'pass']]);
      expect(lines.filter((l) => l['msg'] === 'A transform statement failed on some rows; they went on without it (error_mode: ignore)').map((l) => l['failures'])).toEqual(mode === 'ignore' ? [2] : []);
    }
    await service.shutdown();
  });
});
