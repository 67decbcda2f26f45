// OTTL conditions on a log record, each with the result the Collector's OTTL gives (its comparison
// rules in compare.go and LANGUAGE.md, its math, its converters' behaviour), and statements that
// must be refused when the config is loaded, with the column and what was expected.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newAttributes, type AnyValue, type Attributes } from '../../src/model/anyvalue.js';
import type { LogRow } from '../../src/model/logs.js';
import { compileCondition } from '../../src/ottl/compile.js';
import { logContext, type LogContext } from '../../src/ottl/contexts/log.js';
import { OttlError, OttlRuntimeError } from '../../src/ottl/errors.js';
import { parseCondition, parseStatement } from '../../src/ottl/parser.js';
import { compareValues } from '../../src/ottl/values.js';
import { anyValue } from '../helpers/row-arbitraries.js';

function attributes(entries: Record<string, AnyValue>): Attributes {
  return Object.assign(newAttributes(), entries);
}

const ROW: LogRow = {
  resource: { attributes: attributes({ 'service.name': 'checkout', 'host.cpus': 4n }), droppedAttributesCount: 0, schemaUrl: 'https://opentelemetry.io/schemas/1.26.0' },
  scope: { name: 'io.checkout', version: '1.2.0', attributes: attributes({}), droppedAttributesCount: 0, schemaUrl: '' },
  timeUnixNano: 1_700_000_000_123_456_789n,
  observedTimeUnixNano: 0n,
  severityNumber: 13,
  severityText: 'WARN',
  body: 'GET /health took 3 ms',
  attributes: attributes({
    'http.route': '/health',
    'http.status_code': 200n,
    ratio: 0.25,
    ok: true,
    tags: ['a', 'b'],
    nested: attributes({ inner: attributes({ deep: 'x' }) }),
    raw: new Uint8Array([1, 2, 255]),
    empty: null,
    big: 9007199254740993n,
    small: 1.2345e-7,
  }),
  droppedAttributesCount: 2,
  flags: 1,
  traceId: '5b8efff798038103d269b633813fc60c',
  spanId: 'eee19b7ec3c1b174',
  eventName: '',
};

const ctx: LogContext = { row: ROW, project: 'shop' };
const evaluate = (text: string): boolean => compileCondition(parseCondition(text), logContext)(ctx);

