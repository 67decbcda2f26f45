// The growing byte buffer both OTLP writers (protobuf and JSON) write into. One per encoding is
// kept for every encode: it grows to the largest body seen (up to a limit) and is never zeroed.

type Write = (this: Buffer, text: string, offset: number) => number;

// Buffer's own UTF-8 and Latin-1 writes, which write() calls after dispatching on the encoding name
// and checking its arguments; every offset here is checked already. Not in Node's typings.
const writes = Buffer.prototype as Buffer & Partial<Record<'utf8Write' | 'latin1Write', Write>>;
export const utf8Write: Write = writes.utf8Write ?? function (this: Buffer, text, offset) { return this.write(text, offset, 'utf8'); };
export const latin1Write: Write = writes.latin1Write ?? function (this: Buffer, text, offset) { return this.write(text, offset, 'latin1'); };

export class Output {
  buf: Buffer;
  pos = 0;
  /** Over `buf`: DataView's 64-bit and double writes are compiled inline, Buffer's go through checks and BigInt arithmetic (65 ns a time against 4). */
  protected view: DataView;

  constructor(private readonly initialSize = 64 * 1024) {
    this.buf = Buffer.allocUnsafe(initialSize);
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.length);
  }

  /** Starts a new body from the first byte, keeping the buffer. */
  reset(): void {
    this.pos = 0;
  }

  /** The bytes written, in a buffer of their own (this one is reused). Gives back a buffer grown past `keep` bytes. */
  finish(keep = 4 * 1024 * 1024): Buffer {
    const out = Buffer.allocUnsafe(this.pos);
    this.buf.copy(out, 0, 0, this.pos);
    this.rewind(keep);
    return out;
  }

  /** Starts again from the first byte, for a writer whose bytes were used in place; gives back a buffer grown past `keep` bytes. */
  rewind(keep = 4 * 1024 * 1024): void {
    if (this.buf.length > keep) this.use(Buffer.allocUnsafe(this.initialSize));
    this.pos = 0;
  }

  protected ensure(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + bytes) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.buf.copy(grown, 0, 0, this.pos);
    this.use(grown);
  }

  private use(buf: Buffer): void {
    this.buf = buf;
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.length);
  }
}
