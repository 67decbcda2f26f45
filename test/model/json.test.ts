// The read API's JSON form of OTLP values: always valid JSON, and each OTLP type recognisable.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyValueJson, bodyText, doubleJson, intJson } from '../../src/model/json.js';
import type { AnyValue } from '../../src/model/anyvalue.js';
import { attrs } from '../helpers/rows.js';

describe('read API JSON form', () => {
  it('writes doubles with a fraction or exponent and int64 without, as strings beyond 2^53', () => {
    expect([1, -0, 0.5, 1e21, 1e-7, -3].map(doubleJson)).toEqual(['1.0', '-0.0', '0.5', '1e+21', '1e-7', '-3.0']);
    expect([Number.NaN, Infinity, -Infinity].map(doubleJson)).toEqual(['"NaN"', '"Infinity"', '"-Infinity"']);
    expect([0n, -42n, 9007199254740991n, 9007199254740992n, -9007199254740992n, 2n ** 63n - 1n].map(intJson)).toEqual([
      '0',
      '-42',
      '9007199254740991',
      '"9007199254740992"',
      '"-9007199254740992"',
      '"9223372036854775807"',
    ]);
  });

  it('keeps every AnyValue type, with bytes as base64 and null-prototype maps', () => {
    const value = attrs({ s: 'x"y', b: true, d: 2, i: 2n, bytes: new Uint8Array([222, 173, 190, 239]), list: ['a', 1n, null], map: attrs(JSON.parse('{"__proto__":"plain key"}') as Record<string, AnyValue>) });
    expect(anyValueJson(value)).toBe('{"s":"x\\"y","b":true,"d":2.0,"i":2,"bytes":"3q2+7w==","list":["a",1,null],"map":{"__proto__":"plain key"}}');
  });

  it('shows a log body as a string: strings as themselves, structures as JSON, scalars as text', () => {
    expect(bodyText('plain')).toBe('plain');
    expect(bodyText(null)).toBe('');
    expect(bodyText(attrs({ error: 'declined', code: 51n }))).toBe('{"error":"declined","code":51}');
    expect(bodyText([true, -0.5])).toBe('[true,-0.5]');
    expect(bodyText(1.5)).toBe('1.5');
    expect(bodyText(12n)).toBe('12');
    expect(bodyText(false)).toBe('false');
  });

  it('always writes valid JSON that reads back to the same value, for any AnyValue', () => {
    const leaf = fc.oneof(fc.string(), fc.boolean(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.uint8Array({ maxLength: 8 }), fc.constant(null));
    const value = fc.letrec((tie) => ({
      any: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('any'), { maxLength: 3 }), fc.dictionary(fc.string(), tie('any'), { maxKeys: 3 }).map((o) => attrs(o as Record<string, AnyValue>))),
    })).any as fc.Arbitrary<AnyValue>;
    const expected = (v: AnyValue): unknown => {
      if (typeof v === 'bigint') return v > 9007199254740991n || v < -9007199254740991n ? String(v) : Number(v);
      if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
      if (Array.isArray(v)) return v.map(expected);
      if (typeof v === 'number') return Object.is(v, -0) ? -0 : v;
      if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, inner]) => [k, expected(inner)]));
      return v;
    };
    fc.assert(
      fc.property(value, (v) => {
        expect(JSON.parse(anyValueJson(v))).toEqual(expected(v));
      }),
      { seed: 7, numRuns: 500 },
    );
  });
});
