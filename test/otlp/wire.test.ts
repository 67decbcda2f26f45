// The wire reader's attribute-key cache: the same bytes give back the same text, and no other bytes do.
import { describe, expect, it } from 'vitest';
import protobuf from 'protobufjs';
import { Reader, WireError } from '../../src/otlp/wire.js';

/** Reads every key of `keys`, written one after another as length-delimited fields, with Reader.key(). */
function readKeys(keys: string[]): string[] {
  const w = protobuf.Writer.create();
  for (const key of keys) w.string(key);
  const buf = Buffer.from(w.finish());
  const r = new Reader(buf, 0, buf.length);
  const out: string[] = [];
  while (!r.done) out.push(r.key());
  return out;
}

describe('Reader.key', () => {
  it('gives each key its own text when thousands of same-length keys share the cache slots', () => {
    // 5,000 five-character keys over 1,024 slots: many share a slot, so a cached key is often
    // found beside bytes of the same length that are not its own.
    const keys = Array.from({ length: 5000 }, (_, i) => `k${String(i).padStart(4, '0')}`);
    const shuffled = keys.map((key, i) => keys[(i * 7919) % keys.length] as string);
    expect(readKeys([...keys, ...shuffled, ...keys])).toEqual([...keys, ...shuffled, ...keys]);
  });

  it('decodes non-ASCII, invalid UTF-8, empty and long keys as the string reader does', () => {
    const long = 'x'.repeat(65);
    const keys = ['é', 'ключ', '', long, 'a'.repeat(64), '\u0000', 'http.request.method', 'é'];
    expect(readKeys(keys)).toEqual(keys);
    // 0xff is not UTF-8: like any string field, it becomes U+FFFD, cached or not.
    const buf = Buffer.from([1, 0xff, 1, 0xff, 1, 0x41]);
    const r = new Reader(buf, 0, buf.length);
    expect([r.key(), r.key(), r.key()]).toEqual(['\ufffd', '\ufffd', 'A']);
  });

  it('reads a key that ends exactly at its bytes, leaving the reader after it', () => {
    const buf = Buffer.from([3, 0x61, 0x62, 0x63, 0x08]);
    const r = new Reader(buf, 0, buf.length);
    expect(r.key()).toBe('abc');
    expect(r.pos).toBe(4);
  });

  it('never reads past its buffer, even when told its message ends beyond it', () => {
    const buf = Buffer.from([5, 0x61, 0x62]);
    for (const read of [(r: Reader) => r.key(), (r: Reader) => r.string(), (r: Reader) => r.hex()]) {
      expect(() => read(new Reader(buf, 0, 10))).toThrow(WireError);
    }
  });
});
