// The store exporter: otelgate's embedded store on node:sqlite, the default pipeline's exporter,
// and what the read API and `otelgate query` read.
import { resolve } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { durationMs } from '../../config/duration.js';
import { errorMessage, ShuttingDownError } from '../../errors.js';
import type { ReadQuery } from '../../query/params.js';
import type { Reader } from '../../query/reader.js';
import type { ExporterFactory, Exporter } from '../../runtime/component.js';
import { tally } from '../../telemetry/counters.js';
import { storeSchema, validateStore } from './config.js';
import { openForWriting } from './database.js';
import { lockStore, type StoreLock } from './lock.js';
import { Checkpointer } from './checkpointer.js';
import { ReaderThread } from './reader.js';
import { Retention } from './retention.js';
import { Writer } from './writer.js';

/** How often committed pages are copied from the WAL into the database file, off the writer's thread. */
const CHECKPOINT_INTERVAL_MS = 1000;
/** A query's time on the reader thread before it is stopped (and answered 503 with advice to narrow it). */
const READ_TIMEOUT_MS = 10_000;
/** Reads waiting for the reader thread beyond this are answered 503 with Retry-After. */
const MAX_QUEUED_READS = 32;
/** An answer stops after the row that takes it past 32 MiB of JSON, and says it was truncated. */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

export interface StoreExporter extends Exporter, Reader {
  /** Runs one retention pass now; resolves to the rows deleted per signal. */
  retain(nowMs?: number): Promise<Record<string, number>>;
}

export const storeExporterFactory: ExporterFactory<typeof storeSchema> = {
  kind: 'exporter',
  type: 'store',
  description: 'The embedded store (SQLite, WAL): answers each batch once committed, keeps it for its retention, serves the read API.',
  stability: { logs: 'alpha', traces: 'alpha', metrics: 'alpha' },
  schema: storeSchema,
  validate: validateStore,
  singleProcess: 'the store is written by one process (its commits, checkpoints and retention are coordinated inside it)',
  create(config, ctx): StoreExporter {
    const path = resolve(config.path);
    let lock: StoreLock | undefined;
    let db: DatabaseSync | undefined;
    let writer: Writer | undefined;
    let retention: Retention | undefined;
    let timer: NodeJS.Timeout | undefined;
    let reader: ReaderThread | undefined;
    let checkpointer: Checkpointer | undefined;
    let closing = false;
    const meter = ctx.telemetry.meter('otelgate/exporter/store');
    const normal = ctx.telemetry.enabled('normal');
    const attributes = { exporter: ctx.id };
    // Counted at every commit: tallies (telemetry/counters.ts), not the SDK's counters.
    const commits = normal ? tally(meter, 'otelgate_store_commits', 'Transactions the store committed (group commit: one holds every batch handed over meanwhile)', attributes) : undefined;
    const committed = normal ? tally(meter, 'otelgate_store_committed_batches', 'Batches the store committed', attributes) : undefined;
    const heldCounter = ctx.telemetry.enabled('basic')
      ? meter.createCounter('otelgate_store_held_times', { description: 'Times past 2^63-1 ns (after 2262; OTLP times are unsigned) stored as 2^63-1, the largest the store holds' })
      : undefined;
    const deletedCounter = ctx.telemetry.enabled('basic') ? meter.createCounter('otelgate_store_retention_deleted_records', { description: 'Rows deleted because they outlived their retention' }) : undefined;

    const retain = async (nowMs?: number): Promise<Record<string, number>> => {
      if (retention === undefined) throw new ShuttingDownError();
      const started = performance.now();
      const deleted = await retention.pass(nowMs);
      for (const [signal, count] of Object.entries(deleted)) if (count > 0) deletedCounter?.add(count, { ...attributes, signal });
      // A pass that shutdown stopped part-way is not done, and the store says nothing once its
      // shutdown has begun: otelgate's last line is "Shutdown complete.". Its deletions are counted above.
      if (!closing) ctx.logger.info({ deleted, duration_ms: Math.round(performance.now() - started) }, 'Retention pass done');
      return deleted;
    };
    const scheduled = (): void => {
      if (retention === undefined) return;
      retain().catch((error: unknown) => ctx.logger.error({ err: errorMessage(error) }, 'Retention pass failed; it runs again at the next interval'));
    };

    /** Stops and closes what start made, in order; the lock last, whatever failed before it. */
    const close = async (): Promise<void> => {
      closing = true;
      clearInterval(timer);
      try {
        // First, so that a pass under way stops after the chunk it is on rather than go on deleting meanwhile.
        await retention?.stop();
        await reader?.close();
        reader = undefined;
        writer?.close();
        writer = undefined;
        await checkpointer?.stop();
        checkpointer = undefined;
        retention = undefined;
        db?.close();
        db = undefined;
      } finally {
        // Once nothing of this store writes any more; a restart in this process (a reload) takes it again.
        lock?.release();
        lock = undefined;
      }
    };

    return {
      async start() {
        closing = false;
        // Before the file is touched: a second writer changes nothing, not even a pragma.
        lock = lockStore(path, ctx.id);
        try {
          const writing = openForWriting(path, { synchronous: config.synchronous, busyTimeoutMs: durationMs(config.busy_timeout) });
          db = writing;
          writer = new Writer(writing, (batches, held) => {
            commits?.add(1);
            committed?.add(batches);
            if (held > 0) heldCounter?.add(held, attributes);
          }, durationMs(config.commit_interval));
          retention = new Retention(writing, {
            logs: durationMs(config.retention.logs),
            traces: durationMs(config.retention.traces),
            metrics: durationMs(config.retention.metrics),
          });
          checkpointer = new Checkpointer(path, { intervalMs: CHECKPOINT_INTERVAL_MS }, ctx.logger, writer, () => writing.exec('PRAGMA wal_autocheckpoint = 1000'));
          reader = new ReaderThread(path, { timeoutMs: READ_TIMEOUT_MS, maxQueued: MAX_QUEUED_READS, maxBytes: MAX_ANSWER_BYTES });
        } catch (error) {
          // The service shuts down only what started: what this start took is let go here (the lock
          // whatever else fails), and the start's own error is the one to report.
          await close().catch(() => undefined);
          throw error;
        }
        ctx.logger.info({ path, synchronous: config.synchronous }, 'Opened the store');
        // The first pass begins inside start, not on a later turn of the event loop: it is under way
        // before otelgate reports ready (on a store with under a chunk to delete per project and
        // signal it has ended and logged by then too), so no pass logs after a shutdown that a
        // signal at ready begins.
        scheduled();
        timer = setInterval(scheduled, durationMs(config.retention.interval));
        timer.unref();
      },
      shutdown: close,
      consume(batch) {
        return writer === undefined ? Promise.reject(new ShuttingDownError()) : writer.write(batch);
      },
      read(project: string, query: ReadQuery) {
        return reader === undefined ? Promise.reject(new ShuttingDownError()) : reader.read(project, query);
      },
      retain,
    };
  },
};
