// Fuzzing the JSON metrics reader: 100,000 bodies made from valid metric exports by flipping bytes,
// cutting them short, splicing two together and inserting JSON's structural bytes. No exception
// escapes, a body is unreadable exactly when JSON.parse cannot read it, and wherever the
// JSON.parse-based reference is exact the rows and skips are the reference's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeOtlp } from '../../../src/otlp/decode.js';
import { RecordBudget } from '../../../src/otlp/result.js';
import { canonicalRows } from '../../helpers/otlp.js';
import { mutations } from './mutate.js';
import { referenceDecodeMetricsJson } from './reference-metrics.js';
import { variation } from './variants.js';
import { metricsExport, MetricsVariantWriter } from './variants-metrics.js';

const BODIES = 100_000;
const INSERTS = ['{', '}', '[', ']', '"', '\\', ',', ':', 'null', '0', '-', 'e', '.', '\\u', '\\ud800', '\xff', ' ', '"asInt":', '"count":1e400', '"dataPoints":', '"gauge":{}', '"sum":{"dataPoints":[{"timeUnixNano":"1"}]}'].map((s) => Buffer.from(s, 'latin1'));
/**
 * Where the reference is not exact, or reads what OTLP/JSON reads differently, in the body as
 * JSON.parse read it (strings unescaped, numbers as it rounded them): an integer field's number
 * beyond 2^53 or in exponent form, an enum name, an integer field's string with a fraction or an
 * exponent, "-0" as an unsigned one.
 */
const REFERENCE_INEXACT = new RegExp(String.raw`AGGREGATION_TEMPORALITY_|(?:nano|int|int_?value|count|counts|flags|scale|offset|temporality)"\s*:\s*(?:\[[^\]]*)?(?:-?(?:\d{17}|9\d{15})|-?\d+(?:\.\d+)?[eE]|"-?\d+[.eE]|"-0+")`, 'i');

describe('the JSON metrics reader, fuzzed', () => {
  it(`survives ${BODIES.toLocaleString('en')} mutated bodies and agrees with JSON.parse on what is JSON`, () => {
    // Mostly small exports with points, written as the reference reads them exactly, so that the bodies compared hold rows.
    const candidates = fc.sample(fc.tuple(metricsExport, variation.map((v) => ({ ...v, exactForReference: true }))), { seed: 434343, numRuns: 1000 }).map(([canonical, v]) => Buffer.from(new MetricsVariantWriter(v).write(canonical)));
    const holdsRows = (body: Buffer): boolean => decodeOtlp('metrics', 'json', body).rows.length > 0;
    const seeds = [...candidates.filter(holdsRows).sort((a, b) => a.length - b.length).slice(0, 150), ...candidates.filter((body) => !holdsRows(body)).slice(0, 150)];
    const mutated = mutations(seeds, INSERTS, 54321);
    let unreadable = 0;
    let compared = 0;
    let rows = 0;
    for (let i = 0; i < BODIES; i++) {
      const body = mutated();
      const decoded = decodeOtlp('metrics', 'json', body);
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        parsed = undefined;
      }
      if (parsed === undefined) {
        // expect() only when it fails: a hundred thousand of them would take most of the time.
        if (decoded.rows.length !== 0 || decoded.skipped !== 1 || decoded.unreadable?.startsWith('not JSON') !== true) expect(decoded).toEqual({ rows: [], skipped: 1, unreadable: expect.stringMatching(/^not JSON/) });
        unreadable++;
        continue;
      }
      expect(decoded.unreadable === undefined || !decoded.unreadable.startsWith('not JSON')).toBe(true);
      if (REFERENCE_INEXACT.test(JSON.stringify(parsed))) continue;
      const reference = referenceDecodeMetricsJson(body, new RecordBudget(Number.POSITIVE_INFINITY));
      expect([decoded.skipped, decoded.unreadable, canonicalRows(decoded.rows)]).toEqual([reference.skipped, reference.unreadable, canonicalRows(reference.rows)]);
      compared++;
      rows += decoded.rows.length;
    }
    // Both kinds of body are well represented, and the bodies compared hold rows.
    expect(unreadable).toBeGreaterThan(BODIES / 4);
    expect(compared).toBeGreaterThan(BODIES / 20);
    expect(rows).toBeGreaterThan(BODIES / 20);
  }, 120_000);
});
