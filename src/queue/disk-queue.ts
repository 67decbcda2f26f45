// The durable sending queue: entries are appended to segment files (group commit) and resolve
// only once written; take() reads them back oldest first; ack() records in the acknowledgement
// log that one is done, and a segment goes once all of its records are. At open, what is on disk
// is checked (recover.ts), and whatever was taken but never acknowledged comes again: at least
// once, across crashes and kill -9. Memory holds a summary per segment, the entries in flight and
// up to FRESH_BYTES of records just written (reader.ts), never the queue itself.
// src/queue/README.md has the layout and the reasons.
import type { Logger } from 'pino';
import { errorMessage, QueueDirectoryError, QueueLockedError, QueueStorageError, ShuttingDownError } from '../errors.js';
import { AckLog, readAckLog } from './acklog.js';
import { checkDirectory } from './directory.js';
import { Appender, type PendingAppend, type WrittenAt } from './appender.js';
import { Capacity } from './capacity.js';
import { nodeDisk, type QueueDisk } from './disk.js';
import { IdSet } from './idset.js';
import { lockQueue, type QueueLock } from './lock.js';
import { RecordReader, type ReadRecord, type RecordLocation } from './reader.js';
import { recoverSegments, type QueueRecovery } from './recover.js';
import type { Segment, SegmentList } from './segments.js';
import { SpareSegments } from './spares.js';
import { waitForWake } from './wakeups.js';
import { sizeOf, type AppendOptions, type QueueEntry, type QueueSizer, type QueueStats, type SendingQueue, type TakenEntry } from './types.js';

export interface DiskQueueOptions {
  /** The queue's own directory (created when missing): one queue per directory. */
  directory: string;
  /** Permissions of the directory when it is created (minus the umask). */
  directoryMode?: number;
  sizer?: QueueSizer;
  /** queue_size, in the sizer's unit; the Collector's default is 1000 requests. */
  capacity?: number;
  blockOnOverflow?: boolean;
  /** fdatasync each group commit: survives power loss, not only a crash of otelgate. */
  fsync?: boolean;
  /** A segment file past this size is sealed and a new one begun. */
  segmentBytes?: number;
  /** How long open waits for another holder of the directory to let go. */
  lockTimeoutMs?: number;
  /** The acknowledgement log is rewritten as one frame once it has grown this much (1 MiB). */
  ackLogBytes?: number;
  /** At open, rewrite segments that are partly acknowledged to hold only what is still to deliver. */
  compactOnStart?: boolean;
  /** Names the queue in the lock file and in a QueueLockedError, e.g. `exporter otlp_http/tempo logs`. */
  owner?: string;
  logger?: Logger;
  disk?: QueueDisk;
}

const DEFAULT_SEGMENT_BYTES = 8 * 1024 * 1024;
const DEFAULT_ACK_LOG_BYTES = 1024 * 1024;

export class DiskQueue<M> implements SendingQueue<M> {
  private readonly capacity: Capacity;
  private readonly inFlight = new Map<number, RecordLocation>();
  /** Given back by nack, in id order: taken before anything new. */
  private readonly redeliver: RecordLocation[] = [];
  /** Not yet acknowledged, in each sizer's unit. */
  private readonly counts: { requests: number; items: number; bytes: number };
  private corruptRecords: number;
  private readonly appender: Appender;
  private readonly reader: RecordReader;
  private readonly ackLog: AckLog;
  private readonly spares: SpareSegments;
  /** Reads run one at a time: each take gets its own record. */
  private reading: Promise<unknown> = Promise.resolve();
  /** Bumped whenever something becomes available to take; takes that found nothing wait for it. */
  private version = 0;
  private readonly waitingTakes = new Set<() => void>();
  private closing = false;
  private closed: Promise<void> | undefined;
  /** Segment files being removed: close waits for them. */
  private readonly removing = new Set<Promise<void>>();
  private failing = false;

