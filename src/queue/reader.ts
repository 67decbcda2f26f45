// Reads records back for take(), in id order, through one read-ahead buffer. It skips records
// acknowledged before a restart, and after a record found damaged while reading it goes on from
// the next whole one, reporting the ids lost in between. Records just written are handed out from
// memory, up to FRESH_RECORDS and FRESH_BYTES of them (fresh.ts): a queue whose consumers keep up
// never reads back what it wrote (reading back and copying were a fifth of forwarding's cost, most
// of it garbage collection). The disk stays the truth: what is not in memory, or given back, is
// read from it.
import type { QueueDisk, QueueFile } from './disk.js';
import { nextMarker, RECORD_HEADER, RECORD_MAGIC, recordAt } from './frame.js';
import { FreshRecords } from './fresh.js';
import type { IdSet } from './idset.js';
import type { Segment, SegmentList } from './segments.js';

const CHUNK = 256 * 1024;
/** Payload bytes of records written and not yet read that are kept in memory at most. */
export const FRESH_BYTES = 8 * 1024 * 1024;
/** Records written and not yet read that are kept in memory at most. */
export const FRESH_RECORDS = 1024;

/** Where a record is: enough to read it again (after nack) and to finish it (after ack). */
export interface RecordLocation {
  id: number;
  segment: Segment;
  offset: number;
  length: number;
  items: number;
  payloadBytes: number;
}

export interface ReadRecord extends RecordLocation {
  payload: Uint8Array;
  /** The metadata's JSON text. */
  meta: string;
}

export class RecordReader {
  private segment: Segment | undefined;
  private offset = 0;
  /** The id of the last record passed in the current segment. */
  private lastId = 0;
  private file: QueueFile | undefined;
  private readonly chunk = Buffer.allocUnsafe(CHUNK);
  /** The file offset of chunk[0], and how many bytes of it are valid. */
  private chunkStart = 0;
  private chunkLength = 0;
  /** Records written and not yet read, in id order. */
  private readonly fresh = new FreshRecords<ReadRecord>(FRESH_RECORDS, FRESH_BYTES);

  constructor(
    private readonly disk: QueueDisk,
    private readonly segments: SegmentList,
    private readonly acked: IdSet,
    /** Ids of `segment` found lost to damage, as ranges [start, end) not yet done. */
    private readonly onLost: (segment: Segment, ranges: [number, number][], damagedBytes: number) => void,
  ) {}

  /** The next record not yet done, in id order; undefined when every written one has been read. */
  async next(): Promise<ReadRecord | undefined> {
    for (;;) {
      const segment = await this.current();
      if (segment === undefined) return undefined;
      if (this.offset >= segment.end) {
        const following = segment.sealed ? this.segments.after(segment) : undefined;
        // Sealed, but the segment after it is not written yet: stay, and go on from here.
        if (following === undefined) return undefined;
        await this.moveTo(following);
        continue;
      }
      const record = this.freshAtCursor(segment) ?? (await this.readAtCursor(segment));
      if (record === undefined) {
        // All done while it was read: its file may be a new segment's now (spares.ts), no damage.
        if (segment.removed) continue;
        await this.resync(segment);
        this.forget();
        continue;
      }
      this.offset += record.length;
      this.lastId = record.id;
      this.forget();
      if (!this.acked.has(record.id)) return record;
    }
  }

  /**
   * A record just written, to be handed out from memory when the reader gets to it, if there is
   * room. Its payload is the appender's: never changed after append.
   */
  remember(record: ReadRecord): void {
    this.fresh.add(record);
  }

  /** The record at the cursor, when it is one of those kept in memory. */
  private freshAtCursor(segment: Segment): ReadRecord | undefined {
    this.forget();
    const record = this.fresh.oldest(this.lastId + 1);
    return record !== undefined && record.segment === segment && record.offset === this.offset ? record : undefined;
  }

  /** Lets go of the records kept in memory that the cursor has passed. */
  private forget(): void {
    this.fresh.dropThrough(this.lastId);
  }

  /** Reads a record again where it was found; undefined when it is no longer whole there. */
  async readAt(location: RecordLocation): Promise<ReadRecord | undefined> {
    const buf = Buffer.allocUnsafe(location.length);
    const file = await this.disk.open(location.segment.path, 'r');
    try {
      await readFully(file, buf, location.offset);
    } finally {
      await file.close();
    }
    const header = recordAt(buf, 0);
    if (header === undefined || header.id !== location.id) return undefined;
    return { ...location, meta: buf.toString('utf8', RECORD_HEADER, RECORD_HEADER + header.metaLength), payload: buf.subarray(RECORD_HEADER + header.metaLength) };
  }

