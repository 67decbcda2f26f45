// The JSON writer's values against JSON.stringify, and the commas it places.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonWriter } from '../../src/otlp/json/writer.js';

/** Any UTF-16 text: every code unit, lone surrogates and control characters included. */
const anyText = fc.oneof(fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 40 }), fc.string({ maxLength: 200 }));

describe('JsonWriter', () => {
  it('writes any string as JSON.stringify does, read back by JSON.parse as the same string', () => {
    const w = new JsonWriter(8);
    fc.assert(
      fc.property(anyText, (text) => {
        w.reset();
        w.string(text);
        const out = w.finish().toString('utf8');
        expect(out).toBe(JSON.stringify(text));
        expect(JSON.parse(out)).toBe(text);
      }),
      { seed: 20261125, numRuns: 2000 },
    );
  });

  it('writes doubles as JSON numbers, -0 as -0, and NaN and the infinities as strings', () => {
    const w = new JsonWriter(8);
    fc.assert(
      fc.property(fc.double(), (n) => {
        w.reset();
        w.double(n);
        const out = w.finish().toString('utf8');
        if (Number.isFinite(n)) expect(Object.is(JSON.parse(out), n)).toBe(true);
        else expect(out).toBe(`"${n}"`);
      }),
      { seed: 20261125, numRuns: 2000 },
    );
  });

  it('places commas between members and items only, at every depth', () => {
    const w = new JsonWriter(8);
    w.open();
    w.key('a');
    w.openArray();
    w.item();
    w.open();
    w.close();
    w.item();
    w.raw('1');
    w.item();
    w.openArray();
    w.closeArray();
    w.closeArray();
    w.key('b');
    w.open();
    w.key('c');
    w.quoted('x');
    w.key('d');
    w.bool(false);
    w.close();
    w.key('e');
    w.string('é"');
    w.close();
    expect(w.finish().toString('utf8')).toBe('{"a":[{},1,[]],"b":{"c":"x","d":false},"e":"é\\""}');
  });
});
