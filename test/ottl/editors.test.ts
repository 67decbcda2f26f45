// The editors taken from the Collector's pkg/ottl/ottlfuncs (replace_match, replace_all_matches,
// limit, merge_maps, flatten, append), each case a map before and after, as their tests and README
// examples have them; the row that came is never changed.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AnyValue } from '../../src/model/anyvalue.js';
import { OttlRuntimeError } from '../../src/ottl/errors.js';
import { attrs } from '../helpers/rows.js';
import { baseRow, run } from './run.js';

const plain = (value: AnyValue | undefined): unknown =>
  value !== null && typeof value === 'object' && !(value instanceof Uint8Array) && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)])) : Array.isArray(value) ? value.map(plain) : value;

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('editors', () => {
  it.each<[string, Record<string, AnyValue>, unknown]>([
    ['replace_match(attributes["a"], "hello*", "hi")', { a: 'hello world' }, { a: 'hi' }],
    // Go's ReplaceAllString: no empty match right after a match (JavaScript's replace would give -b--c-).
    ['replace_pattern(attributes["a"], "a*", "-")', { a: 'baaac' }, { a: '-b-c-' }],
    ['replace_pattern(attributes["a"], "(?P<k>\\\\w+)=(\\\\d+)", "${k}:$2")', { a: 'x=1 y=22 z=a' }, { a: 'x:1 y:22 z=a' }],
    ['replace_all_patterns(attributes, "value", "\\\\d*", "#")', { a: 'a1b', b: 2n }, { a: '#a#b#', b: 2n }],
    ['replace_match(attributes["a"], "hello", "hi")', { a: 'hello world' }, { a: 'hello world' }],
    ['replace_match(attributes["a"], "h?llo [a-w]orld", "hi")', { a: 'hello world' }, { a: 'hi' }],
    ['replace_match(attributes["a"], "[!h]*", "hi")', { a: 'hello world' }, { a: 'hello world' }],
    ['replace_match(attributes["a"], "{hello,bye} *", "hi")', { a: 'bye now' }, { a: 'hi' }],
    ['replace_match(attributes["a"], "a\\\\*b", "hi")', { a: 'a*b' }, { a: 'hi' }],
    ['replace_match(attributes["a"], "*", "hi")', { a: 1n }, { a: 1n }],
    ['replace_match(attributes["a"], "*", "hi")', {}, {}],
    ['replace_match(attributes["a"], "*", "secret", SHA256)', { a: 'x' }, { a: sha256('secret') }],
    ['replace_match(attributes["a"], "*", "secret", SHA256, "sha:%s")', { a: 'x' }, { a: `sha:${sha256('secret')}` }],
    // replacementFormat is Go's fmt.Sprintf with the one argument.
    ['replace_match(attributes["a"], "*", "secret", SHA256, "100%% %s %s")', { a: 'x' }, { a: `100% ${sha256('secret')} %!s(MISSING)` }],
    ['replace_match(attributes["a"], "*", "secret", SHA256, "%.8s|%-70v|%s")', { a: 'x' }, { a: `${sha256('secret').slice(0, 8)}|%!v(MISSING)|%!s(MISSING)` }],
    ['replace_match(attributes["a"], "*", "secret", SHA256, "%d %s")', { a: 'x' }, { a: `%!d(string=${sha256('secret')}) %!s(MISSING)` }],
    ['replace_match(attributes["a"], "*", "secret", SHA256, "%%s")', { a: 'x' }, { a: `%s%!(EXTRA string=${sha256('secret')})` }],
    ['replace_match(attributes["a"], "*", "ab", SHA256, "%q %% %s")', { a: 'x' }, { a: `"${sha256('ab')}" % %!s(MISSING)` }],
    ['replace_match(attributes["a"], "*", "secret", SHA256, "[%66s] [%-3X] %s %")', { a: 'x' }, { a: `[  ${sha256('secret')}] [%!X(MISSING)] %!s(MISSING) %!(NOVERB)` }],
    ['replace_match(attributes["a"], "*", "ab", SHA256, "%.2x %s")', { a: 'x' }, { a: `${Buffer.from(sha256('ab').slice(0, 2)).toString('hex')} %!s(MISSING)` }],
    ['replace_match(attributes["a"], "?-[😀-😂]", "hi")', { a: '😀-😁' }, { a: 'hi' }],
    ['replace_match(attributes["a"], "*x?z*[0-9]", "hi")', { a: 'aaxyzbbxqz7' }, { a: 'hi' }],
    ['replace_match(attributes["a"], "*x?z*[0-9]", "hi")', { a: 'aaxyzbb7x' }, { a: 'aaxyzbb7x' }],
    ['replace_match(attributes["a"], "a*a", "hi")', { a: 'a' }, { a: 'a' }],
    ['replace_all_matches(attributes, "/user/*/list/*", "/user/{userId}/list/{listId}")', { a: '/user/1/list/2', b: '/other', c: 3n }, { a: '/user/{userId}/list/{listId}', b: '/other', c: 3n }],
    ['replace_all_matches(attributes, "*", "x", MD5)', { a: 'v' }, { a: createHash('md5').update('x').digest('hex') }],
    ['limit(attributes, 2, [])', { a: 1n, b: 2n, c: 3n }, { a: 1n, b: 2n }],
    ['limit(attributes, 2, ["c"])', { a: 1n, b: 2n, c: 3n }, { a: 1n, c: 3n }],
    ['limit(attributes, 2, ["c", "z"])', { a: 1n, b: 2n, c: 3n }, { a: 1n, c: 3n }],
    ['limit(attributes, 3, [])', { a: 1n, b: 2n, c: 3n }, { a: 1n, b: 2n, c: 3n }],
    ['limit(attributes["a"], 0, [])', { a: 'text' }, { a: 'text' }],
    ['merge_maps(attributes, {"a": "new", "z": "new"}, "insert")', { a: 'old' }, { a: 'old', z: 'new' }],
    ['merge_maps(attributes, {"a": "new", "z": "new"}, "update")', { a: 'old' }, { a: 'new' }],
    ['merge_maps(attributes, {"a": "new", "z": "new"}, "upsert")', { a: 'old' }, { a: 'new', z: 'new' }],
    ['merge_maps(attributes, ParseJSON("{\\"j\\": 1}"), "upsert")', {}, { j: 1 }],
    ['flatten(attributes)', { a: attrs({ b: attrs({ c: 1n }), l: ['x', attrs({ y: true }), ['z']] }), k: 's' }, { 'a.b.c': 1n, 'a.l.0': 'x', 'a.l.1.y': true, 'a.l.20': 'z', k: 's' }],
    // As the Collector's flatten: a list in a list is keyed with no '.' between the indices (a.l.20 is a.l[2][0]).
    ['flatten(attributes)', { l: [['x', ['y'], attrs({ m: 1n })]] }, { 'l.00': 'x', 'l.01.0': 'y', 'l.02.m': 1n }],
    ['flatten(attributes, "app")', { a: attrs({ b: 1n }) }, { 'app.a.b': 1n }],
    ['flatten(attributes, depth=1)', { a: attrs({ b: attrs({ c: 1n }) }), l: [attrs({ m: 1n })] }, { 'a.b': { c: 1n }, 'l.0': { m: 1n } }],
    ['flatten(attributes, depth=2)', { l: [attrs({ m: attrs({ n: 1n }) })] }, { 'l.0.m': { n: 1n } }],
    [
      'flatten(attributes, resolveConflicts=true)',
      { address: attrs({ street: attrs({ number: 'first' }) }), 'address.street': attrs({ number: ['second', 'third'] }), 'address.street.number': 'fourth', occupants: ['user 1', 'user 2'] },
      { 'address.street.number': 'first', 'address.street.number.0': 'second', 'address.street.number.1': 'third', 'address.street.number.2': 'fourth', occupants: 'user 1', 'occupants.0': 'user 2' },
    ],
    ['append(attributes["l"], "b")', { l: ['a'] }, { l: ['a', 'b'] }],
    ['append(attributes["l"], values=["b", 1])', { l: 'a' }, { l: ['a', 'b', 1n] }],
    ['append(attributes["l"], "b", ["c"])', {}, { l: ['b', 'c'] }],
    ['append(attributes["l"], 2.5)', { l: 1n }, { l: [1n, 2.5] }],
  ])('%s', (statement, before, after) => {
    const row = baseRow(before);
    const original = plain(row.attributes);
    expect(plain(run([statement], row).attributes)).toEqual(after);
    expect(plain(row.attributes)).toEqual(original);
  });

  it('keeps changing a map that statements on the row made, without touching the one that came', () => {
    const row = baseRow({ a: 'x', n: attrs({ b: 1n }) });
    const out = run(['merge_maps(attributes, {"m": 1}, "upsert")', 'flatten(attributes)', 'limit(attributes, 2, ["m"])', 'append(attributes["a"], "y")'], row);
    expect(plain(out.attributes)).toEqual({ a: ['x', 'y'], m: 1n });
    expect(plain(row.attributes)).toEqual({ a: 'x', n: { b: 1n } });
  });

  it('appends a copy of a map the row\'s statements made, not the map itself', () => {
    const out = run(['set(attributes["a"], "x")', 'append(attributes["l"], attributes)', 'set(attributes["b"], "y")'], baseRow({}));
    const list = out.attributes.l as readonly AnyValue[];
    expect(list[0]).not.toBe(out.attributes);
    expect(plain(list[0])).toEqual({ a: 'x' });
    expect(plain(out.attributes)).toEqual({ a: 'x', l: [{ a: 'x' }], b: 'y' });
  });

  it('reads keys that plain objects inherit ("constructor", "toString", "__proto__") as absent until set, and as what was set', () => {
    const statements = [
      'set(attributes["seen"], Concat([String(attributes["constructor"]), String(attributes["toString"]), String(attributes["__proto__"])], ","))',
      'delete_key(attributes, "hasOwnProperty")',
      'replace_pattern(attributes["constructor"], "x", "y")',
    ];
    expect(plain(run(statements, baseRow({ a: 'x' })).attributes)).toEqual({ a: 'x', seen: '<nil>,<nil>,<nil>' });
    const own = run(statements, baseRow({ constructor: 'x', ['__proto__']: 'p', hasOwnProperty: 'h' })).attributes;
    expect([Object.keys(own), own['constructor'], own['__proto__'], own['seen']]).toEqual([['constructor', '__proto__', 'seen'], 'y', 'p', 'x,<nil>,p']);
  });

  // No time limit of its own: a second here, and a matcher that backtracks would not finish within
  // the suite's 30 s timeout (vitest.config.ts) on this megabyte, however loaded the machine.
  it('matches a glob against a megabyte in one walk per alternative', () => {
    const value = 'a'.repeat(1 << 20);
    const out = run(['replace_match(attributes["a"], "*{a,aa,aaa,aaaa}{a,aa,aaa,aaaa}{a,b}a?a?a?a?a?a?a?a?b*", "hi")'], baseRow({ a: value }));
    expect(out.attributes.a).toBe(value);
  });

  it('flattens 100 levels of nesting, and no more', () => {
    const nested = (depth: number): AnyValue => (depth === 0 ? 'leaf' : attrs({ k: nested(depth - 1) }));
    expect(Object.keys(run(['flatten(attributes)'], baseRow({ m: nested(100) })).attributes)).toEqual([`m${'.k'.repeat(100)}`]);
    const act = (): unknown => run(['flatten(attributes)'], baseRow({ m: nested(101) }));
    expect(act).toThrow(OttlRuntimeError);
    expect(act).toThrow('flatten: the map is nested deeper than 100 levels');
  });

  it('flattens to 10,000 keys, and no more', () => {
    const wide = (n: number): AnyValue => attrs(Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 1n])));
    expect(Object.keys(run(['flatten(attributes)'], baseRow({ m: wide(10_000) })).attributes)).toHaveLength(10_000);
    expect(() => run(['flatten(attributes)'], baseRow({ m: wide(10_001) }))).toThrow('flatten: the result would have more than 10000 keys');
  });

  it.each<[string, Record<string, AnyValue>, string]>([
    ['merge_maps(attributes, attributes["s"], "upsert")', { s: 'str' }, 'merge_maps: expected pcommon.Map but got string'],
    ['flatten(attributes["s"])', { s: 'str' }, 'flatten: expected a map but got string'],
    ['replace_all_matches(attributes["s"], "*", "x")', { s: 'str' }, 'replace_all_matches: expected a map but got string'],
    ['append(attributes["m"], "x")', { m: attrs({}) }, 'append: unsupported type of target field: "Map"'],
    ['append(attributes["l"], Now())', {}, 'append: a time.Time cannot be stored'],
    ['replace_match(attributes["s"], "*", 1)', { s: 'str' }, 'replace_match: expected string but got int64'],
    ['replace_match(attributes["s"], "*", "x", FNV)', { s: 'str' }, 'replacement value is not a string'],
    ['replace_match(attributes["s"], "*", "x", SHA256, "no directive")', { s: 'str' }, 'replacementFormat must be format string containing a single %s'],
  ])('%s fails on the row: %s', (statement, before, message) => {
    const act = (): unknown => run([statement], baseRow(before));
    expect(act).toThrow(OttlRuntimeError);
    expect(act).toThrow(message);
  });

  it.each<[string, string]>([
    ['replace_match(attributes["a"], "[a-", "x")', 'the pattern supplied to replace_match is not a valid pattern'],
    ['replace_all_matches(attributes, "{a,b", "x")', 'the pattern supplied to replace_all_matches is not a valid pattern'],
    ['replace_match(attributes["a"], "{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}", "x")', 'the pattern has more than 32 alternatives'],
    [`replace_match(attributes["a"], "*${'?'.repeat(32)}*", "x")`, 'otelgate takes at most 31 characters with ? or [...] between two stars'],
    ['replace_match(attributes["a"], "*", "x", NOPE)', "replace_match's function must be the name of a converter that takes one value"],
    ['replace_match(attributes["a"], "*", "x", "SHA256")', "replace_match's function must be the name of a converter that takes one value"],
    ['limit(attributes, -1, [])', 'invalid limit for limit function, -1 cannot be negative'],
    ['limit(attributes, 1, ["a", "b"])', 'invalid limit for limit function, 1 cannot be less than number of priority attributes 2'],
    ['merge_maps(attributes, {}, "replace")', "invalid value for strategy, replace, must be 'insert', 'update' or 'upsert'"],
    ['flatten(attributes, "", 0)', "invalid depth '0' for flatten function, must be greater than 0"],
    ['flatten(attributes, resolveConflicts="yes")', 'must be true or false written in the statement'],
    ['append(attributes["l"])', "at least one of the optional arguments ('value' or 'values') must be provided"],
    ['replace_pattern(attributes["a"], "/", "@", SHA256)', 'the function and replacementFormat arguments of replace_pattern are not supported in otelgate yet'],
    ['replace_all_patterns(attributes, "value", "/", "@", SHA256, "id=%s")', 'the function and replacementFormat arguments of replace_all_patterns are not supported in otelgate yet'],
  ])('%s is refused when loaded: %s', (statement, message) => {
    expect(() => run([statement])).toThrow(message);
  });
});
