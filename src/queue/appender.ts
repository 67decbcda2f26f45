// Writes appended entries to the newest segment, group-committed: entries that arrive while a
// write is under way go together in the next one, one writev (and one fdatasync with fsync on)
// for all of them, and each append resolves only once its bytes are written. A write that fails
// (disk full, I/O error) is cut off again, so no half record stays in the file, and its entries
// are refused; the next write tries again, which is how the queue recovers by itself.
import { QueueStorageError } from '../errors.js';
import { writeFully, type QueueDisk, type QueueFile } from './disk.js';
import { RECORD_HEADER, writeRecordHeader } from './frame.js';
import { newSegment, type Segment, type SegmentList } from './segments.js';
import type { SpareSegments } from './spares.js';

export interface PendingAppend {
  payload: Uint8Array;
  meta: Buffer;
  items: number;
  /** Its size in the queue's sizer. */
  size: number;
  resolve(id: number): void;
  reject(error: unknown): void;
}

/** Where a record was written. */
export interface WrittenAt {
  id: number;
  offset: number;
  /** The whole record's, header included. */
  length: number;
}

export interface AppenderOptions {
  disk: QueueDisk;
  directory: string;
  fsync: boolean;
  /** A segment past this size is sealed and the next write starts a new one. */
  segmentBytes: number;
  segments: SegmentList;
  /** Done segments' files, to write new segments over (spares.ts). */
  spares: SpareSegments;
  nextId: number;
  /** The batch is written, `at[i]` is where its i-th record is: the queue counts it in before anyone is told. */
  onWritten(batch: PendingAppend[], at: WrittenAt[], segment: Segment): void;
  /** The batch was refused. */
  onFailed(batch: PendingAppend[], error: QueueStorageError): void;
  /** A segment was sealed: it may already be all done. */
  onSealed(segment: Segment): void;
}

export class Appender {
  private pending: PendingAppend[] = [];
  private running: Promise<void> | undefined;
  /** The segment being written; `reused` when its file was a spare, so may hold older records past its end. */
  private active: { segment: Segment; file: QueueFile; reused: boolean } | undefined;
  /** The active file may hold bytes past its segment's end, from a write that failed. */
  private dirty = false;
  /**
   * After a failed write (a full disk): seal the segment being written as soon as all of it is
   * delivered, so that it can be removed. Otherwise a full disk whose only file of ours is that
   * segment would never get room back.
   */
  private sealWhenDone = false;
  private nextId: number;

  constructor(private readonly o: AppenderOptions) {
    this.nextId = o.nextId;
  }

  /** The id the next record written gets. */
  get next(): number {
    return this.nextId;
  }

  submit(append: PendingAppend): void {
    this.pending.push(append);
    this.kick();
  }

  private kick(): void {
    if (this.running !== undefined) return;
    // What arrives after the loop's last look but before it is marked done starts the next one.
    this.running = this.run().finally(() => {
      this.running = undefined;
      if (this.pending.length > 0) this.kick();
    });
  }

  private async run(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      await this.write(batch);
    }
  }

  private async write(batch: PendingAppend[]): Promise<void> {
    try {
      const { segment, file } = await this.activeSegment();
      if (this.dirty) {
        await file.truncate(segment.end);
        this.dirty = false;
      }
      const headers = Buffer.allocUnsafe(RECORD_HEADER * batch.length);
      const buffers: Uint8Array[] = [];
      const at: WrittenAt[] = [];
      let bytes = 0;
      batch.forEach((append, i) => {
        const length = writeRecordHeader(headers, i * RECORD_HEADER, this.nextId + i, append.items, append.meta, append.payload);
        at.push({ id: this.nextId + i, offset: segment.end + bytes, length });
        bytes += length;
        buffers.push(headers.subarray(i * RECORD_HEADER, (i + 1) * RECORD_HEADER), append.meta, append.payload);
      });
      this.dirty = true;
      await writeFully(file, buffers, segment.end);
      if (this.o.fsync) await file.datasync();
      this.dirty = false;
      const firstId = this.nextId;
      this.nextId += batch.length;
      segment.end += bytes;
      segment.records += batch.length;
      segment.nextId = this.nextId;
      this.o.onWritten(batch, at, segment);
      batch.forEach((append, i) => append.resolve(firstId + i));
    } catch (cause) {
      if (this.dirty && this.active !== undefined) {
        const { file, segment } = this.active;
        // Cut what was written of the batch off again; if even that fails, the next write tries first.
        await file.truncate(segment.end).then(
          () => {
            this.dirty = false;
          },
          () => undefined,
        );
      }
      this.sealWhenDone = true;
      // Spare files hold room a full disk needs: they go first.
      await this.o.spares.removeAll().catch(() => undefined);
      const error = new QueueStorageError(this.o.directory, cause);
      this.o.onFailed(batch, error);
      for (const append of batch) append.reject(error);
    }
  }

  /** The segment being written, sealing a full one and starting the next first. */
  private async activeSegment(): Promise<{ segment: Segment; file: QueueFile }> {
    const done = this.active !== undefined && this.active.segment.records > 0 && this.active.segment.done === this.active.segment.records;
    if (this.active !== undefined && (this.active.segment.end >= this.o.segmentBytes || (this.sealWhenDone && done))) {
      this.sealWhenDone = false;
      const active = this.active;
      this.active = undefined;
      active.segment.sealed = true;
      await this.closeSegment(active);
      this.o.onSealed(active.segment);
    }
    if (this.active === undefined) {
      const segment = newSegment(this.o.directory, this.nextId);
      const { file, reused } = await this.openSegment(segment.path);
      this.active = { segment, file, reused };
      this.dirty = false;
      this.o.segments.push(segment);
      if (this.o.fsync) await this.o.disk.syncDirectory(this.o.directory);
    }
    return this.active;
  }

  /** A new segment's file: a spare written over when there is one, else a new file. */
  private async openSegment(path: string): Promise<{ file: QueueFile; reused: boolean }> {
    const spare = this.o.spares.take();
    if (spare !== undefined) {
      try {
        await this.o.disk.rename(spare, path);
        return { file: await this.o.disk.open(path, 'r+'), reused: true };
      } catch {
        // A spare that cannot be used is let go: a new file ('w' empties one the rename made).
      }
    }
    return { file: await this.o.disk.open(path, 'w'), reused: false };
  }

  /** Waits for the writes under way and closes the file; the segment stays as it is for the next open. */
  async close(): Promise<void> {
    await this.running;
    if (this.active !== undefined) await this.closeSegment(this.active);
    this.active = undefined;
  }

  /**
   * Closes a segment's file, cut to its own records first: a reused file holds older ones past
   * them, and one whose write failed may hold records never acknowledged, had cutting them off
   * failed then. Only a file cut so may be written over later (Segment.reusable).
   */
  private async closeSegment({ segment, file, reused }: { segment: Segment; file: QueueFile; reused: boolean }): Promise<void> {
    try {
      if (reused || this.dirty) await file.truncate(segment.end);
      if (this.o.fsync) await file.datasync();
      segment.reusable = true;
      this.dirty = false;
    } catch {
      // Left as it is: removed once done, never written over.
    }
    await file.close().catch(() => undefined);
  }
}
