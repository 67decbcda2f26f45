// What flows through a pipeline: the rows of one signal for one project.
// A batch is immutable once handed to consume(): a processor that changes rows builds new row
// objects, so one batch can be fanned out to several pipelines and exporters without copies.
import type { LogRow } from './logs.js';
import type { DataPointRow } from './metrics.js';
import type { Signal } from './signal.js';
import type { SpanRow } from './traces.js';

export interface RowTypes {
  logs: LogRow;
  traces: SpanRow;
  metrics: DataPointRow;
}

export type RowOf<S extends Signal> = RowTypes[S];

/** Distributes over S, so that a switch on `batch.signal` narrows `batch.rows`. */
export type Batch<S extends Signal = Signal> = {
  [K in S]: { readonly signal: K; readonly project: string; readonly rows: readonly RowOf<K>[] };
}[S];
