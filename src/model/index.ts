export type { AnyValue, Attributes, MutableAttributes } from './anyvalue.js';
export { newAttributes, isAttributes, withAttributes } from './anyvalue.js';
export type { Batch, RowOf, RowTypes } from './batch.js';
export { batchOf } from './batch.js';
export type { LogRow } from './logs.js';
export type {
  DataPointRow,
  Exemplar,
  ExponentialBuckets,
  ExponentialHistogramPointRow,
  HistogramPointRow,
  Metric,
  MetricType,
  NumberPointRow,
  SummaryPointRow,
} from './metrics.js';
export type { Resource, Scope } from './resource.js';
export type { Signal } from './signal.js';
export { SIGNALS, isSignal } from './signal.js';
export type { SpanEvent, SpanLink, SpanRow } from './traces.js';
