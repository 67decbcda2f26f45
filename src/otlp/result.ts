// What a decoder hands the receiver: the rows it could map, and how many records it could not.
import type { RowOf } from '../model/batch.js';
import type { Signal } from '../model/signal.js';

export interface Decoded<S extends Signal> {
  rows: RowOf<S>[];
  /** Records seen but not mappable, plus 1 for a body (or a part of one) too broken to count records in. */
  skipped: number;
  /** Set when the body, or a part of it, could not be read at all: why. */
  unreadable?: string;
}

export function emptyDecoded<S extends Signal>(): Decoded<S> {
  return { rows: [], skipped: 0 };
}
