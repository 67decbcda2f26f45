// Property tests of the decoders: for any valid export, JSON and its protobuf twin give identical
// rows; for any bytes at all, decoding returns instead of throwing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SIGNALS } from '../../src/model/signal.js';
import { decodeOtlp } from '../../src/otlp/decode.js';
import { exports } from '../helpers/arbitraries.js';
import { canonicalRows, otlpJsonToProtobuf } from '../helpers/otlp.js';

const SEED = 20261122;

describe.each(SIGNALS)('%s decoders', (signal) => {
  it('give the same rows and skip counts from JSON and from its protobuf twin', () => {
    fc.assert(
      fc.property(exports[signal], (json) => {
        const fromJson = decodeOtlp(signal, 'json', Buffer.from(JSON.stringify(json)));
        const fromProtobuf = decodeOtlp(signal, 'protobuf', otlpJsonToProtobuf(signal, json));
        expect(fromJson.unreadable).toBeUndefined();
        expect(fromProtobuf.skipped).toBe(fromJson.skipped);
        expect(canonicalRows(fromProtobuf.rows)).toBe(canonicalRows(fromJson.rows));
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('never throw, whatever the bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), fc.constantFrom('json' as const, 'protobuf' as const), (bytes, encoding) => {
        const decoded = decodeOtlp(signal, encoding, Buffer.from(bytes));
        expect(decoded.skipped).toBeGreaterThanOrEqual(0);
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });

  it('never throw on a valid export with bytes flipped, cut or inserted', () => {
    fc.assert(
      fc.property(exports[signal], fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom('flip', 'cut', 'insert')), { minLength: 1, maxLength: 4 }), (json, edits) => {
        let bytes = otlpJsonToProtobuf(signal, json);
        for (const [at, value, edit] of edits) {
          if (bytes.length === 0) break;
          const i = at % bytes.length;
          if (edit === 'flip') bytes[i] = value;
          else if (edit === 'cut') bytes = bytes.subarray(0, i);
          else bytes = Buffer.concat([bytes.subarray(0, i), Buffer.from([value]), bytes.subarray(i)]);
        }
        const decoded = decodeOtlp(signal, 'protobuf', Buffer.from(bytes));
        expect(decoded.rows.length + decoded.skipped).toBeGreaterThanOrEqual(0);
      }),
      { seed: SEED, numRuns: 500 },
    );
  });
});
