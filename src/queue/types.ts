// What a sending queue offers an exporter, on disk (DiskQueue) or in memory (MemoryQueue): entries
// go in whole (append), come out oldest first (take), and leave only when acknowledged (ack).
import type { QueueRecovery } from './recover.js';

/** The Collector's sending_queue.sizer: what queue_size counts. */
export type QueueSizer = 'requests' | 'items' | 'bytes';

/**
 * One entry as the queue keeps it, never looking inside: an encoded batch and what travels with
 * it (signal, project, kept request metadata, received time...). `metadata` must survive
 * JSON.stringify and JSON.parse unchanged (the disk queue stores it as JSON).
 */
export interface QueueEntry<M> {
  payload: Uint8Array;
  metadata: M;
  /** Log records, spans or data points in the batch: what the `items` sizer counts. */
  items: number;
}

/** An entry handed out by take(): it stays in the queue until ack(id), and comes back after nack(id) or a restart. */
export interface TakenEntry<M> extends QueueEntry<M> {
  id: number;
}

export interface AppendOptions {
  /**
   * With block_on_overflow, the append waits for room until this aborts (the request's deadline,
   * as the Collector bounds the wait by the request's context), and is then refused with
   * QueueFullError. Without block_on_overflow a full queue refuses at once.
   */
  signal?: AbortSignal;
}

export interface QueueStats {
  sizer: QueueSizer;
  /** queue_size, in the sizer's unit: otelcol_exporter_queue_capacity. */
  capacity: number;
  /** Entries not yet acknowledged (taken ones included), in the sizer's unit: otelcol_exporter_queue_size. */
  size: number;
  /** The same in each unit. */
  requests: number;
  items: number;
  bytes: number;
  /** Taken and not yet acknowledged or given back. */
  inFlight: number;
  /** Segment files and their bytes (0 for the memory queue). */
  segments: number;
  diskBytes: number;
  /** Records lost to damage since open, found at open or while reading. */
  corruptRecords: number;
  /** What open found (all zero for the memory queue). */
  recovery: QueueRecovery;
}

export interface SendingQueue<M> {
  /**
   * Adds an entry; resolves with its id once it is held (for the disk queue: written to its
   * segment file, and fsynced when fsync is on). Rejects with QueueFullError when there is no
   * room, QueueStorageError when the disk would not take it (nothing of it is kept), and
   * ShuttingDownError once the queue is closing.
   */
  append(entry: QueueEntry<M>, options?: AppendOptions): Promise<number>;
  /**
   * The oldest entry not taken; waits while there is none. Resolves undefined once `signal` aborts
   * or the queue closes; rejects with QueueStorageError when the disk cannot be read (the entry
   * stays where it was, and the next take tries it again).
   */
  take(signal?: AbortSignal): Promise<TakenEntry<M> | undefined>;
  /**
   * The entry is done (delivered, or dropped for good): it leaves the queue and its room is free
   * at once. Resolves once that is written; rejects with QueueStorageError when it could not be
   * (it is then written with a later one, and until then a restart would deliver it again).
   */
  ack(id: number): Promise<void>;
  /** Gives a taken entry back: it is the next one taken (oldest first among those given back). */
  nack(id: number): void;
  /** Refuses new appends, ends waiting takes, waits for writes under way; entries not acknowledged stay for the next open. */
  close(): Promise<void>;
  stats(): QueueStats;
}

export const NO_RECOVERY: QueueRecovery = Object.freeze({ segments: 0, records: 0, corruptRecords: 0, corruptBytes: 0, tornBytes: 0, unreadableSegments: 0, ackLogDamagedBytes: 0 });

export function sizeOf(sizer: QueueSizer, entry: { payload: Uint8Array; items: number }): number {
  switch (sizer) {
    case 'requests':
      return 1;
    case 'items':
      return entry.items;
    case 'bytes':
      return entry.payload.byteLength;
  }
}
