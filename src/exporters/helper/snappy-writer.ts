// A writer of Snappy's block format for bodies whose repeats the encoder knows: it writes the
// bytes that are new as literals and names the ones written before in the same block as copies,
// without the hashing and matching a general compressor spends on every byte. A remote-write
// series repeats the label pairs of the series before it, a histogram's buckets all but one pair;
// writing the bench's remote-write bodies this way costs about 0.25 µs a point, against 2.1 µs for
// a protobuf writer and then snappyjs, for blocks about twice as large as snappyjs makes (94
// against 43 bytes a point, a fifth of the uncompressed body). The output is a block any Snappy
// decoder reads: a varint of the uncompressed length, then literal and copy elements
// (github.com/google/snappy, format_description.txt).
import { Output } from '../../otlp/output.js';
import { putVarint, varintSize } from '../../otlp/protobuf/writer.js';

/**
 * Room kept for the block's length, a varint known only at the end (a block is under 4 GiB), and
 * for a frame's marker and length before it (block(marker)).
 */
const HEADER = 11;
/** A literal's tag and length take at most three bytes: up to 65536 bytes. */
const LITERAL_HEAD = 3;
const MAX_LITERAL = 65536;
/** Literals of up to this many bytes have their length in the tag; up to 256, in one byte after it. */
const TAG_LITERAL = 60;
const BYTE_LITERAL = 256;

/** The bytes of the shortest head of a literal of `size` bytes. */
const literalHead = (size: number): number => (size <= TAG_LITERAL ? 1 : size <= BYTE_LITERAL ? 2 : LITERAL_HEAD);

/** Bytes an encoder writes again and again, and where they were last written: a block's number, and where in its uncompressed bytes. */
export interface Written {
  bytes: Uint8Array;
  block: number;
  at: number;
}

export class SnappyWriter extends Output {
  /** Bytes the block holds once decompressed: where the next byte lands in them. */
  length = 0;
  /** Where the open literal's tag is, -1 when none is open. */
  private literalAt = -1;
  /** The room kept for the open literal's head. */
  private literalRoom = LITERAL_HEAD;
  /** The copy being gathered (a run of copies from one distance is written as one): its source and length, -1 when none. */
  private copyFrom = -1;
  private copyLength = 0;
  /** Where the gathered copy lands; the copy is open only while nothing else is written, so it ends at `length`. */
  private copyTo = 0;
  /** Positions in `buf` held for lengths written once known (hold(), fill()), innermost last: they move with their literal's bytes. */
  private readonly holds: number[] = [];

  /** Starts a new block, keeping the buffer. */
  start(): void {
    this.pos = HEADER;
    this.length = 0;
    this.literalAt = -1;
    this.copyFrom = -1;
    this.holds.length = 0;
  }

  /**
   * Holds `at`, a position inside the open literal (from room(), past any held before) where room
   * was kept for a length not known yet (a message's, ahead of its fields): fill() writes it
   * there, wherever the literal's bytes have moved by then. Holds nest: fill() fills the last one
   * held.
   */
  hold(at: number): void {
    this.holds.push(at);
  }

  /** Writes `n` as a varint of exactly `width` bytes (padded, as protobuf's readers take it) where the last hold is, and lets it go. */
  fill(n: number, width: number): void {
    const at = this.holds.pop() as number;
    const { buf } = this;
    for (let i = 0; i < width - 1; i++) {
      buf[at + i] = (n & 0x7f) | 0x80;
      n = Math.floor(n / 128);
    }
    buf[at + width - 1] = n;
  }

  /**
   * The block written, in a buffer of its own; with `marker`, as a frame: that byte, the block's
   * length as a varint, then the block (written in place, not copied once more behind a head).
   */
  block(marker?: number): Buffer {
    this.closeLiteral();
    this.closeCopy();
    let from = varintBefore(this.buf, HEADER, this.length);
    if (marker !== undefined) {
      from = varintBefore(this.buf, from, this.pos - from);
      this.buf[--from] = marker;
    }
    const out = Buffer.allocUnsafe(this.pos - from);
    this.buf.copy(out, 0, from, this.pos);
    this.rewind();
    this.start();
    return out;
  }

