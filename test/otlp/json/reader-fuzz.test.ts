// Fuzzing the JSON logs and traces readers: 100,000 bodies each, made from valid exports by
// flipping bytes, cutting them short, splicing two together and inserting JSON's structural bytes.
// No exception escapes, a body is unreadable exactly when JSON.parse cannot read it, and wherever
// the JSON.parse-based reference is exact the rows and skips are the reference's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeOtlp } from '../../../src/otlp/decode.js';
import { RecordBudget } from '../../../src/otlp/result.js';
import { canonicalRows } from '../../helpers/otlp.js';
import { mutations } from './mutate.js';
import { referenceDecodeLogsJson } from './reference-logs.js';
import { referenceDecodeTracesJson } from './reference-traces.js';
import { logsExport, variation, VariantWriter } from './variants.js';
import { tracesExport } from './variants-traces.js';

const BODIES = 100_000;
const INSERTS = ['{', '}', '[', ']', '"', '\\', ',', ':', 'null', '0', '-', 'e', '\\u', '\\ud800', '\xff', '\xc3', ' ', '"stringValue":', '"intValue":1e400'].map((s) => Buffer.from(s, 'latin1'));
const SIGNALS = [
  ['logs', logsExport, referenceDecodeLogsJson],
  ['traces', tracesExport, referenceDecodeTracesJson],
] as const;

/** The strings and numbers of a body JSON.parse reads. */
const TOKENS = /"(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*/g;
const NUMBER_TEXT = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
const ENUM_NAME = /^(?:SEVERITY_NUMBER|SPAN_KIND|STATUS_CODE)_/;

/** Whether a number is beyond what a 64-bit field holds: every reader refuses it as an integer, and reads it alike as a double. */
const beyond64Bits = (value: number): boolean => Math.abs(value) >= 2 ** 64;

/** Whether a number JSON.parse reads as a whole number is that number exactly (not 2^64 for 2^64-1, 1 for 1.0000000000000001, 0 for 1e-400). */
function wholeExactly(text: string): boolean {
  const value = Number(text);
  if (!Number.isInteger(value) || beyond64Bits(value)) return true;
  const [, whole = '', fraction = '', exponent = '0'] = NUMBER_TEXT.exec(text) ?? [];
  const digits = (whole + fraction).replace(/0+$/, '');
  if (/^0*$/.test(digits)) return value === 0;
  const scale = Number(exponent) - fraction.length + (whole + fraction).length - digits.length;
  return scale >= 0 && BigInt(digits) * 10n ** BigInt(scale) === BigInt(Math.abs(value));
}

/** Whether a string spells a whole number with a fraction or an exponent ("1.5e3"), which the reference refuses for integers. */
function wholeInOtherNotation(text: string): boolean {
  const value = Number(text);
  return NUMBER_TEXT.test(text) && /[.eE]/.test(text) && Number.isInteger(value) && !beyond64Bits(value);
}

/**
 * Whether the JSON.parse-based reference reads a body exactly, as far as its values tell (any
 * value anywhere counts, whatever its field): not when it holds a number JSON.parse does not
 * read exactly as a whole number, an enum name (the reference takes enums as numbers only), a
 * whole number in a string with a fraction or an exponent, or "-0" (which it refuses for times).
 */
function referenceIsExact(text: string): boolean {
  for (const [token] of text.matchAll(TOKENS)) {
    if (!token.startsWith('"')) {
      if (!wholeExactly(token)) return false;
      continue;
    }
    const value = JSON.parse(token) as string;
    if (ENUM_NAME.test(value) || /^-0+$/.test(value) || wholeInOtherNotation(value)) return false;
  }
  return true;
}

describe.each(SIGNALS)('the JSON %s reader, fuzzed', (signal, exports, referenceDecode) => {
  it(`survives ${BODIES.toLocaleString('en')} mutated bodies and agrees with JSON.parse on what is JSON`, () => {
    const seeds = fc.sample(fc.tuple(exports, variation), { seed: 424242, numRuns: 300 }).map(([canonical, v]) => Buffer.from(new VariantWriter(v).write(canonical)));
    const mutated = mutations(seeds, INSERTS, 12345);
    let unreadable = 0;
    let compared = 0;
    let comparedRows = 0;
    for (let i = 0; i < BODIES; i++) {
      const body = mutated();
      const decoded = decodeOtlp(signal, 'json', body);
      let isJson = true;
      try {
        JSON.parse(body.toString('utf8'));
      } catch {
        isJson = false;
      }
      if (!isJson) {
        expect(decoded).toEqual({ rows: [], skipped: 1, unreadable: expect.stringMatching(/^not JSON/) });
        unreadable++;
        continue;
      }
      expect(decoded.unreadable === undefined || !decoded.unreadable.startsWith('not JSON')).toBe(true);
      if (!referenceIsExact(body.toString('latin1'))) continue;
      const reference = referenceDecode(body, new RecordBudget(Number.POSITIVE_INFINITY));
      expect([decoded.skipped, decoded.unreadable, canonicalRows(decoded.rows)]).toEqual([reference.skipped, reference.unreadable, canonicalRows(reference.rows)]);
      compared++;
      comparedRows += reference.rows.length;
    }
    // Both kinds of body are well represented, and the bodies compared hold rows, not only empty exports.
    expect(unreadable).toBeGreaterThan(BODIES / 4);
    expect(compared).toBeGreaterThan(BODIES / 20);
    expect(comparedRows).toBeGreaterThan(BODIES / 20);
  }, 60_000);
});
