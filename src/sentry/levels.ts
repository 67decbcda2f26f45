// Sentry levels → OTel severity numbers, through the simple endpoint's table (src/simple/levels.ts).
import { severityNumber } from '../simple/levels.js';

/** Sentry files an event without a level as an error. */
export const EVENT_DEFAULT_LEVEL = 'error';

/**
 * The severity of a Sentry level. `log`, a level of the JavaScript SDK's captureMessage, is not in
 * OTel's vocabulary: Sentry itself files it as info, and so does this.
 */
export function levelSeverity(level: string): number {
  return level.trim().toLowerCase() === 'log' ? 9 : severityNumber(level);
}

/** A log item's severity_number when it is one (1-24), else the one of its level. */
export function logSeverity(level: string, number: unknown): number {
  if (typeof number === 'number' && Number.isInteger(number) && number >= 1 && number <= 24) return number;
  return levelSeverity(level);
}
