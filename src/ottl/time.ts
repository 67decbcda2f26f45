// OTTL's time.Time and time.Duration: values that exist only while a statement is evaluated
// (Time(...), Now(), Duration(...) and the math on them), never in a row. Both are instants or
// lengths in nanoseconds, as int64 in Go; a time keeps no location, since nothing otelgate offers
// reads a time's wall clock back.
import { OttlRuntimeError } from './errors.js';

export class OttlTime {
  constructor(readonly unixNano: bigint) {}
}

export class OttlDuration {
  constructor(readonly nanos: bigint) {}
}

const NANOS_PER_SECOND = 1_000_000_000n;
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

const UNITS: Readonly<Record<string, number>> = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

/** Go's time.ParseDuration, with its messages: "3h2m", "-1.5s", "300ms", "0". */
export function parseDuration(text: string): OttlDuration {
  const invalid = (): OttlRuntimeError => new OttlRuntimeError(`time: invalid duration ${JSON.stringify(text)}`);
  let rest = text;
  const negative = rest.startsWith('-');
  if (rest.startsWith('-') || rest.startsWith('+')) rest = rest.slice(1);
  if (rest === '0') return new OttlDuration(0n);
  if (rest === '') throw invalid();
  let total = 0n;
  while (rest !== '') {
    const number = /^(\d*)(?:\.(\d*))?/.exec(rest) as RegExpExecArray;
    const [whole, digits = '', fraction] = number;
    if (digits === '' && (fraction === undefined || fraction === '')) throw invalid();
    rest = rest.slice(whole.length);
    const unitText = /^[^.\d]*/.exec(rest)?.[0] ?? '';
    if (unitText === '') throw new OttlRuntimeError(`time: missing unit in duration ${JSON.stringify(text)}`);
    rest = rest.slice(unitText.length);
    const unit = UNITS[unitText];
    if (unit === undefined) throw new OttlRuntimeError(`time: unknown unit ${JSON.stringify(unitText)} in duration ${JSON.stringify(text)}`);
    let value = BigInt(digits || '0') * BigInt(unit);
    // Go scales the fraction in float64, as here.
    if (fraction !== undefined && fraction !== '' && Number(fraction) > 0) value += BigInt(Math.trunc(Number(fraction) * (unit / 10 ** fraction.length)));
    total += value;
    if (total > MAX_INT64 + 1n) throw invalid();
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