  /** The `length` bytes that were written from `from` (a value of `length` earlier in this block), written again. */
  copy(from: number, length: number): void {
    if (length === 0) return;
    this.closeLiteral();
    if (this.copyFrom !== -1 && this.copyFrom + this.copyLength === from) {
      this.copyLength += length;
    } else {
      this.closeCopy();
      this.copyFrom = from;
      this.copyLength = length;
      this.copyTo = this.length;
    }
    this.length += length;
  }

  /**
   * Writes `known` as a copy of where it was last written in block `block` (a number its caller
   * gives each block), else as a literal; remembers where.
   */
  again(known: Written, block: number): void {
    const at = this.length;
    if (known.block === block) this.copy(known.at, known.bytes.length);
    else this.bytes(known.bytes);
    known.block = block;
    known.at = at;
  }

  byte(b: number): void {
    this.literal(1);
    this.buf[this.pos++] = b;
  }

  varint(n: number): void {
    this.literal(10);
    this.grew(this.putVarint(n), 10);
  }

  /** A one-byte protobuf tag and a length after it: a length-delimited field's head, as one literal. */
  head(tag: number, length: number): void {
    this.literal(11);
    this.buf[this.pos++] = tag;
    this.grew(1 + this.putVarint(length), 11);
  }

  /** Writes a varint where the open literal has room for it; says how many bytes it took. */
  private putVarint(n: number): number {
    const from = this.pos;
    this.pos = putVarint(this.buf, from, n);
    return this.pos - from;
  }

  /** An int64 varint of a negative number: two's complement over ten bytes, as protobuf writes it. */
  negativeVarint(n: bigint): void {
    let bits = BigInt.asUintN(64, n);
    this.literal(10);
    for (let i = 0; i < 9; i++) {
      this.buf[this.pos++] = Number(bits & 0x7fn) | 0x80;
      bits >>= 7n;
    }
    this.buf[this.pos++] = Number(bits);
  }

  double(x: number): void {
    this.literal(8);
    this.view.setFloat64(this.pos, x, true);
    this.pos += 8;
  }

  fixed64(bits: bigint): void {
    this.literal(8);
    this.view.setBigUint64(this.pos, bits, true);
    this.pos += 8;
  }

  bytes(value: Uint8Array): void {
    for (let at = 0; at < value.length; at += MAX_LITERAL) {
      const part = Math.min(MAX_LITERAL, value.length - at);
      this.literal(part);
      this.buf.set(part === value.length ? value : value.subarray(at, at + part), this.pos);
      this.pos += part;
    }
  }

  /**
   * Room for `bytes` literal bytes (at most 64 KiB, what one literal holds; bytes() takes more),
   * counted: the caller writes them into `buf` from the position returned and moves `pos` past them.
   */
  room(bytes: number): number {
    if (bytes > MAX_LITERAL) throw new RangeError(`snappy: room for ${bytes} bytes asked, more than a literal holds`);
    // No literal opened for nothing: one that closed empty would be an element no decoder reads.
    if (bytes > 0) this.literal(bytes);
    return this.pos;
  }

  /** Opens a literal (or keeps the open one) with room for `bytes` more, and counts them. */
  private literal(bytes: number): void {
    if (this.copyFrom !== -1) this.closeCopy();
    if (this.literalAt !== -1 && this.pos + bytes - this.literalAt - this.literalRoom > MAX_LITERAL) this.closeLiteral();
    this.ensure(LITERAL_HEAD + bytes);
    if (this.literalAt === -1) {
      // Room for the head the literal needs if it ends as long as its first part, as most do: it
      // is moved up only when it grows past that.
      this.literalAt = this.pos;
      this.literalRoom = literalHead(bytes);
      this.pos += this.literalRoom;
    }
    this.length += bytes;
  }

  /** A varint took fewer bytes than literal() counted. */
  private grew(wrote: number, counted: number): void {
    this.length -= counted - wrote;
  }

