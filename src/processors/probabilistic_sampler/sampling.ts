// The arithmetic of OpenTelemetry consistent probability sampling (the spec's tracestate
// probability sampling, the Collector's pkg/sampling): 56-bit thresholds and randomness, their
// hex encodings (th, rv), and probabilities to thresholds. A value is kept when threshold <= randomness.
// 56 bits do not fit a double, so both are bigints.

/** 2^56: the number of randomness values, and the threshold that samples nothing. */
const MAX_ADJUSTED_COUNT = 1n << 56n;
export const ALWAYS_SAMPLE = 0n;
export const NEVER_SAMPLE = MAX_ADJUSTED_COUNT;
/** The randomness every threshold but NEVER_SAMPLE keeps. */
export const ALL_PROBABILITIES_RANDOMNESS = MAX_ADJUSTED_COUNT - 1n;
export const MIN_SAMPLING_PROBABILITY = 2 ** -56;
export const NUM_HEX_DIGITS = 14;

/** A sampling value that could not be read, with the Collector's message. */
export class SamplingProblem {
  constructor(readonly message: string) {}
}

const HEX = /^[0-9a-fA-F]+$/;

/** Go's strconv.ParseUint(s, 16, 64) for at most 14 digits: hex digits only, no sign or prefix. */
function parseHex(s: string): bigint | SamplingProblem {
  return HEX.test(s) ? BigInt(`0x${s}`) : new SamplingProblem(`strconv.ParseUint: parsing ${JSON.stringify(s)}: invalid syntax`);
}

/** A threshold from its th encoding: 1 to 14 hex digits, trailing zeros left out. */
export function tValueToThreshold(s: string): bigint | SamplingProblem {
  if (s.length > NUM_HEX_DIGITS) return new SamplingProblem('t-value exceeds 14 hex digits');
  if (s.length === 0) return new SamplingProblem('t-value is empty');
  const unsigned = parseHex(s);
  return unsigned instanceof SamplingProblem ? unsigned : unsigned << BigInt(4 * (NUM_HEX_DIGITS - s.length));
}

/** Randomness from its rv encoding: exactly 14 hex digits. */
export function rValueToRandomness(s: string): bigint | SamplingProblem {
  if (s.length !== NUM_HEX_DIGITS) return new SamplingProblem('r-value must have 14 hex digits');
  return parseHex(s);
}

/** The rv encoding: 14 lower-case hex digits. */
export function rValue(randomness: bigint): string {
  return randomness.toString(16).padStart(NUM_HEX_DIGITS, '0');
}

/** The th encoding: "0" for always, "" for never, else 14 digits without their trailing zeros. */
export function tValue(threshold: bigint): string {
  if (threshold === ALWAYS_SAMPLE) return '0';
  if (threshold === NEVER_SAMPLE) return '';
  return rValue(threshold).replace(/0+$/, '');
}

/** The sampling probability a threshold stands for. */
export function thresholdProbability(threshold: bigint): number {
  return Number(MAX_ADJUSTED_COUNT - threshold) / Number(MAX_ADJUSTED_COUNT);
}

/** The randomness of a trace id (lower-case hex, 32 digits): its last 7 bytes, as W3C Trace Context level 2 defines it. */
export function traceIdRandomness(traceId: string): bigint {
  return BigInt(`0x${traceId.slice(18)}`);
}

const FLOAT = new DataView(new ArrayBuffer(8));

/** The exponent Go's math.Frexp gives a positive normal double: x = frac × 2^exp, frac in [0.5, 1). */
function frexpExponent(x: number): number {
  FLOAT.setFloat64(0, x);
  return ((FLOAT.getUint16(0) >> 4) & 0x7ff) - 1022;
}

/**
 * The threshold of a probability in [2^-56, 1], rounded to `precision` hex digits (0: all 14), as
 * the Collector's ProbabilityToThresholdWithPrecision: digits are added near 0 and 1, where the
 * leading digits are all 0 or f. undefined outside the range.
 */
export function probabilityToThreshold(fraction: number, precision: number): bigint | undefined {
  if (!(fraction >= MIN_SAMPLING_PROBABILITY && fraction <= 1)) return undefined;
  if (fraction === 1) return ALWAYS_SAMPLE;
  const base = precision === 0 ? NUM_HEX_DIGITS : precision;
  // Go's integer division truncates toward zero; both exponents are <= 0.
  const extra = (exp: number): number => Math.trunc(exp / -4);
  const digits = Math.min(NUM_HEX_DIGITS, Math.max(base + extra(frexpExponent(fraction)), base + extra(frexpExponent(1 - fraction))));
  let threshold = MAX_ADJUSTED_COUNT - BigInt(Math.round(fraction * Number(MAX_ADJUSTED_COUNT)));
  const shift = BigInt(4 * (NUM_HEX_DIGITS - digits));
  if (shift !== 0n) threshold = ((threshold + (1n << (shift - 1n))) >> shift) << shift;
  return threshold;
}
