// src/simple/time.ts as it was before its fast path for the usual ISO form: the regular expressions
// alone. The reference decoder uses it, and the tests hold time.ts to it.

const ISO = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;
const DIGITS = /^\d+(\.\d+)?$/;

const MAX_NS = 2n ** 64n - 1n;

/** Only times a log record can carry: after the epoch, within fixed64 nanoseconds. */
function inRange(ns: bigint): bigint | undefined {
  return ns > 0n && ns <= MAX_NS ? ns : undefined;
}

function fromIso(text: string): bigint | undefined {
  const m = ISO.exec(text.trim());
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, s, fraction = '', zone = 'Z'] = m;
  // Date.UTC reads years 0-99 as 1900-1999; years before 1970 give no valid time here anyway.
  if (Number(y) < 1970) return undefined;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (Number.isNaN(ms) || Number(mo) > 12 || Number(d) > 31 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 60) return undefined;
  let offsetMinutes = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0'));
  }
  return inRange((BigInt(ms) - BigInt(offsetMinutes) * 60_000n) * 1_000_000n + BigInt(fraction.padEnd(9, '0')));
}

/** Epoch numbers by magnitude: seconds, milliseconds, microseconds or nanoseconds. */
function fromEpoch(text: string): bigint | undefined {
  if (!DIGITS.test(text)) return undefined;
  const [whole = '0', fraction = ''] = text.split('.');
  const digits = whole.replace(/^0+(?=\d)/, '').length;
  const scale = digits <= 11 ? 9 : digits <= 14 ? 6 : digits <= 17 ? 3 : 0;
  const ns = BigInt(whole) * 10n ** BigInt(scale) + BigInt((fraction + '0'.repeat(scale)).slice(0, scale) || '0');
  return inRange(ns);
}

/**
 * ISO 8601 / RFC 3339 (with offset, or UTC when none, up to nanoseconds), or epoch seconds,
 * milliseconds, microseconds or nanoseconds as a number or digit string. Undefined otherwise.
 */
export function parseTimestamp(value: unknown): bigint | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value <= 0) return undefined;
    return fromEpoch(Number.isInteger(value) ? BigInt(value).toString() : String(value));
  }
  if (typeof value !== 'string') return undefined;
  return fromEpoch(value.trim()) ?? fromIso(value);
}
