// A writer of protobuf wire bytes: the primitives the hand-written OTLP encoders write with, the
// inverse of wire.ts's Reader. A message's length goes in front of it once the message is written
// (begin/end), so nothing is measured twice and nothing is allocated per field.
import { Output, utf8Write } from '../output.js';
import { WIRE_LEN } from '../wire.js';

const TWO_32 = 4294967296;

/** Strings this short take at most 126 UTF-8 bytes (3 per UTF-16 unit): their length is one byte, known to be one before writing. */
const SHORT_STRING = 42;

/** The bytes a varint of `n` (0 ≤ n < 2^53) takes. */
export function varintSize(n: number): number {
  let size = 1;
  while (n >= 128) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

/** The bytes a length-delimited field of a one-byte tag takes with `bytes` bytes inside. */
export function fieldSize(bytes: number): number {
  return 1 + varintSize(bytes) + bytes;
}

/** Writes a varint of `n` (0 ≤ n < 2^53) at `at`, where there is room for it; says where it ends. */
export function putVarint(buf: Uint8Array, at: number, n: number): number {
  while (n > 0x7fffffff) {
    buf[at++] = (n % 128) | 0x80;
    n = Math.floor(n / 128);
  }
  while (n > 0x7f) {
    buf[at++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  buf[at++] = n;
  return at;
}

/** Hex digit → its value, for ids; the rows hold ids as lower-case hex (or '', never written). */
const NIBBLES = new Uint8Array(128);
for (let i = 0; i < 10; i++) NIBBLES[48 + i] = i;
for (let i = 0; i < 6; i++) NIBBLES[97 + i] = NIBBLES[65 + i] = 10 + i;

export class Writer extends Output {
  tag(field: number, wire: number): void {
    this.varint(field * 8 + wire);
  }

  /** An unsigned varint from a number: exact up to 2^53, which every length, count and uint32 here is. */
  varint(n: number): void {
    this.ensure(10);
    this.pos = putVarint(this.buf, this.pos, n);
  }

  /** A varint of 64 bits given as two unsigned 32-bit halves. */
  private varint64(low: number, high: number): void {
    this.ensure(10);
    const { buf } = this;
    let pos = this.pos;
    while (high > 0 || low > 0x7f) {
      buf[pos++] = (low & 0x7f) | 0x80;
      low = ((low >>> 7) | (high << 25)) >>> 0;
      high >>>= 7;
    }
    buf[pos++] = low;
    this.pos = pos;
  }

  /** An int32 or enum: a negative one takes ten bytes, sign-extended to 64 bits as protobuf requires. */
  int32(n: number): void {
    if (n >= 0) this.varint(n);
    else this.varint64(n >>> 0, 0xffffffff);
  }

  /** An int64 varint (AnyValue.int_value): two's complement, so negatives take ten bytes. */
  int64(n: bigint): void {
    if (n >= 0n && n <= 0x7fffffffn) {
      this.varint(Number(n));
      return;
    }
    const bits = BigInt.asUintN(64, n);
    this.varint64(Number(bits & 0xffffffffn), Number(bits >> 32n));
  }

  sint32(n: number): void {
    this.varint(((n << 1) ^ (n >> 31)) >>> 0);
  }

  fixed32(n: number): void {
    this.ensure(4);
    this.view.setUint32(this.pos, n, true);
    this.pos += 4;
  }

  fixed64(n: bigint): void {
    this.ensure(8);
    this.view.setBigUint64(this.pos, n, true);
    this.pos += 8;
  }

  /** fixed64 from a number (counts, kept as numbers below 2^53). */
  fixed64Number(n: number): void {
    this.ensure(8);
    this.view.setUint32(this.pos, n >>> 0, true);
    this.view.setUint32(this.pos + 4, Math.floor(n / TWO_32), true);
    this.pos += 8;
  }

  sfixed64(n: bigint): void {
    this.ensure(8);
    this.view.setBigInt64(this.pos, n, true);
    this.pos += 8;
  }

  double(n: number): void {
    this.ensure(8);
    this.view.setFloat64(this.pos, n, true);
    this.pos += 8;
  }

  /** A length-prefixed UTF-8 string (lone surrogates become U+FFFD, as UTF-8 requires). */
  string(text: string): void {
    const length = text.length;
    if (length <= SHORT_STRING) {
      this.ensure(1 + 3 * length);
      const { buf } = this;
      const start = this.pos;
      let pos = start + 1;
      // ASCII, most keys and values, is copied here: cheaper than the call into C++ for a short string.
      let i = 0;
      for (; i < length; i++) {
        const code = text.charCodeAt(i);
        if (code >= 0x80) break;
        buf[pos++] = code;
      }
      if (i < length) pos = start + 1 + utf8Write.call(buf, text, start + 1);
      buf[start] = pos - start - 1;
      this.pos = pos;
      return;
    }
    const bytes = Buffer.byteLength(text, 'utf8');
    this.varint(bytes);
    this.ensure(bytes);
    this.pos += utf8Write.call(this.buf, text, this.pos);
  }

  bytes(value: Uint8Array): void {
    this.varint(value.length);
    this.ensure(value.length);
    this.buf.set(value, this.pos);
    this.pos += value.length;
  }

  /** Bytes written as they are: fields encoded before, such as a message repeated in every record. */
  raw(value: Uint8Array): void {
    this.ensure(value.length);
    this.buf.set(value, this.pos);
    this.pos += value.length;
  }

  /** Hex text of an even length (a trace or span id) as length-prefixed bytes. */
  hex(text: string): void {
    const length = text.length >>> 1;
    this.varint(length);
    this.ensure(length);
    const { buf } = this;
    let pos = this.pos;
    for (let i = 0; i < length; i++) {
      buf[pos++] = ((NIBBLES[text.charCodeAt(2 * i) & 0x7f] as number) << 4) | (NIBBLES[text.charCodeAt(2 * i + 1) & 0x7f] as number);
    }
    this.pos = pos;
  }

  /**
   * Writes a length-delimited field's tag and keeps one byte for its length; returns where that
   * byte is, for end(). Most messages (a key-value, a value) are under 128 bytes, so one byte is
   * the common case; a longer message moves its bytes up by the extra length bytes once. Those
   * moves cost 2-3 % of encoding a batch of log records (measured by leaving them out), less than
   * a first pass measuring every message would.
   */
  begin(field: number): number {
    this.tag(field, WIRE_LEN);
    this.ensure(1);
    return this.pos++;
  }

  end(at: number): void {
    const length = this.pos - at - 1;
    if (length < 0x80) {
      this.buf[at] = length;
      return;
    }
    const extra = varintSize(length) - 1;
    this.ensure(extra);
    this.buf.copyWithin(at + 1 + extra, at + 1, this.pos);
    this.pos += extra;
    const end = this.pos;
    this.pos = at;
    this.varint(length);
    this.pos = end;
  }
}
