// The protobuf bytes a batch's rows were decoded from, for as long as the rows live. An exporter
// that sends OTLP protobuf sends these bytes instead of encoding the rows again: re-encoding was
// the largest cost of forwarding after decoding itself. Keyed by the rows array, which is
// immutable: a processor that changes, drops or adds a row makes a new array, which has no source,
// and is encoded from its rows as before; one that changes an exclusive batch's rows in place
// (model/batch.ts) hands them on in a new array too. Only receivers whose pipelines send OTLP protobuf keep
// sources (Consumer.sendsProtobuf): the rest would pay 5-10 % of decoding for nothing.
import type { RowOf } from '../model/batch.js';
import type { Signal } from '../model/signal.js';

const sources = new WeakMap<readonly object[], Buffer>();

/**
 * Records that `body` says exactly what `rows` say: call it only when every record of the body
 * became a row and every string in it was UTF-8. Fields otelgate does not know (from a newer OTLP)
 * are in the bytes and not in the rows: they go on to the backend, which may know them.
 */
export function keepSource<S extends Signal>(rows: readonly RowOf<S>[], body: Buffer): void {
  sources.set(rows, body.buffer.byteLength > 2 * body.byteLength ? ownCopy(body) : body);
}

/**
 * A body that is a slice of a larger buffer (a socket's read, zlib's 64 KiB output chunk) would
 * keep all of it alive wherever the source goes (a queue counts only the body's bytes): copied
 * into a buffer of its own, outside Buffer's shared pool.
 */
function ownCopy(body: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(body.byteLength);
  body.copy(copy);
  return copy;
}

/** The bytes `rows` were decoded from, when they are exactly those rows; never to be written to. */
export function sourceOf<S extends Signal>(rows: readonly RowOf<S>[]): Buffer | undefined {
  return sources.get(rows);
}
