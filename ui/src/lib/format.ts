// How the viewer writes times, durations, severities and attribute values. Times are the read API's
// decimal nanosecond strings; they are shown in the browser's time zone, to the millisecond.
import type { AttributeValue } from '../rows.js';

/** A calendar field with leading zeros: pad(7) is 07, pad(5, 3) is 005. */
export const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** `2026-11-27 14:03:09.120` in the browser's zone; "" for a time of 0 (none). */
export function formatTime(ns: string): string {
  const n = BigInt(ns);
  if (n === 0n) return '';
  const d = new Date(Number(n / 1_000_000n));
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** A duration in the largest unit that keeps it at least 1: `850 ns`, `12.5 µs`, `1.23 ms`, `4.5 s`, `3.2 min`, `2.1 h`. */
export function formatDuration(ns: bigint | string): string {
  const n = Number(typeof ns === 'bigint' ? ns : BigInt(ns));
  const units: [number, string][] = [
    [3_600e9, 'h'],
    [60e9, 'min'],
    [1e9, 's'],
    [1e6, 'ms'],
    [1e3, 'µs'],
  ];
  for (const [size, unit] of units) if (n >= size) return `${trim(n / size)} ${unit}`;
  return `${n} ns`;
}

/** Three significant digits at most, no trailing zeros. */
function trim(x: number): string {
  return String(Number(x.toPrecision(3)));
}

/** The bands of a log's severity_number, lowest first, as the read API's log_counts names them: 0, 1-4, 5-8, 9-12, 13-16, 17-20, 21-24. */
export const SEVERITY_BANDS = ['unspecified', 'trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;

export type SeverityBand = (typeof SEVERITY_BANDS)[number];

/** OTLP's severity number 1-24 in bands of four; 0 is unspecified. */
export function severityBand(n: number): SeverityBand {
  if (!(n >= 1 && n <= 24)) return 'unspecified';
  return SEVERITY_BANDS[Math.ceil(n / 4)]!;
}

const SPAN_KINDS = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'] as const;

/** OTLP's SpanKind number as its name; a number OTLP does not define is shown as itself. */
export function spanKindName(kind: number): string {
  return SPAN_KINDS[kind] ?? `kind ${kind}`;
}

const STATUS_CODES = ['unset', 'ok', 'error'] as const;

/** A span's status_code as its name: 0 unset, 1 ok, 2 error. */
export function spanStatusName(code: number): string {
  return STATUS_CODES[code] ?? `status ${code}`;
}

/**
 * A measured number as a table or a legend shows it: an integer in full, a fraction to 3 decimals
 * from 1 up and to 6 significant digits below; "" for no value.
 */
export function formatNumber(n: number | null | undefined): string {
  if (n === null || n === undefined || Number.isNaN(n)) return '';
  if (Number.isInteger(n) || !Number.isFinite(n)) return String(n);
  return String(Number(Math.abs(n) >= 1 ? n.toFixed(3) : n.toPrecision(6)));
}

/** An attribute's value as text: a string as itself, anything else (number, boolean, array, map) as its JSON text. */
export function attributeText(value: AttributeValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