describe('OTTL conditions on a log record', () => {
  it('compares a value of any type with text written in the statement as compareValues does, on either side, == and !=', () => {
    fc.assert(
      fc.property(anyValue, fc.string({ unit: fc.constantFrom('a', 'b', '1', ' ', '/') }), fc.constantFrom('==' as const, '!=' as const), fc.boolean(), (value, text, op, textFirst) => {
        const row: LogRow = { ...ROW, attributes: attributes({ v: value }) };
        const condition = textFirst ? `"${text}" ${op} attributes["v"]` : `attributes["v"] ${op} "${text}"`;
        expect(compileCondition(parseCondition(condition), logContext)({ row, project: 'shop' })).toBe(compareValues(value, text, op));
      }),
      { numRuns: 1000 },
    );
  });

  it.each([
    // Paths, with and without the context's name.
    ['attributes["http.route"] == "/health"', true],
    ['log.attributes["http.route"] == "/health"', true],
    ['attributes["http.route"] != "/health"', false],
    ['attributes["nested"]["inner"]["deep"] == "x"', true],
    ['attributes["tags"][1] == "b"', true],
    ['attributes["missing"] == nil', true],
    ['attributes["missing"] != nil', false],
    ['attributes["empty"] == nil', true],
    ['resource.attributes["service.name"] == "checkout"', true],
    ['instrumentation_scope.name == "io.checkout"', true],
    ['scope.version == "1.2.0"', true],
    ['resource.schema_url == "https://opentelemetry.io/schemas/1.26.0"', true],
    ['body == "GET /health took 3 ms"', true],
    ['body.string == "GET /health took 3 ms"', true],
    ['severity_text == "WARN"', true],
    ['severity_number == 13', true],
    ['severity_number == SEVERITY_NUMBER_WARN', true],
    ['severity_number >= SEVERITY_NUMBER_WARN and severity_number < SEVERITY_NUMBER_ERROR', true],
    ['severity_number < SEVERITY_NUMBER_INFO4', false],
    ['time_unix_nano == 1700000000123456789', true],
    ['time_unix_nano > 1700000000123456788', true],
    ['observed_time_unix_nano == 0', true],
    ['flags == 1', true],
    ['dropped_attributes_count == 2', true],
    ['trace_id.string == "5b8efff798038103d269b633813fc60c"', true],
    ['span_id.string == "eee19b7ec3c1b174"', true],
    ['trace_id == 0x5b8efff798038103d269b633813fc60c', true],
    ['span_id != 0xeee19b7ec3c1b175', true],
    ['event_name == ""', true],
    ['project == "shop"', true],
    // Comparison rules across types.
    ['attributes["http.status_code"] == 200', true],
    ['attributes["http.status_code"] == 200.0', true],
    ['attributes["http.status_code"] < 200.5', true],
    ['attributes["ratio"] == 0.25', true],
    ['attributes["ratio"] > 0', true],
    ['attributes["http.status_code"] == "200"', false],
    ['attributes["http.status_code"] != "200"', true],
    ['attributes["http.status_code"] < "300"', false],
    ['attributes["ok"] == true', true],
    ['attributes["ok"] > false', true],
    ['attributes["ok"] == "true"', false],
    ['"abc" < "abd"', true],
    ['"b" > "abc"', true],
    ['nil == nil', true],
    ['nil <= nil', true],
    ['nil < nil', false],
    ['nil != nil', false],
    ['attributes["missing"] < 1', false],
    ['attributes["missing"] > 1', false],
    ['attributes["raw"] == 0x0102ff', true],
    ['attributes["raw"] < 0x0103', true],
    ['attributes["raw"] != nil', true],
    ['attributes["tags"] == ["a", "b"]', true],
    ['attributes["tags"] == ["b", "a"]', false],
    ['attributes["tags"] < ["b"]', false],
    ['attributes["nested"]["inner"] == {"deep": "x"}', true],
    ['attributes["nested"]["inner"] != {"deep": "y"}', true],
    // Math.
    ['1 + 2 * 3 == 7', true],
    ['(1 + 2) * 3 == 9', true],
    ['10 / 4 == 2', true],
    ['10 / 4.0 == 2.5', true],
    ['10 - 2 - 3 == 5', true],
    ['-attributes["http.status_code"] == -200', true],
    ['attributes["http.status_code"] + 1 == 201', true],
    ['-1 < 0', true],
    ['2 - -1 == 3', true],
    // Boolean operators and precedence (and binds tighter than or).
    ['true or false and false', true],
    ['(true or false) and false', false],
    ['not true or true', true],
    ['not (true or true)', false],
    ['not attributes["ok"] == true', false],
    ['false', false],
    ['true', true],
    // Converters.
    ['IsMatch(body, "^GET /health")', true],
    ['IsMatch(body, "(?i)^get")', true],
    ['IsMatch(body, "\\\\AGET")', true],
    ['IsMatch(body, "ms\\\\z")', true],
    ['IsMatch(body, "(?P<verb>GET) /")', true],
    ['IsMatch("3.25", "^\\\\d+(\\\\.\\\\d+)?$")', true],
    ['IsMatch("10.0.0.1", "^(\\\\d{1,3}\\\\.){3}\\\\d{1,3}$")', true],
    ['IsMatch("(12)", "^\\\\(?-?\\\\d+\\\\)?$")', true],
    ['IsMatch(body, "^POST")', false],
    ['IsMatch(attributes["http.status_code"], "^2\\\\d\\\\d$")', true],
    ['IsMatch(attributes["missing"], ".*")', false],
    ['IsMatch(target = body, pattern = "health")', true],
    ['not IsMatch(body, "health")', false],
    ['IsString(body)', true],
    ['IsString(attributes["http.status_code"])', false],
    ['IsInt(attributes["http.status_code"])', true],
    ['IsDouble(attributes["ratio"])', true],
    ['IsBool(attributes["ok"])', true],
    ['IsMap(attributes["nested"])', true],
    ['IsList(attributes["tags"])', true],
    ['IsList(attributes["nested"])', false],
    ['Len(body) == 21', true],
    ['Len(attributes["tags"]) == 2', true],
    ['Len(attributes) == 10', true],
    ['Len("é") == 2', true],
    ['ToLowerCase(severity_text) == "warn"', true],
    ['ToUpperCase("abc") == "ABC"', true],
    ['Concat([severity_text, attributes["http.status_code"], attributes["ok"]], "-") == "WARN-200-true"', true],
    ['Concat([attributes["missing"]], "") == "<nil>"', true],
    ['Split(body, " ")[1] == "/health"', true],
    ['Substring(body, 4, 7) == "/health"', true],
    ['Int("42") == 42', true],
    ['Int(attributes["ratio"]) == 0', true],
    ['Int("x") == nil', true],
    ['Double("0.5") == 0.5', true],
    ['Double(attributes["http.status_code"]) == 200.0', true],
    ['String(attributes["http.status_code"]) == "200"', true],
    ['String(attributes["ratio"]) == "0.25"', true],
    ['SHA256("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"', true],
    ['SHA1("abc") == "a9993e364706816aba3e25717850c26c9cd0d89d"', true],
    ['MD5("abc") == "900150983cd24fb0d6963f7d28e17f72"', true],
    ['Double("inf") > 1.0e300', true],
    ['Double("-Infinity") < 0', true],
    ['Double("0x10") == nil', true],
    ['Double(" 1") == nil', true],
    ['Double("1e3") == 1000.0', true],
    ['IsMatch(target = attributes["nested"], pattern = "^.\\"inner.:.\\"deep.:.x")', true],
    ['IsMatch(attributes["big"], "^9007199254740993$")', true],
    ['IsMatch(attributes["small"], "^0\\\\.00000012345$")', true],
    ['Int(target = "7") == 7', true],
    ['-9223372036854775808 < 0', true],
    ['"\\uffff" < "\\U0001F600"', true],
    ['"a" < "b"', true],
    // Strings with escapes.
    ['"\\xc3\\xa9" == "é"', true],
    ['"\\303\\251" == "é"', true],
    ['"a\\"b" == Concat(["a", "\\"", "b"], "")', true],
    ['"tab\\there" != "tab here"', true],
    ['"\\u00e9" == "é"', true],
  ] as const)('%s is %s', (text, expected) => {
    expect(evaluate(text)).toBe(expected);
  });

  it.each([
    ['ToLowerCase(attributes["http.status_code"]) == "x"', 'ToLowerCase: expected string but got int64'],
    ['attributes["http.route"] + 1 == 2', 'string must be int64 or float64 in +'],
    ['1 / 0 == 1', 'attempted to divide by 0'],
    ['attributes["tags"][5] == nil', 'index 5 is out of range for a slice of 2'],
    ['attributes["http.route"]["x"] == nil', 'cannot index a string by "x": only a map takes a string key'],
    ['Len(attributes["ok"]) == 1', 'Len: target must be a string, a slice or a map, not bool'],
    ['SHA256(attributes["http.status_code"]) == nil', 'SHA256: expected string but got int64'],
    ['ToLowerCase("A")', 'ToLowerCase must give a boolean in a condition, not a string'],
  ])('%s cannot be evaluated: %s', (text, message) => {
    expect(() => evaluate(text)).toThrow(new OttlRuntimeError(message));
  });
});

