// What a decoder hands the receiver: the rows it could map, and how many records it could not.
import type { RowOf } from '../model/batch.js';
import type { Signal } from '../model/signal.js';

export interface Decoded<S extends Signal> {
  rows: RowOf<S>[];
  /** Records seen but not mappable, plus 1 for a body (or a part of one) too broken to count records in. */
  skipped: number;
  /** Set when the body, or a part of it, could not be read at all: why. */
  unreadable?: string;
  /** Set (to the limit) when the body held more records than one request may: it was discarded whole. */
  tooMany?: number;
  /**
   * Set when the rows do not say exactly what the body says beyond what `skipped` counts: a
   * resource or scope could not be read (its records, if any, are in `skipped`), or, when the
   * decoder was asked to watch, a string was not UTF-8 (the rows hold U+FFFD).
   */
  inexact?: boolean;
}

export function emptyDecoded<S extends Signal>(): Decoded<S> {
  return { rows: [], skipped: 0 };
}

/** Stops a decoder mid-body; the catches that skip one record let these through. */
export class DecodeAbort extends Error {}

/** The body holds more records than one request may: it is discarded whole. */
export class TooManyRecords extends DecodeAbort {
  override readonly name = 'TooManyRecords';
  constructor(readonly limit: number) {
    super(`the body holds more than ${limit} records`);
  }
}

/** The memory budget for requests under way ran out while decoding: retry later. */
export class OutOfBudget extends DecodeAbort {
  override readonly name = 'OutOfBudget';
}

/** Memory shared by the requests under way (the receiver's in-flight byte budget). */
export interface Reservable {
  take(bytes: number): boolean;
  give(bytes: number): void;
}

/**
 * Counts the records of one request against its limit and, where a shared budget is given,
 * reserves `rowCost` bytes of it per record, so that rows decoded from a small body cannot
 * grow memory beyond what the budget allows. `release()` gives the reservation back.
 */
export class RecordBudget {
  private seen = 0;
  private held = 0;

  constructor(
    readonly limit: number,
    private readonly shared?: Reservable,
    private readonly rowCost = 0,
  ) {}

  /** Call once per record (a log record, a span, a data point) before building its row. */
  count(): void {
    if (++this.seen > this.limit) throw new TooManyRecords(this.limit);
    if (this.shared === undefined) return;
    if (!this.shared.take(this.rowCost)) throw new OutOfBudget('the in-flight memory budget is used up');
    this.held += this.rowCost;
  }

  /** The records counted so far. */
  get counted(): number {
    return this.seen;
  }

  /** Takes back the records counted after `counted` was read, with what they reserved: for a decoder that reads them again. */
  rewind(counted: number): void {
    const records = this.seen - counted;
    if (records <= 0) return;
    this.seen = counted;
    if (this.shared === undefined) return;
    const bytes = Math.min(records * this.rowCost, this.held);
    this.held -= bytes;
    this.shared.give(bytes);
  }

  release(): void {
    this.shared?.give(this.held);
    this.held = 0;
    this.seen = 0;
  }
}

/** A decoder result for a body that had too many records: nothing of it is kept. */
export function discarded<S extends Signal>(error: TooManyRecords): Decoded<S> {
  return { rows: [], skipped: 1, unreadable: error.message, tooMany: error.limit };
}