  private constructor(
    private readonly options: Required<Pick<DiskQueueOptions, 'directory' | 'sizer' | 'capacity' | 'fsync'>> & { logger: Logger | undefined; disk: QueueDisk },
    private readonly segments: SegmentList,
    private readonly acked: IdSet,
    nextId: number,
    recovered: { requests: number; items: number; bytes: number },
    private readonly recovery: QueueRecovery,
    private readonly lock: QueueLock,
    blockOnOverflow: boolean,
    segmentBytes: number,
    ackLogBytes: number,
  ) {
    const { directory, disk, fsync, sizer } = options;
    this.counts = { requests: recovered.requests, items: recovered.items, bytes: recovered.bytes };
    this.corruptRecords = recovery.corruptRecords;
    this.capacity = new Capacity(sizer, options.capacity, blockOnOverflow);
    this.capacity.used = this.inSizer(recovered);
    this.spares = new SpareSegments(disk, directory);
    this.appender = new Appender({
      disk,
      directory,
      fsync,
      segmentBytes,
      segments,
      spares: this.spares,
      nextId,
      onWritten: (batch, at, segment) => this.written(batch, at, segment),
      onFailed: (batch, error) => this.failed(batch, error),
      onSealed: (segment) => this.removeIfDone(segment),
    });
    this.reader = new RecordReader(disk, segments, acked, (segment, ranges, damagedBytes) => this.lost(segment, ranges, damagedBytes));
    this.ackLog = new AckLog(disk, directory, fsync, acked, () => this.segments.first()?.firstId ?? this.appender.next, (error) => this.storageFailed(error), ackLogBytes);
  }

