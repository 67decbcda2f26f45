// The JSON.parse-based OTLP JSON metrics decoder that src/otlp/json/read-metrics.ts replaced, kept
// as the reference the new reader is tested against. Two changes from what it was, where the
// protobuf reader decided otherwise and now decides for both: flags are a uint32 (-1 is
// 4294967295, as protobufjs writes it), and positive or negative buckets that are not an object
// (nor null) skip their point, as a wrong wire type does, instead of being read as no buckets.
import type { Building } from '../../../src/model/building.js';
import type { DataPointRow, Exemplar, ExponentialBuckets, Metric, MetricType } from '../../../src/model/metrics.js';
import type { Resource, Scope } from '../../../src/model/resource.js';
import { pointProblem } from '../../../src/otlp/checks.js';
import { emptyDecoded, DecodeAbort, type Decoded, type RecordBudget } from '../../../src/otlp/result.js';
import {
  attributes,
  count,
  double,
  field,
  id,
  int,
  int64,
  isObject,
  list,
  optionalDouble,
  ShapeError,
  str,
  uint64,
  walkJsonExport,
  type JsonObject,
} from './reference-common.js';

const SHAPE = { resources: ['resourceMetrics', 'resource_metrics'], scopes: ['scopeMetrics', 'scope_metrics'], records: ['metrics', 'metrics'] } as const;

const TYPES: readonly (readonly [MetricType, string, string])[] = [
  ['gauge', 'gauge', 'gauge'],
  ['sum', 'sum', 'sum'],
  ['histogram', 'histogram', 'histogram'],
  ['exponential_histogram', 'exponentialHistogram', 'exponential_histogram'],
  ['summary', 'summary', 'summary'],
];

/** asDouble / asInt, as a double (number) or an int64 (bigint); 0 when neither is set, as on the wire. */
function numberValue(o: JsonObject, what: string): number | bigint {
  const asInt = field(o, 'asInt', 'as_int');
  if (asInt !== undefined && asInt !== null) return int64(asInt, `${what}.asInt`);
  const asDouble = field(o, 'asDouble', 'as_double');
  return asDouble === undefined || asDouble === null ? 0 : double(asDouble, `${what}.asDouble`);
}

function exemplar(value: unknown): Exemplar {
  if (!isObject(value)) throw new ShapeError('exemplar is not an object');
  return {
    timeUnixNano: uint64(field(value, 'timeUnixNano', 'time_unix_nano'), 'exemplar.timeUnixNano'),
    value: numberValue(value, 'exemplar'),
    filteredAttributes: attributes(field(value, 'filteredAttributes', 'filtered_attributes')),
    traceId: id(field(value, 'traceId', 'trace_id'), 'exemplar.traceId'),
    spanId: id(field(value, 'spanId', 'span_id'), 'exemplar.spanId'),
  };
}

function buckets(value: unknown): ExponentialBuckets {
  if (value !== undefined && value !== null && !isObject(value)) throw new ShapeError('buckets is not an object');
  const o = isObject(value) ? value : {};
  return {
    offset: int(o['offset'], 'buckets.offset'),
    bucketCounts: list(field(o, 'bucketCounts', 'bucket_counts'), 'bucketCounts').map((c) => count(c, 'bucketCounts')),
  };
}

