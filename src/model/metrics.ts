// One stored metric data point. The metric's own fields live in a Metric shared by all its points.
import type { Attributes } from './anyvalue.js';
import type { Resource, Scope } from './resource.js';

export type MetricType = 'gauge' | 'sum' | 'histogram' | 'exponential_histogram' | 'summary';

export interface Metric {
  name: string;
  description: string;
  unit: string;
  type: MetricType;
  /** OTLP AggregationTemporality number: 0 unspecified, 1 delta, 2 cumulative. 0 for gauges and summaries. */
  temporality: number;
  isMonotonic: boolean;
  metadata: Attributes;
}

export interface Exemplar {
  timeUnixNano: bigint;
  /** A double as number, an int64 as bigint. */
  value: number | bigint;
  filteredAttributes: Attributes;
  traceId: string;
  spanId: string;
}

interface PointBase {
  resource: Resource;
  scope: Scope;
  metric: Metric;
  startTimeUnixNano: bigint;
  timeUnixNano: bigint;
  attributes: Attributes;
  flags: number;
  exemplars: Exemplar[];
}

/** A gauge or sum point: a double as number, an int64 as bigint. */
export interface NumberPointRow extends PointBase {
  kind: 'number';
  value: number | bigint;
}

export interface HistogramPointRow extends PointBase {
  kind: 'histogram';
  count: number;
  sum: number | undefined;
  min: number | undefined;
  max: number | undefined;
  bucketCounts: number[];
  explicitBounds: number[];
}

export interface ExponentialBuckets {
  offset: number;
  bucketCounts: number[];
}

export interface ExponentialHistogramPointRow extends PointBase {
  kind: 'exponential_histogram';
  count: number;
  sum: number | undefined;
  min: number | undefined;
  max: number | undefined;
  scale: number;
  zeroCount: number;
  zeroThreshold: number;
  positive: ExponentialBuckets;
  negative: ExponentialBuckets;
}

export interface SummaryPointRow extends PointBase {
  kind: 'summary';
  count: number;
  sum: number;
  quantiles: { quantile: number; value: number }[];
}

export type DataPointRow = NumberPointRow | HistogramPointRow | ExponentialHistogramPointRow | SummaryPointRow;
