// The Snappy writer against Snappy decoders: a strict one (Go's rules, which Prometheus and Loki
// decode with) and snappyjs, over random mixes of literals and copies.
import fc from 'fast-check';
import snappyjs from 'snappyjs';
import { describe, expect, it } from 'vitest';
import { joinBlocks, SnappyWriter } from '../../../src/exporters/helper/snappy-writer.js';
import { snappyDecodeStrict } from '../../helpers/snappy-decode.js';

type Step = { kind: 'bytes'; bytes: Uint8Array } | { kind: 'varint'; n: number } | { kind: 'head'; tag: number; n: number } | { kind: 'double'; x: number } | { kind: 'copy'; distance: number; length: number };

/** Sizes at the edges of the format's forms: literal lengths in the tag, in one byte, in two; copies in one byte of offset, two, four. */
const edge = (...sizes: number[]): fc.Arbitrary<number> => fc.constantFrom(...sizes.flatMap((n) => [n - 1, n, n + 1]));
const literalLength = fc.oneof(fc.integer({ min: 0, max: 80 }), edge(60, 256, 65536));
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('bytes' as const), bytes: literalLength.chain((n) => fc.uint8Array({ minLength: n, maxLength: n })) }),
  fc.record({ kind: fc.constant('varint' as const), n: fc.oneof(fc.nat(300), fc.maxSafeNat()) }),
  fc.record({ kind: fc.constant('double' as const), x: fc.double() }),
  fc.record({ kind: fc.constant('head' as const), tag: fc.nat(255), n: fc.oneof(fc.nat(300), fc.integer({ min: 0, max: 2 ** 31 - 1 })) }),
  fc.record({ kind: fc.constant('copy' as const), distance: fc.oneof(fc.integer({ min: 1, max: 100 }), edge(2048, 65536)), length: fc.oneof(fc.integer({ min: 1, max: 12 }), edge(64, 128)) }),
);

function pushVarint(bytes: number[], n: number): void {
  while (n > 0x7f) {
    bytes.push((n % 128) | 0x80);
    n = Math.floor(n / 128);
  }
  bytes.push(n);
}

/** Writes the steps; returns the block and the bytes it must decompress to. */
function written(w: SnappyWriter, steps: readonly Step[]): { block: Buffer; expected: Buffer } {
  const expected: number[] = [];
  const scratch = Buffer.alloc(10);
  for (const s of steps) {
    switch (s.kind) {
      case 'bytes':
        w.bytes(s.bytes);
        expected.push(...s.bytes);
        break;
      case 'varint':
        w.varint(s.n);
        pushVarint(expected, s.n);
        break;
      case 'head':
        w.head(s.tag, s.n);
        expected.push(s.tag);
        pushVarint(expected, s.n);
        break;
      case 'double':
        w.double(s.x);
        scratch.writeDoubleLE(s.x);
        expected.push(...scratch.subarray(0, 8));
        break;
      case 'copy': {
        if (expected.length === 0) break;
        const from = expected.length - Math.min(s.distance, expected.length);
        const length = Math.min(s.length, expected.length - from);
        w.copy(from, length);
        expected.push(...expected.slice(from, from + length));
        break;
      }
    }
    expect(w.length).toBe(expected.length);
  }
  return { block: w.block(), expected: Buffer.from(expected) };
}