  /**
   * Opens the queue in its directory: takes the directory's lock, reads what is there, sets damage
   * aside (counted in stats().recovery and logged once) and is ready to take what was left. Fails
   * only when the directory cannot be used at all (QueueDirectoryError) or another process holds
   * it past lockTimeoutMs (QueueLockedError); never on damage.
   */
  static async open<M>(options: DiskQueueOptions): Promise<DiskQueue<M>> {
    const disk = options.disk ?? nodeDisk;
    const { directory, logger } = options;
    const capacity = options.capacity ?? 1000;
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`queue capacity must be a whole number above 0, not ${capacity}`);
    await checkDirectory(disk, directory, options.directoryMode);
    let lock: QueueLock;
    try {
      lock = await lockQueue(directory, options.owner ?? directory, options.lockTimeoutMs ?? 1000);
    } catch (error) {
      if (error instanceof QueueLockedError) throw error;
      throw new QueueDirectoryError(directory, `its lock file cannot be used: ${errorMessage(error)}`, { cause: error });
    }
    try {
      const fsync = options.fsync ?? false;
      let ackRead: Awaited<ReturnType<typeof readAckLog>>;
      try {
        ackRead = await readAckLog(disk, directory);
      } catch (error) {
        logger?.error({ directory, err: errorMessage(error) }, 'Sending queue acknowledgement log cannot be read; entries acknowledged before will be delivered again');
        ackRead = { acked: new IdSet(), damagedBytes: 0 };
      }
      const recovered = await recoverSegments({ disk, directory, fsync, acked: ackRead.acked, compact: options.compactOnStart ?? false, logger });
      recovered.recovery.ackLogDamagedBytes = ackRead.damagedBytes;
      const queue = new DiskQueue<M>(
        { directory, sizer: options.sizer ?? 'requests', capacity, fsync, logger, disk },
        recovered.segments,
        ackRead.acked,
        recovered.nextId,
        recovered,
        recovered.recovery,
        lock,
        options.blockOnOverflow ?? false,
        options.segmentBytes ?? DEFAULT_SEGMENT_BYTES,
        options.ackLogBytes ?? DEFAULT_ACK_LOG_BYTES,
      );
      await queue.ackLog.snapshot().catch((error: unknown) => queue.storageFailed(error));
      queue.logRecovery();
      return queue;
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  private logRecovery(): void {
    const r = this.recovery;
    const fields = { directory: this.options.directory, ...r };
    if (r.corruptRecords + r.corruptBytes + r.tornBytes + r.unreadableSegments + r.ackLogDamagedBytes > 0) {
      this.options.logger?.warn(fields, 'Sending queue found damage on disk at start: the intact records are kept, the damaged ones set aside under corrupt/');
    } else if (r.records > 0) {
      this.options.logger?.info(fields, 'Sending queue holds entries from before: delivering them');
    }
  }

  private inSizer(counts: { requests: number; items: number; bytes: number }): number {
    return counts[this.options.sizer];
  }

  append(entry: QueueEntry<M>, options?: AppendOptions): Promise<number> {
    if (this.closing) return Promise.reject(new ShuttingDownError());
    if (!Number.isInteger(entry.items) || entry.items < 0 || entry.items > 0xffff_ffff) return Promise.reject(new RangeError(`an entry's items must be a whole number from 0, not ${entry.items}`));
    let meta: Buffer;
    try {
      meta = Buffer.from(JSON.stringify(entry.metadata) ?? 'null');
    } catch (error) {
      return Promise.reject(error);
    }
    const size = sizeOf(this.options.sizer, entry);
    const admitted = this.capacity.admit(size, options?.signal);
    const submit = (): Promise<number> => {
      if (this.closing) {
        this.capacity.unreserve(size);
        return Promise.reject(new ShuttingDownError());
      }
      return new Promise<number>((resolve, reject) => this.appender.submit({ payload: entry.payload, meta, items: entry.items, size, resolve, reject }));
    };
    return admitted === undefined ? submit() : admitted.then(submit);
  }

  private written(batch: PendingAppend[], at: WrittenAt[], segment: Segment): void {
    let size = 0;
    batch.forEach((append, i) => {
      size += append.size;
      this.counts.requests++;
      this.counts.items += append.items;
      this.counts.bytes += append.payload.byteLength;
      const { id, offset, length } = at[i] as WrittenAt;
      this.reader.remember({ id, segment, offset, length, items: append.items, payloadBytes: append.payload.byteLength, payload: append.payload, meta: append.meta.toString('utf8') });
    });
    this.capacity.written(size, this.inSizer(this.counts));
    if (this.failing) {
      this.failing = false;
      this.options.logger?.info({ directory: this.options.directory }, 'Sending queue writes again');
    }
    this.wakeTakes();
  }

  private failed(batch: PendingAppend[], error: QueueStorageError): void {
    let size = 0;
    for (const append of batch) size += append.size;
    this.capacity.unreserve(size);
    this.storageFailed(error);
  }

  /** Logged once when writing starts failing, and once when it works again. */
  private storageFailed(error: unknown): void {
    if (this.failing) return;
    this.failing = true;
    this.options.logger?.error({ directory: this.options.directory, err: errorMessage(error) }, 'Sending queue cannot write; appends are refused (503) until it can');
  }

  private wakeTakes(): void {
    this.version++;
    for (const wake of this.waitingTakes) wake();
    this.waitingTakes.clear();
  }

  async take(signal?: AbortSignal): Promise<TakenEntry<M> | undefined> {
    // A function, as both can change across each await below.
    const stopped = (): boolean => this.closing || signal?.aborted === true;
    for (;;) {
      if (stopped()) return undefined;
      const seen = this.version;
      const record = await this.readSerially();
      if (record !== undefined) {
        this.inFlight.set(record.id, locationOf(record));
        if (stopped()) {
          this.nack(record.id);
          return undefined;
        }
        return { id: record.id, payload: record.payload, metadata: JSON.parse(record.meta) as M, items: record.items };
      }
      if (this.version === seen) await waitForWake(this.waitingTakes, signal);
    }
  }

  private readSerially(): Promise<ReadRecord | undefined> {
    const read = this.reading.then(() => this.readNext());
    this.reading = read.catch(() => undefined);
    return read;
  }

  /** The next record to hand out; a disk that cannot be read is a QueueStorageError, and leaves the record where it was. */
  private async readNext(): Promise<ReadRecord | undefined> {
    try {
      for (let again = this.redeliver.shift(); again !== undefined; again = this.redeliver.shift()) {
        let record: ReadRecord | undefined;
        try {
          record = await this.reader.readAt(again);
        } catch (error) {
          this.redeliver.unshift(again);
          throw error;
        }
        if (record !== undefined) return record;
        this.lost(again.segment, [[again.id, again.id + 1]], again.length, again.items, again.payloadBytes);
      }
      return await this.reader.next();
    } catch (error) {
      throw new QueueStorageError(this.options.directory, error);
    }
  }

  ack(id: number): Promise<void> {
    const location = this.inFlight.get(id);
    if (location === undefined) return Promise.reject(new Error(`queue entry ${id} is not taken`));
    this.inFlight.delete(id);
    this.acked.add(id);
    this.finish(location.segment, 1, location.items, location.payloadBytes);
    return this.ackLog.record(id);
  }

  nack(id: number): void {
    const location = this.inFlight.get(id);
    if (location === undefined) throw new Error(`queue entry ${id} is not taken`);
    this.inFlight.delete(id);
    let i = this.redeliver.length;
    while (i > 0 && (this.redeliver[i - 1] as RecordLocation).id > id) i--;
    this.redeliver.splice(i, 0, location);
    this.wakeTakes();
  }

  /** `count` records of `segment` are done and leave the queue. */
  private finish(segment: Segment, count: number, items: number, bytes: number): void {
    segment.done += count;
    const counts = this.counts;
    counts.requests -= count;
    counts.items -= items;
    counts.bytes -= bytes;
    // Records lost to damage leave without their items and bytes known: an empty queue is empty in every unit.
    if (counts.requests <= 0) {
      counts.requests = 0;
      counts.items = 0;
      counts.bytes = 0;
    }
    this.capacity.release(this.inSizer(counts));
    this.removeIfDone(segment);
  }

  private removeIfDone(segment: Segment): void {
    if (!segment.sealed || segment.done < segment.records || segment.removed) return;
    this.segments.remove(segment);
    this.wakeTakes();
    const removal = (segment.reusable === true && !this.closing ? this.spares.retire(segment.path) : this.options.disk.remove(segment.path)).catch((error: unknown) => {
      this.options.logger?.warn({ file: segment.path, err: errorMessage(error) }, 'Sending queue segment could not be removed; the next start removes it');
    });
    this.removing.add(removal);
    void removal.then(() => this.removing.delete(removal));
  }

  /** Records found damaged while reading: done, counted, logged. Their items and bytes are known only for one read before. */
  private lost(segment: Segment, ranges: [number, number][], damagedBytes: number, items = 0, bytes = 0): void {
    let count = 0;
    const ids: number[] = [];
    for (const [start, end] of ranges) {
      this.acked.addRange(start, end);
      for (let id = start; id < end; id++) ids.push(id);
      count += end - start;
    }
    count = Math.min(count, segment.records - segment.done);
    this.corruptRecords += count;
    this.options.logger?.error({ file: segment.path, records: count, bytes: damagedBytes }, 'Sending queue records found damaged while reading; set aside');
    this.ackLog.recordQuietly(ids);
    this.finish(segment, count, items, bytes);
  }

  async close(): Promise<void> {
    this.closed ??= this.shut();
    return this.closed;
  }

  private async shut(): Promise<void> {
    this.closing = true;
    this.capacity.close();
    this.wakeTakes();
    await this.appender.close();
    await this.reading;
    await this.reader.close();
    await this.ackLog.close();
    await Promise.all(this.removing);
    await this.spares.removeAll().catch(() => undefined);
    this.lock.release();
  }

  stats(): QueueStats {
    let diskBytes = 0;
    for (const segment of this.segments.all()) diskBytes += segment.end;
    return {
      sizer: this.options.sizer,
      capacity: this.options.capacity,
      size: this.inSizer(this.counts),
      ...this.counts,
      inFlight: this.inFlight.size,
      segments: this.segments.length,
      diskBytes,
      corruptRecords: this.corruptRecords,
      recovery: { ...this.recovery },
    };
  }
}

function locationOf(record: ReadRecord): RecordLocation {
  return { id: record.id, segment: record.segment, offset: record.offset, length: record.length, items: record.items, payloadBytes: record.payloadBytes };
}
