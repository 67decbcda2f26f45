// Property tests of the Sentry decoder: the golden envelopes with random bytes changed, cut, put
// in, or spans of them copied elsewhere, and bytes at random, never make it throw anything but the
// budget's errors, and every row it gives back is one the store can hold.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAttributes, MAX_ANY_VALUE_DEPTH, type AnyValue, type Attributes } from '../../src/model/anyvalue.js';
import { spanProblem } from '../../src/otlp/checks.js';
import { DecodeAbort, RecordBudget } from '../../src/otlp/result.js';
import { decodeSentryEnvelope, decodeSentryStore, envelopeDsnKey, type SentryDecoded } from '../../src/sentry/decode.js';
import { canonicalRows } from '../helpers/otlp.js';
import { golden, goldenFiles } from '../helpers/sentry.js';

const SEED = 20261126;
const ARRIVAL = 1_800_000_000_000_000_000n;
const FILES = goldenFiles().map((file) => golden(file));
/** Bytes the framing and JSON turn on, more likely than any other. */
const SPECIAL = [0x0a, 0x0d, 0x7b, 0x7d, 0x5b, 0x5d, 0x22, 0x3a, 0x2c, 0x5c, 0x30, 0x39, 0x00, 0xff];

type Edit = ['set' | 'cut' | 'insert' | 'delete' | 'copy', number, number, number];

const byte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(...SPECIAL));
const edit: fc.Arbitrary<Edit> = fc.tuple(fc.constantFrom('set', 'cut', 'insert', 'delete', 'copy'), fc.nat(), fc.nat(), byte);

function apply(body: Buffer, edits: readonly Edit[]): Buffer {
  let bytes = Buffer.from(body);
  for (const [kind, at, other, value] of edits) {
    if (bytes.length === 0) break;
    const i = at % bytes.length;
    const j = other % bytes.length;
    if (kind === 'set') bytes[i] = value;
    else if (kind === 'cut') bytes = bytes.subarray(0, i);
    else if (kind === 'insert') bytes = Buffer.concat([bytes.subarray(0, i), Buffer.from([value]), bytes.subarray(i)]);
    else if (kind === 'delete') bytes = Buffer.concat([bytes.subarray(0, Math.min(i, j)), bytes.subarray(Math.max(i, j))]);
    else bytes = Buffer.concat([bytes.subarray(0, j), bytes.subarray(Math.min(i, j), Math.max(i, j)), bytes.subarray(j)]);
  }
  return bytes;
}

/** Decodes, letting only the budget's errors through as a throw the property accepts. */
function decodeOrAbort(decode: () => SentryDecoded): SentryDecoded | undefined {
  try {
    return decode();
  } catch (error) {
    if (error instanceof DecodeAbort) return undefined;
    throw error;
  }
}

function depthOf(value: AnyValue): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...(value as AnyValue[]).map(depthOf));
  if (value !== null && isAttributes(value)) return 1 + Math.max(0, ...Object.values(value as Attributes).map(depthOf));
  return 0;
}

const HEX32 = /^(?:[0-9a-f]{32})?$/;
const HEX16 = /^(?:[0-9a-f]{16})?$/;

function expectStorable(decoded: SentryDecoded): void {
  expect(Number.isInteger(decoded.skipped) && decoded.skipped >= 0).toBe(true);
  for (const count of Object.values(decoded.ignored)) expect(Number.isInteger(count) && count > 0).toBe(true);
  if (decoded.eventId !== undefined) expect(decoded.eventId).toMatch(/^[0-9a-f]{32}$/);
  for (const row of decoded.logs) {
    expect(row.traceId).toMatch(HEX32);
    expect(row.spanId).toMatch(HEX16);
    expect(row.timeUnixNano > 0n && row.observedTimeUnixNano === ARRIVAL).toBe(true);
    expect(depthOf(row.body)).toBeLessThanOrEqual(MAX_ANY_VALUE_DEPTH + 1);
    for (const value of Object.values(row.attributes)) expect(depthOf(value)).toBeLessThanOrEqual(MAX_ANY_VALUE_DEPTH + 1);
  }
  for (const span of decoded.spans) {
    expect(spanProblem(span)).toBeUndefined();
    expect(span.startTimeUnixNano > 0n && span.endTimeUnixNano > 0n).toBe(true);
  }
}

const canonical = (decoded: SentryDecoded | undefined): string =>
  decoded === undefined ? 'aborted' : `${canonicalRows(decoded.logs)}${canonicalRows(decoded.spans)}${decoded.skipped}${decoded.unreadable}${JSON.stringify(decoded.ignored)}${decoded.eventId}`;

describe('the Sentry decoder on mangled bodies', () => {
  it('golden envelopes with bytes changed, cut, put in, deleted or copied: no throw but the budget’s, storable rows, the same answer twice', () => {
    fc.assert(
      fc.property(fc.nat(FILES.length - 1), fc.array(edit, { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 200 }), (file, edits, limit) => {
        const body = apply(FILES[file] as Buffer, edits);
        const decoded = decodeOrAbort(() => decodeSentryEnvelope(body, ARRIVAL, new RecordBudget(limit)));
        if (decoded !== undefined) expectStorable(decoded);
        expect(canonical(decodeOrAbort(() => decodeSentryEnvelope(body, ARRIVAL, new RecordBudget(limit))))).toBe(canonical(decoded));
        const asStore = decodeOrAbort(() => decodeSentryStore(body, ARRIVAL, new RecordBudget(limit)));
        if (asStore !== undefined) expectStorable(asStore);
        envelopeDsnKey(body);
      }),
      { seed: SEED, numRuns: 1500 },
    );
  });

  it('bytes at random, and envelope-shaped lines of random JSON', () => {
    const line = fc.oneof(fc.json(), fc.constantFrom('{"type":"event"}', '{"type":"log"}', '{"type":"span"}', '{"type":"transaction"}', '{"type":"event","length":3}', ''));
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 512 }).map((bytes) => Buffer.from(bytes)), fc.array(line, { maxLength: 12 }).map((lines) => Buffer.from(lines.join('\n')))), (body) => {
        const decoded = decodeOrAbort(() => decodeSentryEnvelope(body, ARRIVAL, new RecordBudget(1000)));
        if (decoded !== undefined) expectStorable(decoded);
        const asStore = decodeOrAbort(() => decodeSentryStore(body, ARRIVAL, new RecordBudget(1000)));
        if (asStore !== undefined) expectStorable(asStore);
        envelopeDsnKey(body);
      }),
      { seed: SEED, numRuns: 1500 },
    );
  });
});
