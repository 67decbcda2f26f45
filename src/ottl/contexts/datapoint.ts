// OTTL's data point context over otelgate's data point rows: the Collector's ottldatapoint paths
// (with or without the `datapoint.` prefix), the point's metric's under `metric.`, its resource's
// and scope's, and `project` (read-only). A path a kind of point does not have (`count` of a gauge's
// point) is nil, as in the Collector.
import { newAttributes, type AnyValue, type Attributes } from '../../model/anyvalue.js';
import type { DataPointRow, Exemplar, ExponentialBuckets } from '../../model/metrics.js';
import type { ValueGetter } from '../compile.js';
import { metricFieldPaths, pointResourceAndScope, type MetricRow } from './metric.js';
import { mergedPaths, tableContext, timeOf, type PathTable } from './table.js';

export type DataPointContext = MetricRow;

type G = ValueGetter<DataPointContext>;

/** The Collector's data point enums over the metric context's (which every context has here). */
const DATAPOINT_ENUMS: ReadonlyMap<string, bigint> = new Map([
  ['FLAG_NONE', 0n],
  ['FLAG_NO_RECORDED_VALUE', 1n],
]);

const counts = (values: readonly number[]): AnyValue[] => values.map((n) => BigInt(n));

function exemplar(e: Exemplar): Attributes {
  const map = newAttributes();
  map.time_unix_nano = e.timeUnixNano;
  map.value = e.value;
  map.filtered_attributes = e.filteredAttributes;
  map.trace_id = e.traceId;
  map.span_id = e.spanId;
  return map;
}

/** An exponential histogram's buckets, `positive` or `negative`, or undefined for another kind of point. */
const buckets = (row: DataPointRow, side: 'positive' | 'negative'): ExponentialBuckets | undefined => (row.kind === 'exponential_histogram' ? row[side] : undefined);

/** The paths of both sides of an exponential histogram's buckets. */
function bucketPaths(side: 'positive' | 'negative'): Record<string, G> {
  return {
    [`datapoint.${side}.offset`]: (c) => {
      const b = buckets(c.row, side);
      return b === undefined ? null : BigInt(b.offset);
    },
    [`datapoint.${side}.bucket_counts`]: (c) => {
      const b = buckets(c.row, side);
      return b === undefined ? null : counts(b.bucketCounts);
    },
  };
}

const POINT: PathTable<DataPointContext> = {
  plain: {
    'datapoint.start_time_unix_nano': (c) => c.row.startTimeUnixNano,
    'datapoint.time_unix_nano': (c) => c.row.timeUnixNano,
    'datapoint.start_time': timeOf((c) => c.row.startTimeUnixNano),
    'datapoint.time': timeOf((c) => c.row.timeUnixNano),
    // pdata gives 0 for the value of the other type: an int point's value_double is 0.
    'datapoint.value_double': (c) => (c.row.kind === 'number' ? (typeof c.row.value === 'number' ? c.row.value : 0) : null),
    'datapoint.value_int': (c) => (c.row.kind === 'number' ? (typeof c.row.value === 'bigint' ? c.row.value : 0n) : null),
    'datapoint.flags': (c) => BigInt(c.row.flags),
    'datapoint.count': (c) => (c.row.kind === 'number' ? null : BigInt(c.row.count)),
    // A histogram without a sum reads 0, as pdata's Sum().
    'datapoint.sum': (c) => (c.row.kind === 'number' ? null : (c.row.sum ?? 0)),
    'datapoint.bucket_counts': (c) => (c.row.kind === 'histogram' ? counts(c.row.bucketCounts) : null),
    'datapoint.explicit_bounds': (c) => (c.row.kind === 'histogram' ? [...c.row.explicitBounds] : null),
    'datapoint.scale': (c) => (c.row.kind === 'exponential_histogram' ? BigInt(c.row.scale) : null),
    'datapoint.zero_count': (c) => (c.row.kind === 'exponential_histogram' ? BigInt(c.row.zeroCount) : null),
    ...bucketPaths('positive'),
    ...bucketPaths('negative'),
    // pdata slices in the Collector; here lists of maps, for Len() and IsList().
    'datapoint.exemplars': (c) => (c.row.kind === 'summary' ? null : c.row.exemplars.map(exemplar)),
    'datapoint.quantile_values': (c) =>
      c.row.kind === 'summary'
        ? c.row.quantiles.map((q) => {
            const map = newAttributes();
            map.quantile = q.quantile;
            map.value = q.value;
            return map;
          })
        : null,
  } satisfies Record<string, G>,
  keyed: { 'datapoint.attributes': (c) => c.row.attributes },
  refused: {
    'datapoint.positive': 'is not supported in otelgate: read datapoint.positive.offset and datapoint.positive.bucket_counts',
    'datapoint.negative': 'is not supported in otelgate: read datapoint.negative.offset and datapoint.negative.bucket_counts',
  },
};

/** Every path a data point's context reads; the metric's before the resource's, so that "did you mean" offers metric.name for name. */
export const dataPointPaths: PathTable<DataPointContext> = mergedPaths(POINT, metricFieldPaths(), pointResourceAndScope());

export const dataPointContext = { ...tableContext<DataPointContext>('datapoint', dataPointPaths, ['metric']), enums: DATAPOINT_ENUMS };