  /**
   * The segment the reader is in. It never forgets where it is: a segment removed under it (all
   * done) is left for the one after it once there is one, never for the first again.
   */
  private async current(): Promise<Segment | undefined> {
    if (this.segment === undefined) {
      const first = this.segments.first();
      if (first !== undefined) await this.moveTo(first);
    } else if (this.segment.removed) {
      const following = this.segments.after(this.segment);
      if (following === undefined) {
        await this.file?.close().catch(() => undefined);
        this.file = undefined;
        return undefined;
      }
      await this.moveTo(following);
    }
    return this.segment;
  }

  private async moveTo(segment: Segment): Promise<void> {
    await this.file?.close().catch(() => undefined);
    this.file = undefined;
    this.segment = segment;
    this.offset = 0;
    this.lastId = segment.firstId - 1;
    this.chunkLength = 0;
  }

  /** Makes bytes [offset, offset+length) of the segment lie in the chunk; false when they are not all in the file. */
  private async load(segment: Segment, offset: number, length: number): Promise<boolean> {
    if (offset >= this.chunkStart && offset + length <= this.chunkStart + this.chunkLength) return true;
    this.file ??= await this.disk.open(segment.path, 'r');
    // Nothing in the chunk is to be trusted should the read fail.
    this.chunkLength = 0;
    this.chunkStart = offset;
    this.chunkLength = await readUpTo(this.file, this.chunk, Math.min(CHUNK, segment.end - offset), offset);
    return offset + length <= this.chunkStart + this.chunkLength;
  }

  private async readAtCursor(segment: Segment): Promise<ReadRecord | undefined> {
    if (!(await this.load(segment, this.offset, RECORD_HEADER))) return undefined;
    const length = this.chunk.readUInt32LE(this.offset - this.chunkStart + 8);
    if (length < RECORD_HEADER || this.offset + length > segment.end) return undefined;
    let buf: Buffer;
    let at: number;
    if (length <= CHUNK) {
      if (!(await this.load(segment, this.offset, length))) return undefined;
      buf = this.chunk.subarray(0, this.chunkLength);
      at = this.offset - this.chunkStart;
    } else {
      // Larger than the read-ahead: read on its own.
      buf = Buffer.allocUnsafe(length);
      this.file ??= await this.disk.open(segment.path, 'r');
      if ((await readUpTo(this.file, buf, length, this.offset)) < length) return undefined;
      at = 0;
    }
    const header = recordAt(buf.subarray(0, at + length), at);
    if (header === undefined || header.id <= this.lastId || header.id >= segment.nextId) return undefined;
    const metaStart = at + RECORD_HEADER;
    const payloadStart = metaStart + header.metaLength;
    return {
      id: header.id,
      segment,
      offset: this.offset,
      length,
      items: header.items,
      payloadBytes: length - RECORD_HEADER - header.metaLength,
      meta: buf.toString('utf8', metaStart, payloadStart),
      // A copy: the chunk is read into again.
      payload: length <= CHUNK ? Buffer.from(buf.subarray(payloadStart, at + length)) : buf.subarray(payloadStart, at + length),
    };
  }

  /** Damage at the cursor: finds the next whole record of the segment and reports what lies between as lost. */
  private async resync(segment: Segment): Promise<void> {
    const rest = Buffer.allocUnsafe(segment.end - this.offset);
    this.file ??= await this.disk.open(segment.path, 'r');
    const got = await readUpTo(this.file, rest, rest.length, this.offset);
    const found = this.nextWhole(rest.subarray(0, got), segment);
    const nextAt = found?.at ?? got;
    const nextId = found?.id ?? segment.nextId;
    const lastId = this.lastId;
    const lost = this.acked.missingRanges(lastId + 1, nextId);
    this.offset = found === undefined ? segment.end : this.offset + nextAt;
    this.lastId = nextId - 1;
    this.chunkLength = 0;
    this.onLost(segment, lost, nextAt);
  }

  /** The first whole record after the start of `buf` that can follow the last one read. */
  private nextWhole(buf: Buffer, segment: Segment): { at: number; id: number } | undefined {
    for (let at = nextMarker(buf, RECORD_MAGIC, 1); at !== -1; at = nextMarker(buf, RECORD_MAGIC, at + 1)) {
      const header = recordAt(buf, at);
      if (header !== undefined && header.id > this.lastId && header.id < segment.nextId) return { at, id: header.id };
    }
    return undefined;
  }

  async close(): Promise<void> {
    this.fresh.clear();
    await this.file?.close().catch(() => undefined);
    this.file = undefined;
  }
}

/** Reads up to `length` bytes at `position`, fewer only at the end of the file. */
async function readUpTo(file: QueueFile, into: Buffer, length: number, position: number): Promise<number> {
  let done = 0;
  while (done < length) {
    const got = await file.read(into, done, length - done, position + done);
    if (got === 0) break;
    done += got;
  }
  return done;
}

async function readFully(file: QueueFile, into: Buffer, position: number): Promise<void> {
  if ((await readUpTo(file, into, into.length, position)) < into.length) throw new Error('the record is cut short');
}
