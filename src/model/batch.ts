// What flows through a pipeline: the rows of one signal for one project.
// A batch is read-only once handed to consume(), and its types say so down to the last attribute:
// a processor that changes rows builds new ones (src/model/rewrite.ts), so one batch can be fanned
// out to several pipelines and exporters without copies. The one exception is an exclusive batch
// (see `exclusive`), whose rows nobody else can see.
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
    /**
     * The rows, and each row's own attributes map (a log record's, span's or data point's
     * `attributes`, not those of what rows share), were made for this batch alone, and the consumer
     * it is handed to is the only one that sees them: it may change those in place instead of
     * copying them. What rows share (resource, scope, metric) and what is inside a row's fields
     * (a span's events and links, a map or list value) stay copy-on-write. Set by a receiver for
     * the rows it decoded; a fan-out to more than one consumer hands each a batch that is not
     * exclusive; a processor keeps it only when it knows its rows still hold (withRows).
     */
    readonly exclusive: boolean;
  };
}[S];

/**
 * A batch of one signal's rows. TypeScript cannot see that `signal` picks the type of `rows` when S
 * is generic, which is why this is the one place that says so.
 */
export function batchOf<S extends Signal>(signal: S, project: string, receivedUnixNano: bigint, rows: readonly RowOf<S>[], exclusive = false): Batch<S> {
  return { signal, project, receivedUnixNano, rows, exclusive } as unknown as Batch<S>;
}

/** `batch` for a consumer that shares it with others: nothing in it may be changed in place. */
export function shared<S extends Signal>(batch: Batch<S>): Batch<S> {
  return batch.exclusive ? batchOf(batch.signal as S, batch.project, batch.receivedUnixNano, batch.rows as readonly RowOf<S>[]) : batch;
}
