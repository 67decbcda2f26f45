// The protobuf writer against protobufjs's: any sequence of fields, nested messages of any length
// included, gives the same bytes. A tiny starting buffer makes every sequence grow it.
import fc from 'fast-check';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { Writer } from '../../src/otlp/protobuf/writer.js';

type Op =
  | { op: 'varint'; n: number }
  | { op: 'int32'; n: number }
  | { op: 'int64'; n: bigint }
  | { op: 'sint32'; n: number }
  | { op: 'fixed32'; n: number }
  | { op: 'fixed64'; n: bigint }
  | { op: 'fixed64Number'; n: number }
  | { op: 'sfixed64'; n: bigint }
  | { op: 'double'; n: number }
  | { op: 'string'; text: string }
  | { op: 'bytes'; bytes: Uint8Array }
  | { op: 'hex'; hex: string }
  | { op: 'message'; field: number; ops: Op[] };

const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };
const int32 = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });

const ops: fc.Arbitrary<Op[]> = fc.letrec<{ ops: Op[] }>((tie) => ({
  ops: fc.array(
    fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.oneof(fc.maxSafeNat(), fc.constantFrom(0, 127, 128, 16383, 16384, 2 ** 32 - 1, 2 ** 32, Number.MAX_SAFE_INTEGER)).map((n) => ({ op: 'varint' as const, n })),
      fc.oneof(int32, fc.constantFrom(-1, -(2 ** 31))).map((n) => ({ op: 'int32' as const, n })),
      fc.oneof(fc.bigInt(INT64), fc.constantFrom(INT64.min, INT64.max, -1n, 0x7fffffffn, 0x80000000n)).map((n) => ({ op: 'int64' as const, n })),
      int32.map((n) => ({ op: 'sint32' as const, n })),
      fc.integer({ min: 0, max: 2 ** 32 - 1 }).map((n) => ({ op: 'fixed32' as const, n })),
      fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map((n) => ({ op: 'fixed64' as const, n })),
      fc.maxSafeNat().map((n) => ({ op: 'fixed64Number' as const, n })),
      fc.bigInt(INT64).map((n) => ({ op: 'sfixed64' as const, n })),
      fc.double().map((n) => ({ op: 'double' as const, n })),
      fc.oneof(fc.string({ unit: 'binary', maxLength: 50 }), fc.string({ maxLength: 300 })).map((text) => ({ op: 'string' as const, text })),
      fc.uint8Array({ maxLength: 200 }).map((bytes) => ({ op: 'bytes' as const, bytes })),
      fc.uint8Array({ maxLength: 16 }).map((b) => ({ op: 'hex' as const, hex: Buffer.from(b).toString('hex') })),
      fc.record({ field: fc.integer({ min: 1, max: 2 ** 29 - 1 }), ops: tie('ops') }).map(({ field, ops: inner }) => ({ op: 'message' as const, field, ops: inner })),
    ),
    { maxLength: 8 },
  ),
})).ops;

function ours(w: Writer, list: Op[]): void {
  for (const o of list) {
    if (o.op === 'string') w.string(o.text);
    else if (o.op === 'bytes') w.bytes(o.bytes);
    else if (o.op === 'hex') w.hex(o.hex);
    else if (o.op === 'message') {
      const at = w.begin(o.field);
      ours(w, o.ops);
      w.end(at);
    } else if (o.op === 'int64' || o.op === 'fixed64' || o.op === 'sfixed64') w[o.op](o.n);
    else w[o.op](o.n);
  }
}

function reference(w: protobuf.Writer, list: Op[]): void {
  for (const o of list) {
    switch (o.op) {
      case 'varint':
        w.uint64(String(o.n));
        break;
      case 'fixed64Number':
        w.fixed64(String(o.n));
        break;
      case 'int64':
      case 'fixed64':
      case 'sfixed64':
        w[o.op](String(o.n));
        break;
      case 'int32':
      case 'sint32':
      case 'fixed32':
      case 'double':
        w[o.op](o.n);
        break;
      case 'string':
        w.string(o.text);
        break;
      case 'bytes':
        w.bytes(o.bytes);
        break;
      case 'hex':
        w.bytes(Buffer.from(o.hex, 'hex'));
        break;
      case 'message':
        w.uint32(o.field * 8 + 2).fork();
        reference(w, o.ops);
        w.ldelim();
        break;
    }
  }
}

describe('Writer', () => {
  it('writes any sequence of fields and nested messages as protobufjs does', () => {
    const w = new Writer(16);
    fc.assert(
      fc.property(ops, (list) => {
        w.reset();
        ours(w, list);
        const expected = protobuf.Writer.create();
        reference(expected, list);
        expect(w.finish().equals(Buffer.from(expected.finish()))).toBe(true);
      }),
      { seed: 20261124, numRuns: 1000 },
    );
  });

  it('writes messages whose lengths take one to four bytes, growing its buffer, and gives back a buffer grown past its limit', () => {
    const lengths = [0, 127, 128, 16383, 16384, 2 ** 21 - 1, 2 ** 21];
    /** Bytes that, with their own length in front, fill a message of exactly `length` bytes. */
    const filling = (length: number): Uint8Array | undefined => {
      if (length === 0) return undefined;
      const prefix = [1, 2, 3, 4].find((p) => (length - p < 128 ? 1 : length - p < 16384 ? 2 : length - p < 2 ** 21 ? 3 : 4) === p) as number;
      return new Uint8Array(length - prefix).fill(7);
    };
    const w = new Writer(16);
    const expected = protobuf.Writer.create();
    for (const length of lengths) {
      const bytes = filling(length);
      const at = w.begin(1);
      if (bytes !== undefined) w.bytes(bytes);
      w.end(at);
      expected.uint32(10).fork();
      if (bytes !== undefined) expected.bytes(bytes);
      expected.ldelim();
    }
    const body = Buffer.from(expected.finish());
    // Each message: a tag, its length, its bytes.
    expect(body.length).toBe(lengths.reduce((sum, n) => sum + 1 + (n < 128 ? 1 : n < 16384 ? 2 : n < 2 ** 21 ? 3 : 4) + n, 0));
    expect(w.pos).toBe(body.length);
    expect(w.finish(1024 * 1024).equals(body)).toBe(true);
    expect([w.buf.length, w.pos]).toEqual([16, 0]);
  });
});
