// A reader over protobuf wire bytes: the primitives the hand-written OTLP decoders walk with.
// It never allocates per field except where a value must be (strings, bigints, byte copies).

export class WireError extends Error {
  override readonly name = 'WireError';
}

export const WIRE_VARINT = 0;
export const WIRE_I64 = 1;
export const WIRE_LEN = 2;
export const WIRE_I32 = 5;

const TWO_32 = 4294967296;

type Slice = (this: Buffer, start: number, end: number) => string;

// Buffer's own per-encoding slices, which toString() calls after dispatching on the encoding
// name and checking its arguments: that wrapper was a sixth of decoding time, and every range
// here is checked already. They are not in Node's typings, hence the fallbacks.
const slices = Buffer.prototype as Buffer & Partial<Record<'utf8Slice' | 'latin1Slice' | 'hexSlice', Slice>>;
const utf8Slice: Slice = slices.utf8Slice ?? function (this: Buffer, start, end) { return this.toString('utf8', start, end); };
const latin1Slice: Slice = slices.latin1Slice ?? function (this: Buffer, start, end) { return this.toString('latin1', start, end); };
const hexSlice: Slice = slices.hexSlice ?? function (this: Buffer, start, end) { return this.toString('hex', start, end); };

// Attribute keys repeat in every record ("http.request.method", "url.path", ...). Handing back the
// string made for the same bytes last time skips a string allocation and, because V8 keeps
// property names internalized, a string-table lookup when the key goes into an attribute map.
// A slot holds the last short ASCII key whose bytes hashed to it; bounded whatever clients send.
const KEY_SLOTS = 1024;
const KEY_MAX_BYTES = 64;
const cachedKeys: string[] = new Array<string>(KEY_SLOTS).fill('');

export class Reader {
  pos: number;

  /**
   * With `watch` on: a string held bytes that are not UTF-8 and was read with U+FFFD in their
   * place, so that the rows no longer say exactly what the bytes say. Off, strings are not looked
   * at (it costs 5 % of decoding): only a body kept as its rows' source needs to know.
   */
  watch = false;
  replaced = false;

  readonly end: number;

