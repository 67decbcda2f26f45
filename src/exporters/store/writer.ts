// Group commit: batches handed over while one turn of the event loop runs are written in one
// transaction, and each is answered only after that transaction commits. A commit also waits
// until `commit_interval` after the one before began, so that batches arriving in a steady
// stream share one; a batch after a pause commits at once. A batch is stored whole
// or not at all: should SQLite refuse a value, the group is rolled back and each of its batches
// written again alone. Not a savepoint per batch: SQLite keeps a savepoint's undo pages in a
// temporary file once they pass 64 KiB, and created and deleted one for nearly every batch
// (measured: inserts 8-12 % faster without). A failure of the store (disk full, locked past
// busy_timeout, read-only file, corruption) rejects with StorageError, which the receiver answers
// 503 so the client retries; a value SQLite refuses (a constraint, a number it cannot bind) would
// be refused again on every retry, so it rejects with PermanentError and the client is told the
// records were not stored.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { errorMessage, PermanentError, ShuttingDownError, StorageError } from '../../errors.js';
import type { Batch, RowOf } from '../../model/batch.js';
import type { Signal } from '../../model/signal.js';
import { heldTimes, LOG_COLUMNS, logParams, POINT_COLUMNS, pointParams, SPAN_COLUMNS, spanParams, type BatchHeader, type Param } from './encode.js';
import { TABLES } from './schema.js';

interface Pending {
  batch: Batch;
  resolve: () => void;
  reject: (error: unknown) => void;
}

// SQLite's primary result codes for a value refused as such: CONSTRAINT, MISMATCH, TOOBIG, RANGE.
const DATA_CODES = new Set([19, 20, 18, 25]);

/** What a failed write means for the client: retry later (the store's fault), or never (the data's). */
function failure(error: unknown): StorageError | PermanentError {
  const { errcode, code } = error as { errcode?: number; code?: string };
  const refusedValue = (errcode !== undefined && DATA_CODES.has(errcode & 0xff)) || code === 'ERR_INVALID_ARG_VALUE' || code === 'ERR_INVALID_ARG_TYPE';
  return refusedValue ? new PermanentError(`the store refused the batch: ${errorMessage(error)}`, { cause: error }) : new StorageError(error);
}

/** Each signal's column count and the function that appends one row's parameters. */
const SHAPES: { [S in Signal]: { columns: number; encode: (batch: BatchHeader, row: RowOf<S>, out: Param[]) => void } } = {
  logs: { columns: LOG_COLUMNS, encode: logParams },
  traces: { columns: SPAN_COLUMNS, encode: spanParams },
  metrics: { columns: POINT_COLUMNS, encode: pointParams },
};

/** Rows per INSERT statement: one statement for many rows costs SQLite far less than one per row. */
const ROWS_PER_STATEMENT = 64;
/** Rows per transaction, so that one commit never holds the event loop for long. */
const ROWS_PER_COMMIT = 20_000;

export class Writer {
  private pending: Pending[] = [];
  private scheduled = false;
  private closed = false;
  private held = false;
  private readonly statements = new Map<string, StatementSync>();
  /** When the last flush began (performance.now()), and the timer of a flush waiting for intervalMs after it. */
  private lastFlushAt = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;

  /**
   * `onCommit` hears of every commit with the number of batches it held and of times in them held
   * at the store's largest (encode.ts: timeParam) (own metrics; tests). `intervalMs`: how long
   * after the last flush began a batch handed over waits for the next (commit_interval).
   */
  constructor(
    private readonly db: DatabaseSync,
    private readonly onCommit: (batches: number, heldTimes: number) => void = () => {},
    private readonly intervalMs = 0,
  ) {}

