// One stored metric data point. The metric's own fields live in a Metric shared by all its points.
import type { Attributes } from './anyvalue.js';
import type { Resource, Scope } from './resource.js';

export type MetricType = 'gauge' | 'sum' | 'histogram' | 'exponential_histogram' | 'summary';

export interface Metric {
  readonly name: string;
  readonly description: string;
  readonly unit: string;
  readonly type: MetricType;
  /** OTLP AggregationTemporality number: 0 unspecified, 1 delta, 2 cumulative. 0 for gauges and summaries. */
  readonly temporality: number;
  readonly isMonotonic: boolean;
  readonly metadata: Attributes;
}

export interface Exemplar {
  readonly timeUnixNano: bigint;
  /** A double as number, an int64 as bigint. */
  readonly value: number | bigint;
  readonly filteredAttributes: Attributes;
  readonly traceId: string;
  readonly spanId: string;
}

interface PointBase {
  readonly resource: Resource;
  readonly scope: Scope;
  readonly metric: Metric;
  readonly startTimeUnixNano: bigint;
  readonly timeUnixNano: bigint;
  readonly attributes: Attributes;
  readonly flags: number;
  readonly exemplars: readonly Exemplar[];
}

/** A gauge or sum point: a double as number, an int64 as bigint. */
export interface NumberPointRow extends PointBase {
  readonly kind: 'number';
  readonly value: number | bigint;
}

export interface HistogramPointRow extends PointBase {
  readonly kind: 'histogram';
  readonly count: number;
  readonly sum: number | undefined;
  readonly min: number | undefined;
  readonly max: number | undefined;
  readonly bucketCounts: readonly number[];
  readonly explicitBounds: readonly number[];
}

export interface ExponentialBuckets {
  readonly offset: number;
  readonly bucketCounts: readonly number[];
}

export interface ExponentialHistogramPointRow extends PointBase {
  readonly kind: 'exponential_histogram';
  readonly count: number;
  readonly sum: number | undefined;
  readonly min: number | undefined;
  readonly max: number | undefined;
  readonly scale: number;
  readonly zeroCount: number;
  readonly zeroThreshold: number;
  readonly positive: ExponentialBuckets;
  readonly negative: ExponentialBuckets;
}

export interface SummaryPointRow extends PointBase {
  readonly kind: 'summary';
  readonly count: number;
  readonly sum: number;
  readonly quantiles: readonly { readonly quantile: number; readonly value: number }[];
}

export type DataPointRow = NumberPointRow | HistogramPointRow | ExponentialHistogramPointRow | SummaryPointRow;
