// OTTL's time.Time and time.Duration: values that exist only while a statement is evaluated
// (Time(...), Now(), Duration(...) and the math on them), never in a row. Both are instants or
// lengths in nanoseconds, as int64 in Go; a time keeps no location, since nothing otelgate offers
// reads a time's wall clock back.
import { isDigitAt } from './chars.js';
import { OttlRuntimeError, quoted } from './errors.js';

export class OttlTime {
  constructor(readonly unixNano: bigint) {}
}

export class OttlDuration {
  constructor(readonly nanos: bigint) {}
}

export const NANOS_PER_SECOND = 1_000_000_000n;
/** Seconds from Go's zero time (January 1, year 1, UTC) to the Unix epoch: Truncate counts from there. */
const ZERO_TO_UNIX = 62_135_596_800n;
const MAX_INT64 = (1n << 63n) - 1n;

/** a / b rounded down, as Go's Time.Unix*() divide (the nanoseconds of a time are never negative). */
function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

export const unixSeconds = (t: OttlTime): bigint => floorDiv(t.unixNano, NANOS_PER_SECOND);
export const unixMilli = (t: OttlTime): bigint => floorDiv(t.unixNano, 1_000_000n);
export const unixMicro = (t: OttlTime): bigint => floorDiv(t.unixNano, 1_000n);

/** Go's Time.Truncate: rounded down to a multiple of `d` since the zero time; a `d` of 0 or less changes nothing. */
export function truncateTime(t: OttlTime, d: OttlDuration): OttlTime {
  if (d.nanos <= 0n) return t;
  const sinceZero = t.unixNano + ZERO_TO_UNIX * NANOS_PER_SECOND;
  const rest = ((sinceZero % d.nanos) + d.nanos) % d.nanos;
  return new OttlTime(t.unixNano - rest);
}

const UNITS: ReadonlyMap<string, bigint> = new Map([
  ['ns', 1n],
  ['us', 1_000n],
  ['µs', 1_000n],
  ['μs', 1_000n],
  ['ms', 1_000_000n],
  ['s', NANOS_PER_SECOND],
  ['m', 60n * NANOS_PER_SECOND],
  ['h', 3600n * NANOS_PER_SECOND],
]);
const TWO_TO_63 = 1n << 63n;

/** Go's leadingInt: the digits from `at`, and where they end; undefined past 2^63, where Go gives up. */
function leadingInt(text: string, at: number): [bigint, number] | undefined {
  let x = 0n;
  let i = at;
  for (; isDigitAt(text, i); i++) {
    // Checked before each digit, so that a megabyte of digits fails after twenty of them.
    if (x > TWO_TO_63 / 10n) return undefined;
    x = x * 10n + BigInt(text.charCodeAt(i) - 48);
    if (x > TWO_TO_63) return undefined;
  }
  return [x, i];
}

/** Go's leadingFraction: the digits from `at` as x / scale; past 2^63 the digits are skipped, the scale stops too. */
function leadingFraction(text: string, at: number): [bigint, number, number] {
  let x = 0n;
  let scale = 1;
  let overflow = false;
  let i = at;
  for (; isDigitAt(text, i); i++) {
    if (overflow) continue;
    if (x > MAX_INT64 / 10n) {
      overflow = true;
      continue;
    }
    const y = x * 10n + BigInt(text.charCodeAt(i) - 48);
    if (y > TWO_TO_63) {
      overflow = true;
      continue;
    }
    x = y;
    scale *= 10;
  }
  return [x, scale, i];
}

/** Go's time.ParseDuration, step by step, with its messages: "3h2m", "-1.5s", "300ms", "0". */
export function parseDuration(text: string): OttlDuration {
  const invalid = (): OttlRuntimeError => new OttlRuntimeError(`time: invalid duration ${quoted(text)}`);
  let i = 0;
  const negative = text.startsWith('-');
  if (negative || text.startsWith('+')) i++;
  if (text.length - i === 1 && text[i] === '0') return new OttlDuration(0n);
  if (i === text.length) throw invalid();
  let total = 0n;
  while (i < text.length) {
    if (text[i] !== '.' && !isDigitAt(text, i)) throw invalid();
    const whole = leadingInt(text, i);
    if (whole === undefined) throw invalid();
    const [v, afterWhole] = whole;
    const digitsBefore = afterWhole > i;
    i = afterWhole;
    let f = 0n;
    let scale = 1;
    let digitsAfter = false;
    if (text[i] === '.') {
      const [fraction, fractionScale, afterFraction] = leadingFraction(text, i + 1);
      [f, scale] = [fraction, fractionScale];
      digitsAfter = afterFraction > i + 1;
      i = afterFraction;
    }
    if (!digitsBefore && !digitsAfter) throw invalid();
    const unitStart = i;
    while (i < text.length && text[i] !== '.' && !isDigitAt(text, i)) i++;
    if (i === unitStart) throw new OttlRuntimeError(`time: missing unit in duration ${quoted(text)}`);
    const unitText = text.slice(unitStart, i);
    const unit = UNITS.get(unitText);
    if (unit === undefined) throw new OttlRuntimeError(`time: unknown unit ${quoted(unitText)} in duration ${quoted(text)}`);
    if (v > TWO_TO_63 / unit) throw invalid();
    let value = v * unit;
    if (f > 0n) {
      // As Go: the fraction scaled in float64, which is nanosecond-accurate up to an hour.
      value += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (value > TWO_TO_63) throw invalid();
    }
    total += value;
    if (total > TWO_TO_63) throw invalid();
  }
  if (!negative && total > MAX_INT64) throw invalid();
  return new OttlDuration(negative ? -total : total);
}

/** `time + duration`, `time - time`, `time - duration`, `duration ± duration`, as the Collector's math.go; undefined for anything else. */
export function timeMath(a: unknown, op: string, b: unknown): OttlTime | OttlDuration | undefined {
  if (a instanceof OttlTime) {
    if (op === '+') {
      if (b instanceof OttlDuration) return new OttlTime(a.unixNano + b.nanos);
      throw new OttlRuntimeError('time.Time must be added to time.Duration');
    }
    if (op === '-') {
      if (b instanceof OttlTime) return new OttlDuration(a.unixNano - b.unixNano);
      if (b instanceof OttlDuration) return new OttlTime(a.unixNano - b.nanos);
      throw new OttlRuntimeError('time.Time or time.Duration must be subtracted from time.Time');
    }
    throw new OttlRuntimeError('only addition and subtraction supported for time.Time and time.Duration');
  }
  if (a instanceof OttlDuration) {
    if (op === '+') {
      if (b instanceof OttlDuration) return new OttlDuration(a.nanos + b.nanos);
      if (b instanceof OttlTime) return new OttlTime(b.unixNano + a.nanos);
      throw new OttlRuntimeError('time.Duration must be added to time.Duration or time.Time');
    }
    if (op === '-') {
      if (b instanceof OttlDuration) return new OttlDuration(a.nanos - b.nanos);
      throw new OttlRuntimeError('time.Duration must be subtracted from time.Duration');
    }
    throw new OttlRuntimeError('only addition and subtraction supported for time.Time and time.Duration');
  }
  return undefined;
}
