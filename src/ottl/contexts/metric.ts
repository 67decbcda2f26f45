// OTTL's metric context over otelgate's data point rows: the Collector's ottlmetric paths (with or
// without the `metric.` prefix), read from the Metric all the points of one metric share, its
// resource's and scope's, and `project` (read-only). A metric is not a row here: its conditions are
// evaluated once per Metric of a batch, on its first point, with all its points at hand for the
// filter's HasAttrOnDatapoint and HasAttrKeyOnDatapoint.
import type { DataPointRow, MetricType } from '../../model/metrics.js';
import type { Getter } from '../compile.js';
import { DATAPOINT_ATTRIBUTE_CONVERTERS } from '../metric-functions.js';
import { mergedPaths, resourceAndScopePaths, tableContext, type PathTable } from './table.js';

/** What reads a metric: one of its points (`row`), for the metric, resource and scope they share. */
export interface MetricRow {
  readonly row: DataPointRow;
  readonly project: string;
}

/** A metric in the filter's metric context: its first point, and all its points of the batch. */
export interface MetricContext extends MetricRow {
  readonly points: readonly DataPointRow[];
}

/** pmetric.MetricType's numbers: METRIC_DATA_TYPE_GAUGE is 1. */
const TYPE_NUMBERS: Readonly<Record<MetricType, bigint>> = { gauge: 1n, sum: 2n, histogram: 3n, exponential_histogram: 4n, summary: 5n };

/** Whether a metric of `type` has an aggregation temporality (the Collector's getter gives nil for the others). */
export const hasTemporality = (type: MetricType): boolean => type === 'sum' || type === 'histogram' || type === 'exponential_histogram';

/** The metric paths, under `metric.`, of whatever context holds a data point. */
export function metricFieldPaths<C extends MetricRow>(): PathTable<C> {
  return {
    plain: {
      project: (c) => c.project,
      'metric.name': (c) => c.row.metric.name,
      'metric.description': (c) => c.row.metric.description,
      'metric.unit': (c) => c.row.metric.unit,
      'metric.type': (c) => TYPE_NUMBERS[c.row.metric.type],
      'metric.aggregation_temporality': (c) => (hasTemporality(c.row.metric.type) ? BigInt(c.row.metric.temporality) : null),
      'metric.is_monotonic': (c) => (c.row.metric.type === 'sum' ? c.row.metric.isMonotonic : null),
    } satisfies Record<string, Getter<C>>,
    keyed: { 'metric.metadata': (c) => c.row.metric.metadata },
    refused: {
      'metric.data_points': 'is not supported in otelgate: a metric\'s points are rows of their own (use the datapoint context, or HasAttrOnDatapoint / HasAttrKeyOnDatapoint in the filter\'s metric conditions)',
    },
  };
}

/** The resource's and scope's paths of whatever context holds a data point. */
export const pointResourceAndScope = <C extends MetricRow>(): PathTable<C> => resourceAndScopePaths<C>((c) => c.row.resource, (c) => c.row.scope);

/** Every path a metric's context reads. */
export const metricPaths: PathTable<MetricRow> = mergedPaths(metricFieldPaths(), pointResourceAndScope());

/** The filter's metric context: its paths, and the converters that read a metric's points. */
export const metricContext = { ...tableContext<MetricContext>('metric', metricPaths), converters: DATAPOINT_ATTRIBUTE_CONVERTERS };
