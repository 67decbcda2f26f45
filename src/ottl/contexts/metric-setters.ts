// What statements may set in the metric and data point contexts (the Collector's settable paths),
// and the contexts metric statements run in: a data point's (each row), a metric's (once per
// Metric of a batch), a resource's and a scope's. A metric's fields are set on the batch's one new
// Metric for all its points (draftMetric); a point's on a new row.
import type { DataPointRow } from '../../model/metrics.js';
import type { OttlContext, Setter } from '../compile.js';
import type { OttlValue } from '../values.js';
import { METRIC_EDITORS, REFUSED_DATAPOINT_EDITORS, REFUSED_METRIC_EDITORS } from '../metric-functions.js';
import { dataPointContext, dataPointPaths } from './datapoint.js';
import { draft, draftMetric, type Drafting, type Mutable } from './draft.js';
import { hasTemporality, metricPaths } from './metric.js';
import { int32, map, nanos, text, type StatementContexts } from './setters.js';
import { instant, pathsUnder, resourceAndScopeSetters, tableContext, uint32, type PathTable } from './table.js';

export type MetricDraft = Drafting<DataPointRow>;

type Kind = DataPointRow['kind'];
type PointOf<K extends Kind> = Mutable<Extract<DataPointRow, { kind: K }>>;

const ALL: readonly Kind[] = ['number', 'histogram', 'exponential_histogram', 'summary'];
const AGGREGATED = ['histogram', 'exponential_histogram', 'summary'] as const;
const EXPONENTIAL = ['exponential_histogram'] as const;

const double = (v: OttlValue): number | undefined => (typeof v === 'number' ? v : undefined);
const int64 = (v: OttlValue): bigint | undefined => (typeof v === 'bigint' ? v : undefined);
/** An int64 into a uint64 count, wrapped as Go's uint64() conversion wraps it. */
const uint64 = (v: OttlValue): number | undefined => (typeof v === 'bigint' ? Number(BigInt.asUintN(64, v)) : undefined);

/**
 * A setter of a field of the points of `kinds`, from what `convert` makes of the value; a value of
 * another type, or a point of another kind, is left as it is, as the Collector's setters leave it.
 */
function pointSetter<K extends Kind, T>(kinds: readonly K[], convert: (v: OttlValue) => T | undefined, apply: (row: PointOf<K>, value: T) => void): Setter<MetricDraft> {
  return (c, v) => {
    const value = convert(v);
    if (value !== undefined && (kinds as readonly Kind[]).includes(c.row.kind)) apply(draft(c) as PointOf<K>, value);
  };
}

/** Setters of the offset of an exponential histogram's buckets, `positive` or `negative`. */
const offsetSetter = (side: 'positive' | 'negative'): Setter<MetricDraft> =>
  pointSetter(EXPONENTIAL, int32, (row, offset) => {
    row[side] = { ...row[side], offset };
  });

const POINT_SETTERS: Record<string, Setter<MetricDraft>> = {
  // The same map again (changed in place) needs no new row.
  'datapoint.attributes': (c, v) => {
    const value = map(v);
    if (value !== undefined && value !== c.row.attributes) draft(c).attributes = value;
  },
  'datapoint.start_time_unix_nano': pointSetter(ALL, nanos, (row, v) => (row.startTimeUnixNano = v)),
  'datapoint.time_unix_nano': pointSetter(ALL, nanos, (row, v) => (row.timeUnixNano = v)),
  'datapoint.start_time': pointSetter(ALL, instant, (row, v) => (row.startTimeUnixNano = v)),
  'datapoint.time': pointSetter(ALL, instant, (row, v) => (row.timeUnixNano = v)),
  // As pdata's SetDoubleValue and SetIntValue: the value takes the type set.
  'datapoint.value_double': pointSetter(['number'], double, (row, v) => (row.value = v)),
  'datapoint.value_int': pointSetter(['number'], int64, (row, v) => (row.value = v)),
  'datapoint.flags': pointSetter(ALL, uint32, (row, v) => (row.flags = v)),
  'datapoint.count': pointSetter(AGGREGATED, uint64, (row, v) => (row.count = v)),
  'datapoint.sum': pointSetter(AGGREGATED, double, (row, v) => (row.sum = v)),
  'datapoint.scale': pointSetter(EXPONENTIAL, int32, (row, v) => (row.scale = v)),
  'datapoint.zero_count': pointSetter(EXPONENTIAL, uint64, (row, v) => (row.zeroCount = v)),
  'datapoint.positive.offset': offsetSetter('positive'),
  'datapoint.negative.offset': offsetSetter('negative'),
};

/** A setter of the metric's field, on the batch's one new Metric of the point's, when `convert` takes the value. */
function metricSetter<T>(convert: (v: OttlValue) => T | undefined, apply: (c: MetricDraft, value: T) => void): Setter<MetricDraft> {
  return (c, v) => {
    const value = convert(v);
    if (value !== undefined) apply(c, value);
  };
}

const bool = (v: OttlValue): boolean | undefined => (typeof v === 'boolean' ? v : undefined);

/** `metric.type` has none: the Collector's setter of it changes nothing (convert_sum_to_gauge and convert_gauge_to_sum do). */
const METRIC_SETTERS: Record<string, Setter<MetricDraft>> = {
  'metric.name': metricSetter(text, (c, v) => (draftMetric(c).name = v)),
  'metric.description': metricSetter(text, (c, v) => (draftMetric(c).description = v)),
  'metric.unit': metricSetter(text, (c, v) => (draftMetric(c).unit = v)),
  'metric.metadata': metricSetter(map, (c, v) => (draftMetric(c).metadata = v)),
  // Only a sum, a histogram and an exponential histogram have a temporality; only a sum monotonicity.
  'metric.aggregation_temporality': metricSetter(int32, (c, v) => {
    if (hasTemporality(c.row.metric.type)) draftMetric(c).temporality = v;
  }),
  'metric.is_monotonic': metricSetter(bool, (c, v) => {
    if (c.row.metric.type === 'sum') draftMetric(c).isMonotonic = v;
  }),
};

const SHARED_SETTERS = { ...METRIC_SETTERS, ...resourceAndScopeSetters<DataPointRow>() };

const pointTable: PathTable<MetricDraft> = { ...dataPointPaths, set: { ...POINT_SETTERS, ...SHARED_SETTERS } };
const metricTable: PathTable<MetricDraft> = { ...metricPaths, set: SHARED_SETTERS };

const pointContext: OttlContext<MetricDraft> = { ...tableContext('datapoint', pointTable, ['metric']), enums: dataPointContext.enums, refused: REFUSED_DATAPOINT_EDITORS };
const metricContext: OttlContext<MetricDraft> = { ...tableContext('metric', metricTable), editors: METRIC_EDITORS, refused: REFUSED_METRIC_EDITORS };

export const metricStatementContexts: StatementContexts<MetricDraft> = {
  datapoint: pointContext,
  metric: metricContext,
  resource: tableContext('resource', pathsUnder(pointTable, ['resource'])),
  scope: tableContext('scope', pathsUnder(pointTable, ['resource', 'scope'])),
};
