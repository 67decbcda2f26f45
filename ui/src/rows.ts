// What the read API answers (docs/read-api.md): its rows and aggregates as TypeScript types, field
// for field.
import type { SeverityBand } from './lib/format.js';

/** Nanoseconds since the epoch, or a duration in nanoseconds, as decimal digits (JSON numbers cannot hold them). */
export type Nanos = string;

/**
 * A number of a row: a double may also be "NaN", "Infinity" or "-Infinity", and an integer
 * beyond 2^53 is its decimal text.
 */
export type JsonNumber = number | string;

/** An attribute value in its OTLP type: bytes are base64 text, maps are objects. */
export type AttributeValue = string | number | boolean | null | AttributeValue[] | { [key: string]: AttributeValue };
export type Attributes = Record<string, AttributeValue>;

export type MetricType = 'gauge' | 'sum' | 'histogram' | 'exponential_histogram' | 'summary';

// ---- rows of /logs, /spans, /metrics ----

export interface LogRow {
  time_unix_nano: Nanos;
  observed_time_unix_nano: Nanos;
  severity_number: number;
  severity_text: string;
  body: string;
  attributes: Attributes;
  dropped_attributes_count: number;
  resource: Attributes;
  scope_name: string;
  scope_version: string;
  service_name: string;
  trace_id: string;
  span_id: string;
  flags: number;
  event_name: string;
}

export interface SpanEvent {
  time_unix_nano: Nanos;
  name: string;
  attributes: Attributes;
  dropped_attributes_count: number;
}

export interface SpanLink {
  trace_id: string;
  span_id: string;
  trace_state: string;
  attributes: Attributes;
  dropped_attributes_count: number;
  flags: number;
}

export interface SpanRow {
  trace_id: string;
  /** "" for a root span. */
  parent_span_id: string;
  span_id: string;
  trace_state: string;
  flags: number;
  name: string;
  /** 0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  start_time_unix_nano: Nanos;
  end_time_unix_nano: Nanos;
  duration_nano: Nanos;
  /** 0 unset, 1 ok, 2 error. */
  status_code: number;
  status_message: string;
  attributes: Attributes;
  dropped_attributes_count: number;
  events: SpanEvent[];
  dropped_events_count: number;
  links: SpanLink[];
  dropped_links_count: number;
  resource: Attributes;
  scope_name: string;
  scope_version: string;
  service_name: string;
}

export interface Exemplar {
  time_unix_nano: Nanos;
  value: JsonNumber;
  filtered_attributes: Attributes;
  trace_id: string;
  span_id: string;
}

export interface Buckets {
  offset: number;
  bucket_counts: JsonNumber[];
}

export interface Quantile {
  quantile: number;
  value: JsonNumber;
}

/** The value fields of each type of data point: a /metrics row's, and a /metric_series point's. */
export interface NumberValue {
  value: JsonNumber;
}

export interface HistogramValue {
  count: JsonNumber;
  sum?: JsonNumber;
  min?: JsonNumber;
  max?: JsonNumber;
  /** One more count than bounds, or both empty. */
  bucket_counts: JsonNumber[];
  explicit_bounds: number[];
}

export interface ExponentialHistogramValue {
  count: JsonNumber;
  sum?: JsonNumber;
  min?: JsonNumber;
  max?: JsonNumber;
  scale: number;
  zero_count: JsonNumber;
  positive: Buckets;
  negative: Buckets;
}

export interface SummaryValue {
  count: JsonNumber;
  sum: JsonNumber;
  quantiles: Quantile[];
}

interface PointTimes {
  time_unix_nano: Nanos;
  start_time_unix_nano: Nanos;
}

export type NumberPoint = PointTimes & NumberValue;
export type HistogramPoint = PointTimes & HistogramValue;
export type ExponentialHistogramPoint = PointTimes & ExponentialHistogramValue;
export type SummaryPoint = PointTimes & SummaryValue;

interface MetricDescription {
  metric_name: string;
  description: string;
  unit: string;
  /** 0 unspecified (gauges, summaries), 1 delta, 2 cumulative. */
  temporality: number;
  /** Sums only; false otherwise. */
  is_monotonic: boolean;
}

interface MetricRowCommon extends MetricDescription, PointTimes {
  attributes: Attributes;
  flags: number;
  exemplars: Exemplar[];
  resource: Attributes;
  scope_name: string;
  scope_version: string;
  service_name: string;
}

/** A /metrics row: one data point, with the fields of its type. */
export type MetricRow =
  | (MetricRowCommon & NumberValue & { type: 'gauge' | 'sum' })
  | (MetricRowCommon & HistogramValue & { type: 'histogram' })
  | (MetricRowCommon & ExponentialHistogramValue & { type: 'exponential_histogram'; zero_threshold: JsonNumber })
  | (MetricRowCommon & SummaryValue & { type: 'summary' });

/** `truncated`: the answer stopped at 32 MiB; ask again with `to` at the last row's time. */
export interface Rows<T> {
  rows: T[];
  truncated?: true;
}

// ---- the aggregate paths ----

export interface BucketRange {
  /** The bucket width, and the range the buckets cover: bucket k starts at from + k × step. */
  step_nano: Nanos;
  from: Nanos;
  to: Nanos;
}

export interface LogCount {
  /** The bucket's start. */
  time_unix_nano: Nanos;
  severity: SeverityBand;
  count: number;
}

/** Rows only for non-zero counts, by bucket, then by severity band from unspecified to fatal. */
export interface LogCounts extends BucketRange {
  rows: LogCount[];
}

export interface TraceSummary {
  trace_id: string;
  /** The span without a parent, or the earliest one when none is stored (yet). */
  root_name: string;
  root_service: string;
  start_time_unix_nano: Nanos;
  end_time_unix_nano: Nanos;
  /** The latest end minus the earliest start, over the spans stored so far. */
  duration_nano: Nanos;
  span_count: number;
  error_count: number;
  /** Sorted, distinct. */
  services: string[];
}

export interface MetricName extends MetricDescription {
  type: MetricType;
  series_count: number;
  point_count: number;
}

interface SeriesCommon extends MetricDescription {
  service_name: string;
  attributes: Attributes;
  /** More points than max_points: the newest were kept. */
  truncated: boolean;
}

/** A series: one (service, type, attributes) of a metric, its points oldest first. */
export type MetricSeries =
  | (SeriesCommon & { type: 'gauge' | 'sum'; points: NumberPoint[] })
  | (SeriesCommon & { type: 'histogram'; points: HistogramPoint[] })
  | (SeriesCommon & { type: 'exponential_histogram'; points: ExponentialHistogramPoint[] })
  | (SeriesCommon & { type: 'summary'; points: SummaryPoint[] });

export interface ErrorGroup {
  exception_type: string;
  exception_message: string;
  count: number;
  first_time_unix_nano: Nanos;
  last_time_unix_nano: Nanos;
  services: string[];
  /** Non-zero buckets, each starting at its time. */
  counts: { time_unix_nano: Nanos; count: number }[];
  /** The group's newest log row, attributes (exception.stacktrace) and all. */
  latest: LogRow;
}

/** Ordered by count, most first, then by last time, newest first. */
export interface ErrorGroups extends BucketRange {
  rows: ErrorGroup[];
}
