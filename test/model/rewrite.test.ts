// Rows are immutable: the types refuse what would bring Object.prototype back to a map, and processors
// change rows by copy-on-write that keeps what rows share shared.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newAttributes, withAttributes, type Attributes } from '../../src/model/anyvalue.js';
import type { Resource } from '../../src/model/resource.js';
import { mapRows, sharedRewrite } from '../../src/model/rewrite.js';
import { attrs, logRow, resource, scope } from '../helpers/rows.js';

/** Whether nothing can be inherited: no member on the way up, and the way ends at once. */
function ordinaryKeys(map: object): boolean {
  const prototype = Object.getPrototypeOf(map) as object | null;
  return prototype === null || (Object.getPrototypeOf(prototype) === null && Reflect.ownKeys(prototype).length === 0);
}

describe('Attributes', () => {
  it('type-check only as made by newAttributes(): a literal, a spread or Object.fromEntries() does not', () => {
    const made = attrs({ a: 1 });
    // @ts-expect-error an object literal has Object.prototype
    const literal: Attributes = { a: 1 };
    // @ts-expect-error a spread has Object.prototype
    const spread: Attributes = { ...made };
    // @ts-expect-error so has Object.fromEntries()
    const entries: Attributes = Object.fromEntries(Object.entries(made));
    // @ts-expect-error rows' attributes are read-only
    made['b'] = 2;
    expect([literal, spread, entries].map((m) => Object.getPrototypeOf(m))).toEqual([Object.prototype, Object.prototype, Object.prototype]);
    expect(ordinaryKeys(newAttributes())).toBe(true);
  });

  it('hold every key as an ordinary own key: nothing inherited, "__proto__" and "constructor" included', () => {
    const made = newAttributes();
    expect(['toString', 'constructor', 'hasOwnProperty', '__proto__'].map((key) => key in made)).toEqual([false, false, false, false]);
    made['__proto__'] = 'a';
    made['constructor' as string] = 'b';
    expect(Object.keys(made)).toEqual(['__proto__', 'constructor']);
    expect(JSON.stringify(made)).toBe('{"__proto__":"a","constructor":"b"}');
    expect(ordinaryKeys(made)).toBe(true);
  });

  it('withAttributes() copies into a map of its own, changes over the base, the base untouched', () => {
    const base = attrs({ a: 1, b: 'x' });
    const copy = withAttributes(base, { b: 'y', ['__proto__']: 'ordinary' });
    expect(ordinaryKeys(copy)).toBe(true);
    expect({ ...copy }).toEqual({ a: 1, b: 'y', ['__proto__']: 'ordinary' });
    expect(Object.keys(copy)).toEqual(['a', 'b', '__proto__']);
    expect({ ...base }).toEqual({ a: 1, b: 'x' });
  });
});

describe('sharedRewrite', () => {
  it('makes one new object per distinct original, however many rows share it', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(4), { maxLength: 60 }), (picks) => {
        const originals = [0, 1, 2, 3, 4].map((i) => resource(`service-${i}`));
        let made = 0;
        const rename = sharedRewrite<Resource>((r) => {
          made++;
          return { ...r, attributes: withAttributes(r.attributes, { 'deployment.environment': 'prod' }) };
        });
        const rows = picks.map((i) => logRow(i, originals[i]));
        const changed = rows.map((row) => ({ ...row, resource: rename(row.resource) }));
        expect(made).toBe(new Set(picks).size);
        expect(new Set(changed.map((row) => row.resource)).size).toBe(new Set(picks).size);
        changed.forEach((row, i) => {
          expect(row.resource).toBe(rename(rows[i]?.resource as Resource));
          expect(row.resource.attributes['deployment.environment']).toBe('prod');
          expect(rows[i]?.resource.attributes['deployment.environment']).toBeUndefined();
        });
      }),
    );
  });
});

describe('mapRows', () => {
  const sc = scope();
  const rows = [0, 1, 2].map((i) => logRow(i, resource(), sc));

  it('hands back the same array when no row changed', () => {
    expect(mapRows(rows, (row) => row)).toBe(rows);
  });

  it('copies from the first changed row on and leaves the original array alone', () => {
    const out = mapRows(rows, (row) => (row.body === 'order 1 placed' ? { ...row, body: 'changed' } : row));
    expect(out).not.toBe(rows);
    expect(out.map((row) => row.body)).toEqual(['order 0 placed', 'changed', 'order 2 placed']);
    expect(out[0]).toBe(rows[0]);
    expect(out[2]).toBe(rows[2]);
    expect(rows.map((row) => row.body)).toEqual(['order 0 placed', 'order 1 placed', 'order 2 placed']);
  });
});
