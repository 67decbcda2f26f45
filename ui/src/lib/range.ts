// The time ranges a view offers: the last 15 minutes, hour, day or week up to now, or a custom
// from/to. A range is resolved to nanoseconds when a query is made, so "last hour" moves with the clock.
import { pad } from './format.js';

export const PRESETS = { '15m': 15 * 60, '1h': 3600, '24h': 24 * 3600, '7d': 7 * 24 * 3600 } as const;
export type Preset = keyof typeof PRESETS;

export type Range = { preset: Preset } | { from: string; to: string };

export const DEFAULT_RANGE: Range = { preset: '1h' };

/** Range → [from, to) in nanoseconds since the epoch, given now in milliseconds. */
export function resolveRange(range: Range, nowMs: number): { from: bigint; to: bigint } {
  if ('preset' in range) {
    const to = BigInt(Math.floor(nowMs)) * 1_000_000n;
    return { from: to - BigInt(PRESETS[range.preset]) * 1_000_000_000n, to };
  }
  return { from: BigInt(range.from), to: BigInt(range.to) };
}

/** The URL's `range` (a preset) or `from`/`to` (nanoseconds) → a Range; anything else is the default. */
export function rangeFromParams(params: URLSearchParams): Range {
  const from = params.get('from');
  const to = params.get('to');
  if (from !== null && to !== null && /^\d+$/.test(from) && /^\d+$/.test(to) && BigInt(from) < BigInt(to)) return { from, to };
  const preset = params.get('range');
  if (preset !== null && preset in PRESETS) return { preset: preset as Preset };
  return DEFAULT_RANGE;
}

/** The members a Range writes into the URL; the others of the pair are removed. */
export function rangeToParams(range: Range, params: URLSearchParams): void {
  params.delete('range');
  params.delete('from');
  params.delete('to');
  if ('preset' in range) {
    if (range.preset !== (DEFAULT_RANGE as { preset: Preset }).preset) params.set('range', range.preset);
    return;
  }
  params.set('from', range.from);
  params.set('to', range.to);
}

/**
 * Nanoseconds → the value of a datetime-local input, in the browser's local time to the
 * millisecond, in the browser's own normal form (no zero seconds or milliseconds, no trailing zeros),
 * so that the input keeps it as given.
 */
export function nanosToLocalInput(ns: string): string {
  const d = new Date(Number(BigInt(ns) / 1_000_000n));
  const minutes = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  if (d.getSeconds() === 0 && d.getMilliseconds() === 0) return minutes;
  const seconds = `${minutes}:${pad(d.getSeconds())}`;
  return d.getMilliseconds() === 0 ? seconds : `${seconds}.${pad(d.getMilliseconds(), 3).replace(/0+$/, '')}`;
}

/**
 * A datetime-local input's value (local time; seconds and milliseconds optional) → nanoseconds;
 * undefined for anything else, an incomplete entry included.
 */
export function localInputToNanos(value: string): string | undefined {
  const parts = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/.exec(value);
  if (parts === null) return undefined;
  const [, year, month, day, hours, minutes, seconds = '0', fraction = '0'] = parts;
  // Date's constructor would take a year below 100 as 19xx.
  const d = new Date(0);
  d.setFullYear(Number(year), Number(month) - 1, Number(day));
  d.setHours(Number(hours), Number(minutes), Number(seconds), Number(fraction.padEnd(3, '0')));
  const ms = d.getTime();
  return Number.isNaN(ms) ? undefined : String(BigInt(ms) * 1_000_000n);
}