  constructor(
    readonly buf: Buffer,
    start: number,
    end: number,
  ) {
    this.pos = start;
    // Every read is checked against `end` only, and the slices below trust it: never past the buffer.
    this.end = Math.min(end, buf.length);
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  /**
   * The loop condition of every message decoder: true while fields of the message ending at
   * `end` remain. A field that ran past the end (its length borrowed the next message's bytes)
   * makes the message malformed, so that it is skipped rather than stored half-wrong.
   */
  more(end: number): boolean {
    if (this.pos < end) return true;
    if (this.pos > end) throw new WireError('a field runs past the end of its message');
    return false;
  }

  /** A varint as a JS number: exact up to 2^53, which every length, tag, enum and count here is. */
  varint(): number {
    const { buf, end } = this;
    let pos = this.pos;
    let result = 0;
    let multiplier = 1;
    for (let i = 0; i < 10; i++) {
      if (pos >= end) throw new WireError('truncated varint');
      const byte = buf[pos++] as number;
      result += (byte & 0x7f) * multiplier;
      if (byte < 0x80) {
        this.pos = pos;
        return result;
      }
      multiplier *= 128;
    }
    throw new WireError('varint longer than 10 bytes');
  }

  /** A varint as a signed 64-bit integer (int64: negatives take ten bytes, two's complement). */
  varint64(): bigint {
    const start = this.pos;
    const small = this.varint();
    if (this.pos - start <= 7) return BigInt(small);
    let value = 0n;
    let shift = 0n;
    for (let pos = start; pos < this.pos; pos++) {
      value |= BigInt((this.buf[pos] as number) & 0x7f) << shift;
      shift += 7n;
    }
    return BigInt.asIntN(64, value);
  }

  /** An int32 or enum: negatives arrive as ten-byte varints. */
  int32(): number {
    const start = this.pos;
    const n = this.varint();
    if (n < 2147483648) return n;
    this.pos = start;
    return Number(BigInt.asIntN(32, this.varint64()));
  }

  sint32(): number {
    const n = this.varint() >>> 0;
    return (n >>> 1) ^ -(n & 1);
  }

  bool(): boolean {
    return this.varint() !== 0;
  }

  private need(bytes: number): number {
    const at = this.pos;
    if (at + bytes > this.end) throw new WireError('truncated fixed-width field');
    this.pos = at + bytes;
    return at;
  }

  fixed32(): number {
    return this.buf.readUInt32LE(this.need(4));
  }

  /** fixed64 as a number: for counts, which never reach 2^53 in practice. */
  fixed64Number(): number {
    const at = this.need(8);
    return this.buf.readUInt32LE(at) + this.buf.readUInt32LE(at + 4) * TWO_32;
  }

  fixed64(): bigint {
    return this.buf.readBigUInt64LE(this.need(8));
  }

  sfixed64(): bigint {
    return this.buf.readBigInt64LE(this.need(8));
  }

  double(): number {
    return this.buf.readDoubleLE(this.need(8));
  }

  /** Reads a length prefix and returns the end of the delimited bytes, leaving pos at their start. */
  delimited(): number {
    const length = this.varint();
    const end = this.pos + length;
    if (end > this.end) throw new WireError('length-delimited field runs past its message');
    return end;
  }

  string(): string {
    const end = this.delimited();
    const text = utf8Slice.call(this.buf, this.pos, end);
    this.pos = end;
    this.noteReplaced(text);
    return text;
  }

  /**
   * Also true for a U+FFFD that was sent as such, which only costs the rows' source (see
   * source.ts). ASCII and Latin-1 text, the usual case, is a one-byte string in V8, which cannot
   * hold U+FFFD: V8 answers for it without looking at the characters.
   */
  private noteReplaced(text: string): void {
    if (this.watch && text.indexOf('\uFFFD') !== -1) this.replaced = true;
  }

  /** Length-delimited bytes as lower-case hex (trace and span ids). */
  hex(): string {
    const end = this.delimited();
    const text = hexSlice.call(this.buf, this.pos, end);
    this.pos = end;
    return text;
  }

  /** A string that is likely to repeat (an attribute key): the same bytes give the same string. */
  key(): string {
    const end = this.delimited();
    const { buf } = this;
    const start = this.pos;
    const length = end - start;
    this.pos = end;
    if (length > KEY_MAX_BYTES) {
      const long = utf8Slice.call(buf, start, end);
      this.noteReplaced(long);
      return long;
    }
    let hash = length;
    let high = 0;
    for (let i = start; i < end; i++) {
      const byte = buf[i] as number;
      high |= byte;
      hash = Math.imul(hash ^ byte, 0x01000193);
    }
    if (high >= 0x80) {
      const text = utf8Slice.call(buf, start, end);
      this.noteReplaced(text);
      return text;
    }
    const slot = (hash >>> 0) & (KEY_SLOTS - 1);
    const cached = cachedKeys[slot] as string;
    if (cached.length === length) {
      let i = 0;
      while (i < length && cached.charCodeAt(i) === buf[start + i]) i++;
      if (i === length) return cached;
    }
    const text = latin1Slice.call(buf, start, end);
    cachedKeys[slot] = text;
    return text;
  }

  /** A copy, so that a stored value never pins the whole request body in memory. */
  bytes(): Uint8Array {
    const end = this.delimited();
    const copy = new Uint8Array(end - this.pos);
    copy.set(this.buf.subarray(this.pos, end));
    this.pos = end;
    return copy;
  }

  skip(wireType: number): void {
    switch (wireType) {
      case WIRE_VARINT:
        this.varint();
        return;
      case WIRE_I64:
        this.need(8);
        return;
      case WIRE_LEN:
        this.pos = this.delimited();
        return;
      case WIRE_I32:
        this.need(4);
        return;
      default:
        throw new WireError(`unsupported wire type ${wireType}`);
    }
  }
}
