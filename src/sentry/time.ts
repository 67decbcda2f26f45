// Sentry times → nanoseconds since the epoch. The SDKs write seconds: a float number (JavaScript,
// most SDKs), sometimes a numeric string, or an ISO 8601 string (Python's events).
import { parseTimestamp } from '../simple/time.js';

const SECONDS = /^\d+(?:\.\d+)?$/;
const MAX_NS = 2n ** 64n - 1n;

/**
 * Decimal seconds to nanoseconds digit by digit: multiplying the float by 1e9 would turn
 * 1700000000.123456 into ...123455999. Digits past the ninth decimal are dropped.
 */
function fromSeconds(text: string): bigint | undefined {
  if (!SECONDS.test(text)) return undefined;
  const dot = text.indexOf('.');
  const whole = dot < 0 ? text : text.slice(0, dot);
  const fraction = dot < 0 ? '' : text.slice(dot + 1, dot + 10);
  const ns = BigInt(whole) * 1_000_000_000n + BigInt(fraction.padEnd(9, '0'));
  return ns > 0n && ns <= MAX_NS ? ns : undefined;
}

/**
 * A Sentry timestamp in nanoseconds, or undefined when there is none that could be a time. A
 * number is read from its shortest decimal text, which is the text an SDK wrote for it (every SDK
 * prints a double so that it reads back the same), so no digit it sent is lost. Numbers are always
 * seconds here, whatever their size: the simple endpoint's guess at milliseconds does not apply.
 */
export function sentryTime(value: unknown): bigint | undefined {
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) && value > 0 ? fromSeconds(String(value)) : undefined;
    case 'bigint':
      return fromSeconds(value.toString());
    case 'string': {
      const text = value.trim();
      return SECONDS.test(text) ? fromSeconds(text) : parseTimestamp(text);
    }
    default:
      return undefined;
  }
}
