// Fuzzing the JSON logs reader: 100,000 bodies made from valid exports by flipping bytes, cutting
// them short, splicing two together and inserting JSON's structural bytes. No exception escapes,
// a body is unreadable exactly when JSON.parse cannot read it, and wherever the JSON.parse-based
// reference is exact the rows and skips are the reference's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeOtlp } from '../../../src/otlp/decode.js';
import { RecordBudget } from '../../../src/otlp/result.js';
import { canonicalRows } from '../../helpers/otlp.js';
import { referenceDecodeLogsJson } from './reference-logs.js';
import { logsExport, variation, VariantWriter } from './variants.js';

const BODIES = 100_000;
const INSERTS = ['{', '}', '[', ']', '"', '\\', ',', ':', 'null', '0', '-', 'e', '\\u', '\\ud800', '\xff', '\xc3', ' ', '"stringValue":', '"intValue":1e400'].map((s) => Buffer.from(s, 'latin1'));
/** Where the reference is not exact, or reads what OTLP/JSON reads differently: big or exponent numbers, enum names. */
const REFERENCE_INEXACT = /\d{16}|SEVERITY|\d[eE.]\d|\d[eE][+-]/;

describe('the JSON logs reader, fuzzed', () => {
  it(`survives ${BODIES.toLocaleString('en')} mutated bodies and agrees with JSON.parse on what is JSON`, () => {
    const seeds = fc.sample(fc.tuple(logsExport, variation), { seed: 424242, numRuns: 300 }).map(([canonical, v]) => Buffer.from(new VariantWriter(v).write(canonical)));
    let state = 12345;
    const random = (n: number): number => {
      state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
      return state % n;
    };
    let unreadable = 0;
    let compared = 0;
    for (let i = 0; i < BODIES; i++) {
      let body = Buffer.from(seeds[random(seeds.length)] as Buffer);
      for (let edits = 1 + random(3); edits > 0 && body.length > 0; edits--) {
        const at = random(body.length);
        switch (random(4)) {
          case 0:
            body[at] = random(256);
            break;
          case 1:
            body = body.subarray(0, at);
            break;
          case 2: {
            const other = seeds[random(seeds.length)] as Buffer;
            body = Buffer.concat([body.subarray(0, at), other.subarray(random(other.length + 1))]);
            break;
          }
          default:
            body = Buffer.concat([body.subarray(0, at), INSERTS[random(INSERTS.length)] as Buffer, body.subarray(at)]);
        }
      }
      const decoded = decodeOtlp('logs', 'json', body);
      let isJson = true;
      try {
        JSON.parse(body.toString('utf8'));
      } catch {
        isJson = false;
      }
      if (!isJson) {
        expect(decoded).toEqual({ rows: [], skipped: 1, unreadable: expect.stringMatching(/^not JSON/) });
        unreadable++;
        continue;
      }
      expect(decoded.unreadable === undefined || !decoded.unreadable.startsWith('not JSON')).toBe(true);
      if (REFERENCE_INEXACT.test(body.toString('latin1'))) continue;
      const reference = referenceDecodeLogsJson(body, new RecordBudget(Number.POSITIVE_INFINITY));
      expect([decoded.skipped, decoded.unreadable, canonicalRows(decoded.rows)]).toEqual([reference.skipped, reference.unreadable, canonicalRows(reference.rows)]);
      compared++;
    }
    // Both kinds of body are well represented.
    expect(unreadable).toBeGreaterThan(BODIES / 4);
    expect(compared).toBeGreaterThan(BODIES / 20);
  }, 60_000);
});
