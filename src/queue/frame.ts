// The queue's on-disk framing (src/queue/README.md has the layout): every record of a segment file
// and every frame of the acknowledgement log starts with a magic number, a CRC-32 and its length,
// so a reader can tell a whole frame from a torn or damaged one and find the next whole frame
// after damage by the magic number alone.
import { crc32 } from 'node:zlib';

/** "OGQR" in file order: a segment record. */
export const RECORD_MAGIC = 0x5251474f;
/** "OGQA" in file order: a frame of the acknowledgement log. */
export const ACK_MAGIC = 0x4151474f;

/** magic, crc, length: the part every frame shares. The CRC covers the frame from its length on. */
export const FRAME_PREFIX = 12;
/** The prefix, then the id (two u32, low first), the item count and the metadata's length. */
export const RECORD_HEADER = 28;

const MAX_ID_HIGH = 0x1fffff;

/** One record as found in a segment: where it is and what its header says. */
export interface RecordHeader {
  id: number;
  items: number;
  metaLength: number;
  /** The whole record, header included. */
  length: number;
}

/**
 * Writes a record's header into `into` at `at` for a record holding `meta` then `payload`; the
 * caller writes meta and payload after it (one writev, no copy of the payload).
 */
export function writeRecordHeader(into: Buffer, at: number, id: number, items: number, meta: Uint8Array, payload: Uint8Array): number {
  const length = RECORD_HEADER + meta.byteLength + payload.byteLength;
  into.writeUInt32LE(RECORD_MAGIC, at);
  into.writeUInt32LE(length, at + 8);
  into.writeUInt32LE(id % 0x1_0000_0000, at + 12);
  into.writeUInt32LE(Math.floor(id / 0x1_0000_0000), at + 16);
  into.writeUInt32LE(items, at + 20);
  into.writeUInt32LE(meta.byteLength, at + 24);
  const crc = crc32(payload, crc32(meta, crc32(into.subarray(at + 8, at + RECORD_HEADER))));
  into.writeUInt32LE(crc, at + 4);
  return length;
}

/** A whole frame with `magic` at `at` in `buf`, checksum checked: its length, or 0 when there is none. */
function frameAt(buf: Buffer, at: number, magic: number, minLength: number): number {
  if (at + FRAME_PREFIX > buf.length || buf.readUInt32LE(at) !== magic) return 0;
  const length = buf.readUInt32LE(at + 8);
  if (length < minLength || at + length > buf.length) return 0;
  return crc32(buf.subarray(at + 8, at + length)) === buf.readUInt32LE(at + 4) ? length : 0;
}

/** Where a record header's id ends: its two u32 follow the prefix. */
const ID_END = FRAME_PREFIX + 8;

/** The id of the record header at `at`, whose bytes up to ID_END are there. */
const idAt = (buf: Buffer, at: number): number => buf.readUInt32LE(at + 16) * 0x1_0000_0000 + buf.readUInt32LE(at + 12);

/** The header of the record at `at`, when a whole, intact record is there. */
export function recordAt(buf: Buffer, at: number): RecordHeader | undefined {
  const length = frameAt(buf, at, RECORD_MAGIC, RECORD_HEADER);
  if (length === 0) return undefined;
  const metaLength = buf.readUInt32LE(at + 24);
  if (buf.readUInt32LE(at + 16) > MAX_ID_HIGH || metaLength > length - RECORD_HEADER) return undefined;
  return { id: idAt(buf, at), items: buf.readUInt32LE(at + 20), metaLength, length };
}

/** Whether the header of a record of id `id` begins at `at`, as much of it as `buf` holds (a write cut off): its magic, and its id if that much is there. */
export function recordHeaderBegins(buf: Buffer, at: number, id: number): boolean {
  if (at + 4 > buf.length || buf.readUInt32LE(at) !== RECORD_MAGIC) return false;
  return at + ID_END > buf.length || idAt(buf, at) === id;
}

const MARKERS = new Map<number, Buffer>();

/** Where `magic` next appears in `buf` from `from` on, or -1. */
export function nextMarker(buf: Buffer, magic: number, from: number): number {
  let marker = MARKERS.get(magic);
  if (marker === undefined) {
    marker = Buffer.alloc(4);
    marker.writeUInt32LE(magic);
    MARKERS.set(magic, marker);
  }
  return buf.indexOf(marker, from);
}

/** Bytes of a file that hold no whole frame: damage, or a torn write at the end. */
export interface DamagedSpan {
  start: number;
  end: number;
}

/**
 * Walks the frames of `buf` in order, calling `visit` for each whole one; returns the spans in
 * between that hold none. After damage it goes on from the next place the magic number appears
 * whose frame is whole, so one damaged frame costs that frame only.
 */
export function scanFrames(buf: Buffer, magic: number, minLength: number, visit: (at: number, length: number) => boolean): DamagedSpan[] {
  const damaged: DamagedSpan[] = [];
  let at = 0;
  let damageStart = -1;
  while (at < buf.length) {
    const length = frameAt(buf, at, magic, minLength);
    if (length > 0 && visit(at, length)) {
      if (damageStart !== -1) damaged.push({ start: damageStart, end: at });
      damageStart = -1;
      at += length;
      continue;
    }
    if (damageStart === -1) damageStart = at;
    const next = nextMarker(buf, magic, at + 1);
    at = next === -1 ? buf.length : next;
  }
  if (damageStart !== -1) damaged.push({ start: damageStart, end: buf.length });
  return damaged;
}