function point(value: unknown, resource: Resource, scope: Scope, metric: Metric): DataPointRow {
  if (!isObject(value)) throw new ShapeError('data point is not an object');
  const base = {
    resource,
    scope,
    metric,
    startTimeUnixNano: uint64(field(value, 'startTimeUnixNano', 'start_time_unix_nano'), 'startTimeUnixNano'),
    timeUnixNano: uint64(field(value, 'timeUnixNano', 'time_unix_nano'), 'timeUnixNano'),
    attributes: attributes(value['attributes']),
    flags: int(value['flags'], 'flags') >>> 0,
    exemplars: metric.type === 'summary' ? [] : list(value['exemplars'], 'exemplars').map(exemplar),
  };
  const sum = field(value, 'sum', 'sum');
  switch (metric.type) {
    case 'gauge':
    case 'sum':
      return { ...base, kind: 'number', value: numberValue(value, 'point') };
    case 'histogram':
      return {
        ...base,
        kind: 'histogram',
        count: count(value['count'], 'count'),
        sum: optionalDouble(sum, 'sum'),
        min: optionalDouble(value['min'], 'min'),
        max: optionalDouble(value['max'], 'max'),
        bucketCounts: list(field(value, 'bucketCounts', 'bucket_counts'), 'bucketCounts').map((c) => count(c, 'bucketCounts')),
        explicitBounds: list(field(value, 'explicitBounds', 'explicit_bounds'), 'explicitBounds').map((b) => double(b, 'explicitBounds')),
      };
    case 'exponential_histogram':
      return {
        ...base,
        kind: 'exponential_histogram',
        count: count(value['count'], 'count'),
        sum: optionalDouble(sum, 'sum'),
        min: optionalDouble(value['min'], 'min'),
        max: optionalDouble(value['max'], 'max'),
        scale: int(value['scale'], 'scale'),
        zeroCount: count(field(value, 'zeroCount', 'zero_count'), 'zeroCount'),
        zeroThreshold: optionalDouble(field(value, 'zeroThreshold', 'zero_threshold'), 'zeroThreshold') ?? 0,
        positive: buckets(value['positive']),
        negative: buckets(value['negative']),
      };
    case 'summary':
      return {
        ...base,
        kind: 'summary',
        count: count(value['count'], 'count'),
        sum: optionalDouble(sum, 'sum') ?? 0,
        quantiles: list(field(value, 'quantileValues', 'quantile_values'), 'quantileValues').map((q) => {
          if (!isObject(q)) throw new ShapeError('quantile value is not an object');
          return { quantile: optionalDouble(q['quantile'], 'quantile') ?? 0, value: optionalDouble(q['value'], 'value') ?? 0 };
        }),
      };
  }
}

export function referenceDecodeMetricsJson(body: Buffer, budget: RecordBudget): Decoded<'metrics'> {
  const out = emptyDecoded<'metrics'>();
  walkJsonExport(body, SHAPE, out, undefined, (value, resource, scope) => {
    if (!isObject(value)) throw new ShapeError('metric is not an object');
    const metric: Building<Metric> = {
      name: str(value['name'], 'name'),
      description: str(value['description'], 'description'),
      unit: str(value['unit'], 'unit'),
      type: 'gauge',
      temporality: 0,
      isMonotonic: false,
      metadata: attributes(value['metadata']),
    };
    let data: JsonObject | undefined;
    for (const [type, camel, snake] of TYPES) {
      const candidate = field(value, camel, snake);
      if (candidate === undefined || candidate === null) continue;
      if (!isObject(candidate)) throw new ShapeError(`${camel} is not an object`);
      metric.type = type;
      data = candidate;
    }
    if (data === undefined) return;
    if (metric.type !== 'gauge' && metric.type !== 'summary') {
      metric.temporality = int(field(data, 'aggregationTemporality', 'aggregation_temporality'), 'aggregationTemporality');
    }
    if (metric.type === 'sum') {
      const monotonic = field(data, 'isMonotonic', 'is_monotonic');
      if (monotonic !== undefined && monotonic !== null && typeof monotonic !== 'boolean') throw new ShapeError('isMonotonic is not a boolean');
      metric.isMonotonic = monotonic === true;
    }
    for (const entry of list(field(data, 'dataPoints', 'data_points'), 'dataPoints')) {
      budget.count();
      try {
        const row = point(entry, resource, scope, metric);
        if (pointProblem(row) === undefined) out.rows.push(row);
        else out.skipped++;
      } catch (error) {
        if (error instanceof DecodeAbort) throw error;
        out.skipped++;
      }
    }
  });
  return out;
}