describe('OTTL that is refused when the config is loaded', () => {
  const refusal = (compile: () => unknown): string => {
    try {
      compile();
    } catch (error) {
      if (error instanceof OttlError) return error.message;
      throw error;
    }
    throw new Error('no error');
  };
  const condition = (text: string): string => refusal(() => compileCondition(parseCondition(text), logContext));

  it.each([
    ['IsMatsh(body, "x")', 'column 1: IsMatsh is not a converter otelgate has. Did you mean "IsMatch"?'],
    ['atributes["x"] == 1', 'column 1: atributes["x"] is not a path of the log context. Did you mean "attributes"?'],
    ['severity_number == SEVERITY_NUMBER_WARM', 'column 20: SEVERITY_NUMBER_WARM is not an enum OTTL knows. Did you mean "SEVERITY_NUMBER_WARN"?'],
    ['IsMatch(body, "(a+)+$")', 'column 1: IsMatch: "(a+)+$" could take exponential time on some input (a repetition without an upper bound inside another, such as (a+)+); write it without the nesting'],
    ['IsMatch(body, "(\\\\w*x)*")', 'column 1: IsMatch: "(\\\\w*x)*" could take exponential time on some input (a repetition without an upper bound inside another, such as (a+)+); write it without the nesting'],
    ['IsMatch(body, "a(?=b)")', 'column 1: IsMatch: "a(?=b)": lookarounds are not RE2 syntax, which the Collector\'s regular expressions are'],
    ['IsMatch(body, "(a)\\\\1")', 'column 1: IsMatch: "(a)\\\\1": backreferences are not RE2 syntax, which the Collector\'s regular expressions are'],
    ['IsMatch(body, "(?P<x>a?)\\\\k<x>")', 'column 1: IsMatch: "(?P<x>a?)\\\\k<x>": backreferences are not RE2 syntax, which the Collector\'s regular expressions are'],
    ['IsMatch(body, "\\\\pL+")', 'column 1: IsMatch: "\\\\pL+": \\p is not supported in otelgate\'s regular expressions'],
    ['IsMatch(body, "[[:alpha:]]")', 'column 1: IsMatch: "[[:alpha:]]": POSIX classes such as [[:alpha:]] are not supported; write the class out, as [a-zA-Z]'],
    ['IsMatch(body, "(")', 'column 1: IsMatch: "(" is not a valid regular expression: Invalid regular expression: /(/: Unterminated group'],
    ['IsMatch(body)', 'column 1: IsMatch needs its pattern (it takes target, pattern)'],
    ['IsMatch(body, "a", "b")', 'column 20: IsMatch takes 2 arguments (target, pattern), not 3'],
    ['IsMatch(body, pattern = "a", colour = "b")', 'column 30: IsMatch has no parameter colour; it takes target, pattern'],
    ['IsMatch(body, severity_text)', 'column 15: IsMatch\'s pattern must be a string written in the statement'],
    ['Concat(body, "")', 'column 8: Concat\'s vals must be a list written in the statement, as [a, b]'],
    ['severity_text["x"] == nil', 'column 15: severity_text["x"]: severity_text takes no keys'],
    ['(1 == 1', 'column 8: expected ")" but found the end'],
    ['body ==', 'column 8: expected a value (a path, a literal, a converter or nil) but found the end'],
    ['body', 'column 5: expected a comparison operator (==, !=, <, <=, >, >=) but found the end'],
    ['body = "x"', 'column 6: expected a comparison operator (==, !=, <, <=, >, >=) but found "="'],
    ['body == "x" extra', 'column 13: unexpected "extra"'],
    ['isMatch(body, "x")', 'column 1: converter names must start with an uppercase letter but got \'isMatch\''],
    ['body == "unclosed', 'column 9: a string is not closed: a " is missing'],
    ['body == "\\q"', 'column 10: invalid escape \\q in a string'],
    ['body == 0xabc', 'column 9: 0xabc has an odd number of hex digits; bytes take two a byte'],
    ['body == 1 # 2', 'column 11: unexpected character "#"'],
    ['9223372036854775808 > 0', 'column 1: 9223372036854775808 does not fit in a 64-bit integer'],
    ['IsMatch(pattern = "x", body)', 'column 24: IsMatch: an argument without a name comes after a named one; name it too, or put it first'],
    ['body == "\\uD800"', 'column 10: invalid escape \\uD800 in a string'],
    ['constructor == 1', 'column 1: constructor is not a path of the log context. Valid paths: project, body.string, severity_number, severity_text, time_unix_nano, observed_time_unix_nano, time, observed_time, flags, dropped_attributes_count, event_name, trace_id, trace_id.string, span_id, span_id.string, resource.dropped_attributes_count, resource.schema_url, scope.name, scope.version, scope.dropped_attributes_count, scope.schema_url, attributes, body, resource.attributes, scope.attributes, cache.'],
    ['Foo == 1', 'column 5: expected "(" after the converter name Foo'],
  ])('%s', (text, message) => {
    expect(condition(text)).toBe(message);
  });

  it('names the statement\'s editor rules', () => {
    expect(refusal(() => parseStatement('Set(attributes["a"], 1)'))).toBe('column 1: editor names must start with a lowercase letter but got \'Set\'');
    expect(refusal(() => parseStatement('set(attributes["a"], 1)["x"]'))).toBe('column 25: only paths and converters may be indexed, not editors, but got set[...]');
    expect(parseStatement('set(attributes["a"], 1) where body == "x"').where).toMatchObject({ kind: 'compare', op: '==' });
  });
});
