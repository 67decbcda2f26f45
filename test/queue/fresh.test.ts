// The ring of records just written (src/queue/fresh.ts): against a plain model of what it should
// hold, over random runs of adds and drops that wrap around the ring, plus its two bounds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FreshRecords } from '../../src/queue/fresh.js';

interface Rec {
  id: number;
  payloadBytes: number;
}

type Step = { add: number } | { dropThrough: number } | { clear: true };

describe('fresh records', () => {
  it('holds what a model holds: the oldest by id, drops through an id, both bounds, clear', () => {
    const step: fc.Arbitrary<Step> = fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 0, max: 40 }).map((bytes) => ({ add: bytes })) },
      { weight: 3, arbitrary: fc.integer({ min: 0, max: 6 }).map((ahead) => ({ dropThrough: ahead })) },
      { weight: 1, arbitrary: fc.constant({ clear: true as const }) },
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 7 }), fc.integer({ min: 0, max: 100 }), fc.array(step, { maxLength: 120 }), (capacity, maxBytes, steps) => {
        const ring = new FreshRecords<Rec>(capacity, maxBytes);
        let model: Rec[] = [];
        let nextId = 1;
        let passed = 0;
        for (const s of steps) {
          if ('add' in s) {
            const rec = { id: nextId++, payloadBytes: s.add };
            const fits = model.length < capacity && model.reduce((sum, r) => sum + r.payloadBytes, 0) + s.add <= maxBytes;
            expect(ring.add(rec)).toBe(fits);
            if (fits) model.push(rec);
          } else if ('dropThrough' in s) {
            passed = Math.min(nextId - 1, passed + s.dropThrough);
            ring.dropThrough(passed);
            model = model.filter((r) => r.id > passed);
          } else {
            ring.clear();
            model = [];
          }
          expect(ring.size).toBe(model.length);
          // Only the oldest is found, by its own id.
          for (let id = passed; id <= nextId; id++) expect(ring.oldest(id)).toBe(model[0]?.id === id ? model[0] : undefined);
        }
      }),
    );
  });

  it('gives the room of what it drops back, the bytes as well as the slots', () => {
    const ring = new FreshRecords<Rec>(2, 10);
    expect(ring.add({ id: 1, payloadBytes: 6 })).toBe(true);
    expect(ring.add({ id: 2, payloadBytes: 6 })).toBe(false);
    ring.dropThrough(1);
    expect(ring.add({ id: 3, payloadBytes: 6 })).toBe(true);
    expect(ring.add({ id: 4, payloadBytes: 4 })).toBe(true);
    expect(ring.add({ id: 5, payloadBytes: 0 })).toBe(false);
    expect(ring.oldest(3)).toMatchObject({ id: 3 });
  });
});
