// What flows through a pipeline: the rows of one signal for one project.
// A batch is immutable once handed to consume(), and its types say so down to the last attribute:
// a processor that changes rows builds new ones (src/model/rewrite.ts), so one batch can be fanned
// out to several pipelines and exporters without copies.
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
  [K in S]: {
    readonly signal: K;
    readonly project: string;
    /**
     * When the receiver took the request (ns since the epoch), set once there: the time a record
     * without one of its own is given, the same wherever the batch goes.
     */
    readonly receivedUnixNano: bigint;
    readonly rows: readonly RowOf<K>[];
  };
}[S];

/**
 * A batch of one signal's rows. TypeScript cannot see that `signal` picks the type of `rows` when S
 * is generic, which is why this is the one place that says so.
 */
export function batchOf<S extends Signal>(signal: S, project: string, receivedUnixNano: bigint, rows: readonly RowOf<S>[]): Batch<S> {
  return { signal, project, receivedUnixNano, rows } as unknown as Batch<S>;
}
