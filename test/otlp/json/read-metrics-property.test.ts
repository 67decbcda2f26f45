// The differential test of the JSON metrics reader: for arbitrary exports of every kind written in
// any form OTLP/JSON allows, its rows are those of the protobuf reader on the protobuf encoding of
// the same export, always, and those of the JSON.parse-based reference wherever that is exact.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MetricType } from '../../../src/model/metrics.js';
import { decodeOtlp } from '../../../src/otlp/decode.js';
import { discarded, RecordBudget, TooManyRecords, type Decoded } from '../../../src/otlp/result.js';
import { canonicalRows, otlpJsonToProtobuf } from '../../helpers/otlp.js';
import { referenceDecodeMetricsJson } from './reference-metrics.js';
import { variation } from './variants.js';
import { metricsExport, MetricsVariantWriter } from './variants-metrics.js';

const SEED = 20261127;

/** The reference as decodeOtlp() would have answered with it: a body with too many points discarded. */
function reference(body: Buffer, budget = new RecordBudget(Number.POSITIVE_INFINITY)): Decoded<'metrics'> {
  try {
    return referenceDecodeMetricsJson(body, budget);
  } catch (error) {
    if (error instanceof TooManyRecords) return discarded(error);
    throw error;
  }
}

describe('the JSON metrics reader', () => {
  it('gives the protobuf reader’s rows for any export in any allowed form, and the reference’s where it is exact', () => {
    let comparedWithReference = 0;
    const rowsOfKind: Partial<Record<MetricType, number>> = {};
    fc.assert(
      fc.property(metricsExport, variation, (canonical, v) => {
        const writer = new MetricsVariantWriter(v);
        const body = Buffer.from(writer.write(canonical));
        const fromJson = decodeOtlp('metrics', 'json', body);
        const fromProtobuf = decodeOtlp('metrics', 'protobuf', otlpJsonToProtobuf('metrics', canonical));
        expect(fromJson.unreadable).toBeUndefined();
        expect([fromJson.skipped, canonicalRows(fromJson.rows)]).toEqual([fromProtobuf.skipped, canonicalRows(fromProtobuf.rows)]);
        for (const row of fromJson.rows) rowsOfKind[row.metric.type] = (rowsOfKind[row.metric.type] ?? 0) + 1;
        if (writer.referenceExact) {
          comparedWithReference++;
          const expected = reference(body);
          expect([fromJson.skipped, canonicalRows(fromJson.rows)]).toEqual([expected.skipped, canonicalRows(expected.rows)]);
        }
      }),
      { seed: SEED, numRuns: 1500 },
    );
    expect(comparedWithReference).toBeGreaterThan(300);
    for (const type of ['gauge', 'sum', 'histogram', 'exponential_histogram', 'summary'] as const) expect(rowsOfKind[type]).toBeGreaterThan(200);
  });

  // Hand-picked pieces glued at random: duplicates, nulls, wrong types, fields of other kinds, broken syntax.
  const pointPiece = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        '"time_unix_nano":"6"', '"timeUnixNano":null', '"start_time_unix_nano":3', '"asDouble":1.5', '"asDouble":null', '"asInt":"7"', '"as_int":-9', '"asInt":null',
        '"attributes":[{"key":"k","value":{"intValue":"1"}}]', '"flags":-1', '"flags":"3"', '"exemplars":[{"asInt":"3","spanId":"ABCD","filtered_attributes":[]}]',
        '"exemplars":[{"asDouble":"x","asInt":"4"}]', '"exemplars":null', '"count":"4"', '"count":null', '"sum":2.5', '"sum":null', '"min":1', '"bucketCounts":["1",2,null]',
        '"bucket_counts":[1]', '"explicitBounds":[1,"Infinity"]', '"explicit_bounds":[]', '"scale":3', '"zeroCount":"2"', '"zeroThreshold":0.5',
        '"positive":{"offset":1,"bucketCounts":[1,"2"]}', '"positive":{"offset":1,"offset":2}', '"negative":null', '"quantileValues":[{"quantile":0.5,"value":1},{"value":2}]',
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '"timeUnixNano":"0"', '"startTimeUnixNano":"-1"', '"as_double":"Infinity"', '"asDouble":"NaN"', '"asDouble":"bad"', '"asInt":"x"', '"attributes":5', '"flags":"x"',
        '"exemplars":[5]', '"exemplars":[{"trace_id":"xyz"}]', '"count":"x"', '"sum":"NaN"', '"max":"a"', '"bucketCounts":"1"', '"explicitBounds":[null]', '"scale":"x"',
        '"zero_threshold":"NaN"', '"negative":5', '"positive":{"bucket_counts":["x"]}', '"quantile_values":[null]', '"quantileValues":[{"quantile":"x"}]', '"quantileValues":{}',
        '"quantileValues":[{"value":"NaN"}]',
      ),
    },
  );
  // Pieces glued after, mostly, a first one that gives rows (a point's time, a metric's data), so that rows come out unless a piece skips them.
  const glued = (first: fc.Arbitrary<string>, piece: fc.Arbitrary<string>, most: number) =>
    fc.tuple(fc.option(first, { freq: 5, nil: undefined }), fc.array(piece, { maxLength: most })).map(([a, pieces]) => `{${(a === undefined ? pieces : [a, ...pieces]).join(',')}}`);
  const point = fc.oneof({ weight: 9, arbitrary: glued(fc.constantFrom('"timeUnixNano":"5"', '"time_unix_nano":7'), pointPiece, 4) }, { weight: 1, arbitrary: fc.constantFrom('5', 'null', '[]') });
  const dataPiece = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('"aggregationTemporality":2', '"aggregation_temporality":"1"', '"aggregationTemporality":null', '"isMonotonic":true', '"isMonotonic":null', '"data_points":null') },
    { weight: 1, arbitrary: fc.constantFrom('"aggregationTemporality":"x"', '"is_monotonic":"yes"', '"dataPoints":5') },
  );
  const data = fc
    .tuple(fc.array(dataPiece, { maxLength: 2 }), fc.constantFrom('dataPoints', 'data_points'), fc.array(point, { minLength: 1, maxLength: 4 }), fc.boolean())
    .map(([pieces, key, points, settingsFirst]) => {
      const list = `"${key}":[${points.join(',')}]`;
      return `{${(settingsFirst ? [...pieces, list] : [list, ...pieces]).join(',')}}`;
    });
  const kind = fc.constantFrom('gauge', 'sum', 'histogram', 'exponentialHistogram', 'exponential_histogram', 'summary');
  const kindData = fc.tuple(kind, data).map(([k, d]) => `"${k}":${d}`);
  const metricPiece = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom('"name":"m"', '"name":null', '"description":"d"', '"unit":"1"', '"metadata":[{"key":"a","value":{"stringValue":"b"}}]', '"gauge":null', '"exponential_histogram":null') },
    { weight: 1, arbitrary: fc.constantFrom('"name":5', '"unit":[]', '"metadata":{}', '"sum":5') },
    { weight: 1, arbitrary: kindData },
  );
  const metric = fc.oneof({ weight: 9, arbitrary: glued(kindData, metricPiece, 3) }, { weight: 1, arbitrary: fc.constantFrom('5', 'null') });
  const scopeHeader = fc.constantFrom('', '"scope":{"name":"s"},', '"scope":{"name":5},', '"schemaUrl":"u",', '"schemaUrl":7,', '"scope":null,');
  const resourceHeader = fc.constantFrom('', '"resource":{"attributes":[]},', '"resource":{"attributes":5},', '"schema_url":"r",');
  const scope = fc.tuple(scopeHeader, fc.array(metric, { minLength: 1, maxLength: 3 }), scopeHeader).map(([a, metrics, b]) => `{${a}"metrics":[${metrics.join(',')}]${b === '' ? '' : `,${b.slice(0, -1)}`}}`);
  const resource = fc.tuple(resourceHeader, fc.array(fc.oneof({ weight: 9, arbitrary: scope }, { weight: 1, arbitrary: fc.constantFrom('5', 'null') }), { minLength: 1, maxLength: 2 }), resourceHeader).map(([a, scopes, b]) => `{${a}"scopeMetrics":[${scopes.join(',')}]${b === '' ? '' : `,${b.slice(0, -1)}`}}`);
  const body = (tails: string[]) => fc.tuple(fc.array(resource, { minLength: 1, maxLength: 2 }), fc.constantFrom(...tails)).map(([resources, tail]) => `{"resourceMetrics":[${resources.join(',')}]${tail}}`);

  it('gives the reference’s answer for any body the reference reads, valid or not, exact or not in form', () => {
    let rows = 0;
    fc.assert(
      fc.property(body(['', ',"resourceMetrics":[]', ',"resource_metrics":null', ',', ']', '}']), (text) => {
        const bytes = Buffer.from(text);
        const fromJson = decodeOtlp('metrics', 'json', bytes);
        const expected = reference(bytes);
        expect(fromJson.unreadable === undefined).toBe(expected.unreadable === undefined);
        expect([fromJson.skipped, canonicalRows(fromJson.rows)]).toEqual([expected.skipped, canonicalRows(expected.rows)]);
        rows += fromJson.rows.length;
      }),
      { seed: SEED, numRuns: 3000 },
    );
    expect(rows).toBeGreaterThan(300);
  });

  it('counts data points against the budget as the reference did, whatever follows them', () => {
    let discardedBodies = 0;
    fc.assert(
      fc.property(body(['', ',"resourceMetrics":[]', ',"resource_metrics":null']), fc.nat(6), (text, limit) => {
        const bytes = Buffer.from(text);
        const budget = new RecordBudget(limit);
        const fromJson = decodeOtlp('metrics', 'json', bytes, budget);
        const referenceBudget = new RecordBudget(limit);
        const expected = reference(bytes, referenceBudget);
        expect([fromJson.tooMany, fromJson.skipped, canonicalRows(fromJson.rows)]).toEqual([expected.tooMany, expected.skipped, canonicalRows(expected.rows)]);
        if (expected.tooMany === undefined) expect(budget.counted).toBe(referenceBudget.counted);
        else discardedBodies++;
      }),
      { seed: SEED, numRuns: 3000 },
    );
    expect(discardedBodies).toBeGreaterThan(300);
  });
});