  private closeLiteral(): void {
    const at = this.literalAt;
    if (at === -1) return;
    this.literalAt = -1;
    const room = this.literalRoom;
    const size = this.pos - at - room;
    // A literal only grows, and only varint() and head() count more than they write (under 60
    // bytes, so in the least room): its head never needs less room than it has.
    const head = literalHead(size);
    if (head > room) {
      // It grew past what its head had room for: its bytes move up, and the positions held in them.
      this.ensure(head - room);
      this.buf.copyWithin(at + head, at + room, this.pos);
      this.pos += head - room;
      const { holds } = this;
      for (let i = holds.length - 1; i >= 0 && (holds[i] as number) >= at; i--) holds[i] = (holds[i] as number) + head - room;
    }
    const { buf } = this;
    if (head === 1) buf[at] = (size - 1) << 2;
    else if (head === 2) {
      buf[at] = TAG_LITERAL << 2;
      buf[at + 1] = size - 1;
    } else {
      buf[at] = (TAG_LITERAL + 1) << 2;
      buf[at + 1] = (size - 1) & 0xff;
      buf[at + 2] = (size - 1) >>> 8;
    }
  }

  private closeCopy(): void {
    if (this.copyFrom === -1) return;
    const offset = this.copyTo - this.copyFrom;
    let left = this.copyLength;
    this.copyFrom = -1;
    this.ensure(5 * Math.ceil(left / 64));
    const { buf } = this;
    let pos = this.pos;
    while (left > 0) {
      const n = left > 64 ? 64 : left;
      left -= n;
      if (n >= 4 && n <= 11 && offset < 2048) {
        buf[pos++] = 1 | ((n - 4) << 2) | ((offset >>> 8) << 5);
        buf[pos++] = offset & 0xff;
      } else if (offset < 65536) {
        buf[pos++] = 2 | ((n - 1) << 2);
        buf[pos++] = offset & 0xff;
        buf[pos++] = offset >>> 8;
      } else {
        buf[pos++] = 3 | ((n - 1) << 2);
        buf[pos++] = offset & 0xff;
        buf[pos++] = (offset >>> 8) & 0xff;
        buf[pos++] = (offset >>> 16) & 0xff;
        buf[pos++] = offset >>> 24;
      }
    }
    this.pos = pos;
  }
}

/** Writes a varint of `n` to end just before `end`; says where it starts. */
function varintBefore(buf: Buffer, end: number, n: number): number {
  const from = end - varintSize(n);
  putVarint(buf, from, n);
  return from;
}

/** The uncompressed length a block declares, and where its elements start; throws when the bytes end inside it. */
export function blockLength(block: Uint8Array): { length: number; elements: number } {
  let length = 0;
  for (let at = 0, shift = 0; at < block.length && shift < 35; shift += 7) {
    const b = block[at++] as number;
    length += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) return { length, elements: at };
  }
  throw new Error('snappy: a block that ends inside its length');
}

/**
 * The marker of a frame (block(FRAME)), as the exporters that queue their bodies as Snappy blocks
 * write it. An otelgate before them queued protobuf there, whose first byte is a field's tag,
 * never zero: a payload that starts with anything else is one of those.
 */
export const FRAME = 0x00;

/** The blocks of frames written one after another (block(FRAME)); throws for bytes that are not such frames. */
export function frameBlocks(payload: Uint8Array): Uint8Array[] {
  const blocks: Uint8Array[] = [];
  let at = 0;
  while (at < payload.length) {
    if (payload[at++] !== FRAME) throw new Error('snappy: a queued payload that is not made of frames');
    // A frame's length is a varint as a block's is.
    const { length, elements } = blockLength(payload.subarray(at));
    at += elements;
    if (at + length > payload.length) throw new Error('snappy: a queued payload that ends inside a frame');
    blocks.push(payload.subarray(at, at + length));
    at += length;
  }
  return blocks;
}

/**
 * One block of several, back to back once decompressed. A copy reaches back only by its offset,
 * so a block's elements mean the same after another block's: joining is writing one length in
 * front of their elements.
 */
export function joinBlocks(blocks: readonly Uint8Array[]): Buffer {
  if (blocks.length === 1) return Buffer.from((blocks[0] as Uint8Array).buffer, (blocks[0] as Uint8Array).byteOffset, (blocks[0] as Uint8Array).byteLength);
  let total = 0;
  const parts: Uint8Array[] = [new Uint8Array(0)];
  for (const block of blocks) {
    const { length, elements } = blockLength(block);
    total += length;
    parts.push(block.subarray(elements));
  }
  const head = new Uint8Array(varintSize(total));
  putVarint(head, 0, total);
  parts[0] = head;
  return Buffer.concat(parts);
}
