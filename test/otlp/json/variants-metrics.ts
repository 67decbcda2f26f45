// Arbitrary OTLP JSON metric exports of every kind (gauge, sum, histogram, exponential histogram,
// summary), with points the spec's rules keep and points they skip (no time, a NaN value, buckets
// that do not fit their bounds, counts beyond 2^53), and a writer that serialises them in any form
// OTLP/JSON allows, as VariantWriter does for logs, plus what metrics add: counts and bucket
// counts as numbers or strings, temporality by name or number, doubles as numbers or strings.
import fc from 'fast-check';
import { exportParts, VariantWriter, type Canonical } from './variants.js';

const { wellFormed, id, uint64, int64, double, attributes, resource, scope, schemaUrl } = exportParts;

/** Mostly counts that fit a double exactly, sometimes one beyond 2^53 (the point is skipped by both readers). */
const count = fc.oneof({ weight: 9, arbitrary: fc.bigInt({ min: 0n, max: 2n ** 20n }).map(String) }, { weight: 1, arbitrary: uint64 });
/** Mostly a time, sometimes none (the point is skipped). */
const time = fc.oneof({ weight: 9, arbitrary: uint64.filter((t) => t !== '0') }, { weight: 1, arbitrary: fc.constant('0') });
/** Mostly finite: NaN and the infinities skip most points they are in. */
const value = fc.oneof({ weight: 9, arbitrary: double.filter(Number.isFinite) }, { weight: 1, arbitrary: double });
const optional = { requiredKeys: [] as never[] };

/** asDouble, asInt or neither (0): one member of the oneof, as a client sends it. */
const numberValue = fc.oneof(
  value.map((asDouble) => ({ asDouble })),
  int64.map((asInt) => ({ asInt })),
  fc.constant({}),
);

const exemplar = fc
  .tuple(fc.record({ filteredAttributes: attributes, timeUnixNano: uint64, traceId: id(16), spanId: id(8) }, optional), numberValue)
  .map(([fields, v]) => ({ ...fields, ...v }));

const pointBase = { attributes, startTimeUnixNano: uint64, timeUnixNano: time, flags: fc.nat(2 ** 32 - 1) };
const exemplars = fc.array(exemplar, { maxLength: 2 });

const numberPoint = fc.tuple(fc.record({ ...pointBase, exemplars }, optional), numberValue).map(([fields, v]) => ({ ...fields, ...v }));

/** Bounds and one more bucket count than bounds, mostly; sometimes counts that do not fit (skipped), or neither. */
const histogramBuckets = fc.array(value, { maxLength: 4 }).chain((explicitBounds) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.array(count, { minLength: explicitBounds.length + 1, maxLength: explicitBounds.length + 1 }).map((bucketCounts) => ({ explicitBounds, bucketCounts })) },
    { weight: 1, arbitrary: fc.array(count, { maxLength: 5 }).map((bucketCounts) => ({ explicitBounds, bucketCounts })) },
    { weight: 1, arbitrary: fc.constant({}) },
  ),
);
const stats = { count, sum: value, min: value, max: value };
const histogramPoint = fc.tuple(fc.record({ ...pointBase, exemplars, ...stats }, optional), histogramBuckets).map(([fields, b]) => ({ ...fields, ...b }));

const buckets = fc.record({ offset: fc.integer(), bucketCounts: fc.array(count, { maxLength: 4 }) }, optional);
const exponentialPoint = fc.record(
  { ...pointBase, exemplars, ...stats, scale: fc.integer({ min: -10, max: 20 }), zeroCount: count, zeroThreshold: value, positive: buckets, negative: buckets },
  optional,
);

const summaryPoint = fc.record(
  { ...pointBase, count, sum: value, quantileValues: fc.array(fc.record({ quantile: value, value }, optional), { maxLength: 3 }) },
  optional,
);

const temporality = fc.integer({ min: 0, max: 2 });
const points = <T>(point: fc.Arbitrary<T>) => fc.array(point, { maxLength: 3 });
const data = fc.oneof(
  fc.record({ gauge: fc.record({ dataPoints: points(numberPoint) }, optional) }),
  fc.record({ sum: fc.record({ aggregationTemporality: temporality, isMonotonic: fc.boolean(), dataPoints: points(numberPoint) }, optional) }),
  fc.record({ histogram: fc.record({ aggregationTemporality: temporality, dataPoints: points(histogramPoint) }, optional) }),
  fc.record({ exponentialHistogram: fc.record({ aggregationTemporality: temporality, dataPoints: points(exponentialPoint) }, optional) }),
  fc.record({ summary: fc.record({ dataPoints: points(summaryPoint) }, optional) }),
  fc.constant({}),
);

const metric = fc
  .tuple(fc.record({ name: wellFormed(10), description: wellFormed(6), unit: wellFormed(3), metadata: attributes }, optional), data)
  .map(([fields, d]) => ({ ...fields, ...d }));

const scopeMetrics = fc.record({ scope, schemaUrl, metrics: fc.array(metric, { maxLength: 4 }) }, optional);
const resourceMetrics = fc.record({ resource, schemaUrl, scopeMetrics: fc.array(scopeMetrics, { maxLength: 3 }) }, optional);
export const metricsExport: fc.Arbitrary<Canonical> = fc.record({ resourceMetrics: fc.array(resourceMetrics, { maxLength: 2 }) }, optional);

const COUNTS = new Set(['startTimeUnixNano', 'asInt', 'count', 'zeroCount', 'bucketCounts']);
const DOUBLES = new Set(['asDouble', 'sum', 'min', 'max', 'explicitBounds', 'zeroThreshold', 'quantile', 'value']);
const INT32S = new Set(['flags', 'scale', 'offset']);
const TEMPORALITY = ['UNSPECIFIED', 'DELTA', 'CUMULATIVE'];

/** VariantWriter, knowing the members of metrics. */
export class MetricsVariantWriter extends VariantWriter {
  protected override value(value: unknown, member: string): string {
    // Objects and lists (a Sum, a KeyValue's value) are the base writer's; their members come back here.
    if (typeof value === 'object' && value !== null) return super.value(value, member);
    if (COUNTS.has(member)) return this.int64(value as string);
    if (DOUBLES.has(member)) return this.double(value as number);
    if (INT32S.has(member) && this.choice() < 0.2) return this.string(String(value));
    if (member === 'aggregationTemporality') {
      const c = this.choice();
      if (c < 0.3) return this.string(`AGGREGATION_TEMPORALITY_${TEMPORALITY[value as number]}`, true);
      if (c < 0.4) return this.string(String(value));
    }
    return super.value(value, member);
  }
}
