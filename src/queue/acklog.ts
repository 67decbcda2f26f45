// The acknowledgement log: which records are done, so that a restart never delivers them again.
// Acknowledgements that arrive together are written as one frame (group commit) of id ranges;
// when the log has grown, it is replaced by one frame holding the whole set (a snapshot, written
// beside it and renamed over it), which stays small because the set is kept as ranges.
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { QueueStorageError } from '../errors.js';
import { writeFully, type QueueDisk, type QueueFile } from './disk.js';
import { ACK_MAGIC, FRAME_PREFIX, scanFrames } from './frame.js';
import { IdSet } from './idset.js';

const ACK_LOG = 'acks.log';
const SNAPSHOT_TMP = 'acks.log.tmp';
/** How soon acknowledgements that could not be written are tried again when no new one comes. */
const RETRY_MS = 1000;

/** One frame of id ranges [start, end). */
function encodeRanges(bounds: readonly number[]): Buffer {
  const frame = Buffer.allocUnsafe(FRAME_PREFIX + bounds.length * 8);
  frame.writeUInt32LE(ACK_MAGIC, 0);
  frame.writeUInt32LE(frame.length, 8);
  for (let i = 0; i < bounds.length; i++) frame.writeDoubleLE(bounds[i] as number, FRAME_PREFIX + i * 8);
  frame.writeUInt32LE(crc32(frame.subarray(8)), 4);
  return frame;
}

/** The sorted ids as ranges. */
function rangesOf(ids: number[]): number[] {
  ids.sort((a, b) => a - b);
  const bounds: number[] = [];
  for (const id of ids) {
    if (bounds.length > 0 && bounds[bounds.length - 1] === id) bounds[bounds.length - 1] = id + 1;
    else if (bounds.length === 0 || (bounds[bounds.length - 1] as number) < id) bounds.push(id, id + 1);
  }
  return bounds;
}

export interface AckLogRead {
  acked: IdSet;
  /** Bytes of the log that held no whole frame: those acknowledgements are lost, their records come again. */
  damagedBytes: number;
}

/** Reads the acknowledged ids from a queue directory's log; a missing log is an empty set. */
export async function readAckLog(disk: QueueDisk, directory: string): Promise<AckLogRead> {
  const acked = new IdSet();
  let buf: Buffer;
  try {
    buf = await disk.readFile(join(directory, ACK_LOG));
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return { acked, damagedBytes: 0 };
    throw error;
  }
  const damaged = scanFrames(buf, ACK_MAGIC, FRAME_PREFIX, (at, length) => {
    if ((length - FRAME_PREFIX) % 16 !== 0) return false;
    for (let p = at + FRAME_PREFIX; p < at + length; p += 16) {
      const start = buf.readDoubleLE(p);
      const end = buf.readDoubleLE(p + 8);
      if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) return false;
    }
    for (let p = at + FRAME_PREFIX; p < at + length; p += 16) acked.addRange(buf.readDoubleLE(p), buf.readDoubleLE(p + 8));
    return true;
  });
  return { acked, damagedBytes: damaged.reduce((sum, d) => sum + d.end - d.start, 0) };
}

interface Waiting {
  resolve(): void;
  reject(error: unknown): void;
}

export class AckLog {
  private file: QueueFile | undefined;
  private size = 0;
  private snapshotSize = 0;
  /** Acknowledged, not yet written (with whoever waits for each), and ids whose writing failed and is owed. */
  private pending: number[] = [];
  private waiting: Waiting[] = [];
  private owed: number[] = [];
  private running: Promise<void> | undefined;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly disk: QueueDisk,
    private readonly directory: string,
    private readonly fsync: boolean,
    /** The whole acknowledged set as the queue holds it, with everything below `floor()` counted as done. */
    private readonly acked: IdSet,
    private readonly floor: () => number,
    private readonly onWriteFailure: (error: QueueStorageError) => void,
    /** The log is rewritten as a snapshot once it has grown this much past its last one. */
    private readonly snapshotAfterBytes: number,
  ) {}

  /** Replaces the log by one frame holding the whole set; at open, and whenever the log has grown. */
  async snapshot(): Promise<void> {
    this.acked.fillBelow(this.floor());
    const frame = encodeRanges(this.acked.ranges());
    const tmp = join(this.directory, SNAPSHOT_TMP);
    const file = await this.disk.open(tmp, 'w');
    try {
      await writeFully(file, [frame], 0);
      if (this.fsync) await file.datasync();
    } finally {
      await file.close();
    }
    await this.disk.rename(tmp, join(this.directory, ACK_LOG));
    // The old file is gone from the directory: nothing may be written to it any more. Should what
    // follows fail, the next write makes a snapshot again.
    const previous = this.file;
    this.file = undefined;
    await previous?.close().catch(() => undefined);
    if (this.fsync) await this.disk.syncDirectory(this.directory);
    this.file = await this.disk.open(join(this.directory, ACK_LOG), 'r+');
    this.size = frame.length;
    this.snapshotSize = frame.length;
    this.owed = [];
  }

  /** Writes that `id` is done; resolves once written, rejects with QueueStorageError when it could not be (it is then written with a later one). */
  record(id: number): Promise<void> {
    if (this.closed) return Promise.reject(new QueueStorageError(this.directory, new Error('the queue is closed')));
    this.pending.push(id);
    const written = new Promise<void>((resolve, reject) => this.waiting.push({ resolve, reject }));
    this.kick();
    return written;
  }

  /** Ids marked done without anyone waiting (records lost to damage): written with the next frame. */
  recordQuietly(ids: readonly number[]): void {
    if (ids.length === 0 || this.closed) return;
    this.owed.push(...ids);
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
    while (this.pending.length > 0 || this.owed.length > 0) {
      const ids = this.owed.concat(this.pending);
      const waiting = this.waiting;
      this.pending = [];
      this.waiting = [];
      try {
        if (this.file === undefined) {
          // The snapshot at open could not be written (a full disk): it holds these ids too.
          await this.snapshot();
        } else {
          const frame = encodeRanges(rangesOf(ids));
          await writeFully(this.file, [frame], this.size);
          if (this.fsync) await this.file.datasync();
          this.size += frame.length;
          this.owed = [];
        }
        for (const w of waiting) w.resolve();
        // These are written whatever becomes of the snapshot; one that fails is made again later.
        if (this.size - this.snapshotSize > this.snapshotAfterBytes) await this.snapshot().catch((cause: unknown) => this.onWriteFailure(new QueueStorageError(this.directory, cause)));
      } catch (cause) {
        const error = new QueueStorageError(this.directory, cause);
        this.owed = ids;
        await this.file?.truncate(this.size).catch(() => undefined);
        for (const w of waiting) w.reject(error);
        this.onWriteFailure(error);
        if (this.pending.length === 0) {
          this.scheduleRetry();
          return;
        }
      }
    }
  }

  private scheduleRetry(): void {
    if (this.retry !== undefined || this.closed) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.kick();
    }, RETRY_MS);
    this.retry.unref();
  }

  /** Waits for the writes under way, tries once more what is owed, and closes the file. */
  async close(): Promise<void> {
    clearTimeout(this.retry);
    this.retry = undefined;
    await this.running;
    if (this.owed.length > 0) {
      this.kick();
      await this.running;
    }
    this.closed = true;
    clearTimeout(this.retry);
    await this.file?.close().catch(() => undefined);
    this.file = undefined;
  }
}