  write(batch: Batch): Promise<void> {
    if (this.closed) return Promise.reject(new ShuttingDownError());
    if (batch.rows.length === 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.pending.push({ batch, resolve, reject });
      this.schedule();
    });
  }

  /**
   * Commits one transaction's worth of what is pending, and gives the event loop a turn before the
   * next: a backlog never holds otelgate for longer than one commit. `all` (at shutdown) writes
   * everything at once, so that nothing handed over is left unanswered.
   */
  flush(all = false): void {
    this.scheduled = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.held && !all) return;
    this.lastFlushAt = performance.now();
    do {
      let rows = 0;
      let take = 0;
      while (take < this.pending.length && (take === 0 || rows + (this.pending[take] as Pending).batch.rows.length <= ROWS_PER_COMMIT)) {
        rows += (this.pending[take] as Pending).batch.rows.length;
        take++;
      }
      if (take > 0) this.commit(this.pending.splice(0, take));
    } while (all && this.pending.length > 0);
    // A backlog goes on at the next turn: the interval is for batches still to come.
    if (this.pending.length > 0) this.schedule(true);
  }

  /** Commits wait (batches keep queueing) until release(): the checkpointer's moment to empty the WAL. */
  hold(): void {
    this.held = true;
  }

  release(): void {
    this.held = false;
    if (this.pending.length === 0) return;
    // What waited through the checkpoint commits at the next turn, not at a timer set before it.
    clearTimeout(this.timer);
    this.timer = undefined;
    this.scheduled = false;
    this.schedule(true);
  }

  /**
   * One flush per turn of the event loop, however many batches arrive in it, and not before
   * intervalMs after the last one began (unless `now`).
   */
  private schedule(now = false): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const wait = now ? 0 : this.lastFlushAt + this.intervalMs - performance.now();
    if (wait > 0) this.timer = setTimeout(() => this.flush(), wait);
    else setImmediate(() => this.flush());
  }

  close(): void {
    this.flush(true);
    this.closed = true;
  }

  private commit(group: Pending[]): void {
    const { db } = this;
    const held = heldTimes.count;
    try {
      // IMMEDIATE takes the write lock once for the group: waiting on it per batch would hold
      // otelgate for busy_timeout once per batch when another process holds it.
      db.exec('BEGIN IMMEDIATE');
      for (const pending of group) this.insert(pending.batch);
      db.exec('COMMIT');
    } catch (error) {
      if (db.isTransaction) {
        try {
          db.exec('ROLLBACK');
        } catch {
          // The connection already rolled back; nothing of the group is stored either way.
        }
      }
      const failed = failure(error);
      // A value refused as such is one batch's fault: each batch is written again on its own, so
      // that only that one is refused. A failure of the store (a full disk, I/O) would meet the
      // others too, and fails the group.
      if (failed instanceof PermanentError && group.length > 1) {
        for (const pending of group) this.commit([pending]);
        return;
      }
      for (const pending of group) pending.reject(failed);
      return;
    }
    this.onCommit(group.length, heldTimes.count - held);
    for (const pending of group) pending.resolve();
  }

  private insert(batch: Batch): void {
    const { table } = TABLES[batch.signal];
    // The batch's signal decides the shape once; its rows are of that signal's type.
    const { columns, encode } = SHAPES[batch.signal] as { columns: number; encode: (batch: BatchHeader, row: RowOf<Signal>, out: Param[]) => void };
    const { rows } = batch;
    const params: Param[] = [];
    for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
      const end = Math.min(rows.length, start + ROWS_PER_STATEMENT);
      params.length = 0;
      for (let i = start; i < end; i++) encode(batch, rows[i] as RowOf<Signal>, params);
      this.statement(table, columns, end - start).run(...params);
    }
  }

  private statement(table: string, columns: number, rows: number): StatementSync {
    const key = `${table}:${rows}`;
    let statement = this.statements.get(key);
    if (statement === undefined) {
      const row = `(${new Array<string>(columns).fill('?').join(',')})`;
      // OR ROLLBACK: no statement journal. By default SQLite keeps the undo pages of every INSERT,
      // so as to take back only that statement should it fail; they outgrow memory within a
      // transaction and go to a temporary file (measured: trace inserts 36 % faster without).
      // A failed INSERT leaves its transaction to be rolled back whole, which commit() always does.
      statement = this.db.prepare(`INSERT OR ROLLBACK INTO ${table} VALUES ${new Array<string>(rows).fill(row).join(',')}`);
      this.statements.set(key, statement);
    }
    return statement;
  }
}
