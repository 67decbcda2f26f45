// Property tests of the decoders, each an invariant a broken decoder would fail: for any valid
// export, JSON and its protobuf twin give identical rows, one per record generated; for any bytes
// at all, decoding returns the same answer every time and never more records than the bytes could
// hold; a body cut short keeps the records before the cut and counts what was cut off as one.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SIGNALS, type Signal } from '../../src/model/signal.js';
import { decodeOtlp } from '../../src/otlp/decode.js';
import { exports } from '../helpers/arbitraries.js';
import { canonicalRows, otlpJsonToProtobuf } from '../helpers/otlp.js';

const SEED = 20261122;

/** The one array a generated container holds (its resources, scopes or records, under either spelling). */
const inner = (container: object): object[] => Object.values(container).find((value): value is object[] => Array.isArray(value)) ?? [];

/** The records a generated export holds: log records, spans, or data points (each becomes one row). */
function recordsIn(signal: Signal, json: object): number {
  let count = 0;
  for (const resource of inner(json)) {
    for (const scope of inner(resource)) {
      for (const record of inner(scope)) {
        if (signal !== 'metrics') count++;
        else for (const data of Object.values(record)) if (typeof data === 'object' && data !== null && 'dataPoints' in data) count += (data.dataPoints as unknown[]).length;
      }
    }
  }
  return count;
}

/** The smallest record takes two bytes in either encoding (`{}`, or a field tag and a zero length). */
const MIN_RECORD_BYTES = 2;

describe.each(SIGNALS)('%s decoders', (signal) => {
  it('give one row per record generated, and the same rows from JSON and from its protobuf twin', () => {
    fc.assert(
      fc.property(exports[signal], (json) => {
        const fromJson = decodeOtlp(signal, 'json', Buffer.from(JSON.stringify(json)));
        const fromProtobuf = decodeOtlp(signal, 'protobuf', otlpJsonToProtobuf(signal, json));
        expect(fromJson.unreadable).toBeUndefined();
        expect(fromProtobuf.unreadable).toBeUndefined();
        expect([fromJson.rows.length, fromJson.skipped]).toEqual([recordsIn(signal, json), 0]);
        expect(fromProtobuf.skipped).toBe(fromJson.skipped);
        expect(canonicalRows(fromProtobuf.rows)).toBe(canonicalRows(fromJson.rows));
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('return, whatever the bytes, the same answer every time and no more records than the bytes could hold', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), fc.constantFrom('json' as const, 'protobuf' as const), (bytes, encoding) => {
        const decoded = decodeOtlp(signal, encoding, Buffer.from(bytes));
        expect(Number.isInteger(decoded.skipped) && decoded.skipped >= 0).toBe(true);
        expect(decoded.rows.length * MIN_RECORD_BYTES).toBeLessThanOrEqual(bytes.length);
        // A body too broken to read counts as one record at least.
        if (decoded.unreadable !== undefined) expect(decoded.skipped).toBeGreaterThanOrEqual(1);
        const again = decodeOtlp(signal, encoding, Buffer.from(bytes));
        expect([canonicalRows(again.rows), again.skipped, again.unreadable]).toEqual([canonicalRows(decoded.rows), decoded.skipped, decoded.unreadable]);
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });

  it('keep, from a protobuf body cut anywhere, the records before the cut, and count what was cut off as one record at most', () => {
    fc.assert(
      fc.property(exports[signal], fc.nat(), (json, at) => {
        const whole = otlpJsonToProtobuf(signal, json);
        const full = decodeOtlp(signal, 'protobuf', whole);
        const cut = decodeOtlp(signal, 'protobuf', whole.subarray(0, whole.length === 0 ? 0 : at % whole.length));
        // A cut between two resources leaves a valid, shorter export: fewer rows, nothing skipped.
        expect(cut.rows.length).toBeLessThanOrEqual(full.rows.length);
        expect(canonicalRows(cut.rows)).toBe(canonicalRows(full.rows.slice(0, cut.rows.length)));
        expect(cut.skipped).toBeLessThanOrEqual(1);
      }),
      { seed: SEED, numRuns: 500 },
    );
  });

  it('return, on a valid export with bytes flipped, cut or inserted, no more records than the bytes could hold', () => {
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
        expect(decoded.rows.length * MIN_RECORD_BYTES).toBeLessThanOrEqual(bytes.length);
        if (decoded.unreadable !== undefined) expect(decoded.skipped).toBeGreaterThanOrEqual(1);
      }),
      { seed: SEED, numRuns: 500 },
    );
  });
});
