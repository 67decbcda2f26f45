// The differential test of the simple endpoint's byte reader: for arbitrary bodies (bodies.ts),
// its answer is the JSON.parse-based decoder's, exactly: rows with their attributes in order,
// skips, the unreadable message, and what the record budget counted.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RecordBudget } from '../../src/otlp/result.js';
import { decodeSimpleLogs } from '../../src/simple/decode.js';
import { parseTimestamp } from '../../src/simple/time.js';
import { answer, isoText, simpleBody, usualIso } from './bodies.js';
import { referenceDecodeSimpleLogs } from './reference-decode.js';
import { parseTimestamp as referenceParseTimestamp } from './reference-time.js';

const SEED = 20261124;
const ARRIVAL = 1_800_000_000_000_000_000n;

describe('the simple JSON reader', () => {
  it('answers every body as the JSON.parse-based decoder does', () => {
    const seen = { rows: 0, skipped: 0, unreadable: 0, tooMany: 0 };
    fc.assert(
      fc.property(simpleBody, fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.nat(4) }), (body, limit) => {
        const budget = new RecordBudget(limit ?? Number.POSITIVE_INFINITY);
        const referenceBudget = new RecordBudget(limit ?? Number.POSITIVE_INFINITY);
        const decoded = decodeSimpleLogs(body, ARRIVAL, budget);
        const reference = referenceDecodeSimpleLogs(body, ARRIVAL, referenceBudget);
        expect(answer(decoded)).toBe(answer(reference));
        expect(budget.counted).toBe(referenceBudget.counted);
        seen.rows += decoded.rows.length;
        seen.skipped += decoded.skipped;
        if (decoded.unreadable !== undefined) seen.unreadable++;
        if (decoded.tooMany !== undefined) seen.tooMany++;
      }),
      { seed: SEED, numRuns: 4000 },
    );
    // The bodies reach every kind of answer, rows most of all.
    expect(seen.rows).toBeGreaterThan(4000);
    expect(seen.skipped).toBeGreaterThan(1000);
    expect(seen.tooMany).toBeGreaterThan(100);
  });

  it('reads every timestamp as time.ts did with its regular expressions alone', () => {
    const text = fc.oneof({ weight: 4, arbitrary: usualIso }, { weight: 2, arbitrary: isoText }, { weight: 1, arbitrary: fc.string({ maxLength: 32 }) });
    let times = 0;
    fc.assert(
      fc.property(text, (t) => {
        const ns = parseTimestamp(t);
        expect(ns).toBe(referenceParseTimestamp(t));
        if (ns !== undefined) times++;
      }),
      { seed: SEED, numRuns: 20_000 },
    );
    // Texts that are times, and texts that are not, both in number.
    expect(times).toBeGreaterThan(5_000);
    expect(times).toBeLessThan(15_000);
  });
});