describe('SnappyWriter', () => {
  it('writes blocks that Go\'s rules and snappyjs decompress to the bytes written, literals of every length and copies of every distance', () => {
    const w = new SnappyWriter();
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        w.start();
        const { block, expected } = written(w, steps);
        expect(snappyDecodeStrict(block).equals(expected)).toBe(true);
        expect(Buffer.from(snappyjs.uncompress(block)).equals(expected)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('joins blocks into one that decompresses to theirs back to back', () => {
    const w = new SnappyWriter();
    fc.assert(
      fc.property(fc.array(fc.array(step, { maxLength: 12 }), { minLength: 1, maxLength: 5 }), (blocks) => {
        const made = blocks.map((steps) => {
          w.start();
          return written(w, steps);
        });
        const joined = joinBlocks(made.map((m) => m.block));
        expect(snappyDecodeStrict(joined).equals(Buffer.concat(made.map((m) => m.expected)))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('writes a run of copies from one distance as one copy, and a copy near its source in two bytes', () => {
    const w = new SnappyWriter();
    w.start();
    w.bytes(Buffer.from('abcdefgh'));
    w.copy(0, 4);
    w.copy(4, 4);
    const block = w.block();
    // Length 16, one literal of 8 (tag + 8 bytes), one copy of 8 at offset 8 (2 bytes).
    expect([...block]).toEqual([16, 7 << 2, ...Buffer.from('abcdefgh'), 1 | ((8 - 4) << 2), 8]);
  });

  it('gives a literal the shortest form of its length, moving its bytes up when it grew past the room it opened with', () => {
    const w = new SnappyWriter();
    const block = (...parts: Buffer[]): number[] => {
      w.start();
      for (const part of parts) w.bytes(part);
      return [...w.block()];
    };
    const a = (n: number): Buffer => Buffer.alloc(n, 0x61);
    // The length in the tag (up to 60), in a byte after it (up to 256), in two.
    expect(block(a(17))).toEqual([17, 16 << 2, ...a(17)]);
    expect(block(a(60))).toEqual([60, 59 << 2, ...a(60)]);
    expect(block(a(100))).toEqual([100, 60 << 2, 99, ...a(100)]);
    expect(block(a(300))).toEqual([0xac, 0x02, 61 << 2, 299 & 0xff, 1, ...a(300)]);
    // Opened for 1 byte or 200, then grown to 71 or 300.
    expect(block(a(1), a(70))).toEqual([71, 60 << 2, 70, ...a(71)]);
    expect(block(a(200), a(100))).toEqual([0xac, 0x02, 61 << 2, 299 & 0xff, 1, ...a(300)]);
  });

  it('fills the lengths it held where their bytes went, also after their literal moved up', () => {
    const w = new SnappyWriter();
    w.start();
    // Outer length held in a literal opened for 4 bytes, inner one in the same literal; the
    // literal then grows to 81 bytes, so it closes (at the copy) with its bytes one further up.
    let at = w.room(4);
    w.buf[at] = 0x0a;
    w.hold(at + 1);
    w.pos = at + 4;
    at = w.room(4);
    w.buf[at] = 0x12;
    w.hold(at + 1);
    w.buf[at + 3] = 0x2a;
    w.pos = at + 4;
    w.bytes(Buffer.alloc(73, 0x61));
    w.copy(8, 4);
    w.fill(300, 2);
    w.fill(16_384, 3);
    const decoded = snappyDecodeStrict(w.block());
    // 16,384 in three bytes as protobuf writes it; 300 in two; the rest as written.
    expect([...decoded.subarray(0, 8)]).toEqual([0x0a, 0x80, 0x80, 0x01, 0x12, 0xac, 0x02, 0x2a]);
    expect(decoded.length).toBe(85);
    expect(decoded.subarray(8).every((b) => b === 0x61)).toBe(true);
  });

  it('moves only the held positions of the literal whose bytes move, by as much as its head grew', () => {
    const w = new SnappyWriter();
    w.start();
    // A hold of 5 bytes in a first literal, closed by a copy without moving; then one of 3 bytes in
    // a literal opened for 3 bytes that grows to 300, so that its head goes from one byte to three.
    let at = w.room(6);
    w.hold(at);
    w.pos = at + 5;
    w.buf[w.pos++] = 0x61;
    w.copy(5, 1);
    at = w.room(3);
    w.hold(at);
    w.pos = at + 3;
    w.bytes(Buffer.alloc(297, 0x62));
    w.copy(10, 4);
    w.fill(2 ** 21 - 1, 3);
    w.fill(2 ** 34 + 1, 5);
    const decoded = snappyDecodeStrict(w.block());
    expect([...decoded.subarray(0, 10)]).toEqual([0x81, 0x80, 0x80, 0x80, 0x40, 0x61, 0x61, 0xff, 0xff, 0x7f]);
    expect(decoded.subarray(10).every((b) => b === 0x62)).toBe(true);
    expect(decoded.length).toBe(311);
  });

  it('refuses room for more than one literal holds', () => {
    const w = new SnappyWriter();
    w.start();
    expect(w.room(65_536)).toBeGreaterThan(0);
    expect(() => w.room(65_537)).toThrow('more than a literal holds');
  });
});
