// The filters of the read API and of `otelgate query`, checked once for both: a bad one is an
// error naming the parameter (400 on the API; a message and exit 2 on the command line).
import type { Signal } from '../model/signal.js';
import { severityNumber } from '../simple/levels.js';
import { parseTimestamp } from '../simple/time.js';

export interface Query {
  signal: Signal;
  /** Inclusive, nanoseconds since the epoch. */
  from?: bigint;
  /** Exclusive. */
  to?: bigint;
  service?: string;
  limit: number;
  /** Logs: at least this severity number. */
  severityMin?: number;
  /** Logs and spans. */
  traceId?: string;
  /** Logs: a substring of the body, case-sensitive. */
  q?: string;
  /** Spans: the span name; metrics: the metric name. */
  name?: string;
}

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 10_000;

/** The read API's name for each signal's rows: /api/v1/query/logs, /spans, /metrics. */
export const QUERY_SIGNALS: ReadonlyMap<string, Signal> = new Map([
  ['logs', 'logs'],
  ['spans', 'traces'],
  ['metrics', 'metrics'],
]);

const COMMON = ['from', 'to', 'service', 'limit'];
const PARAMETERS: Record<Signal, readonly string[]> = {
  logs: [...COMMON, 'severity_min', 'trace_id', 'q'],
  traces: [...COMMON, 'trace_id', 'name'],
  metrics: [...COMMON, 'name'],
};

export class QueryError extends Error {
  constructor(
    readonly parameter: string,
    message: string,
  ) {
    super(message);
  }
}

function time(name: string, text: string): bigint {
  // Digits alone are epoch nanoseconds, exactly; anything else must be an ISO 8601 date-time.
  // parseTimestamp takes only times after the epoch (a log's time of 0 means "none"); a bound may be the epoch itself.
  const ns = /^\d+$/.test(text) ? BigInt(text) : /^\d{4}-\d{2}-\d{2}[Tt ]/.test(text) ? (parseTimestamp(text) ?? (Date.parse(text) === 0 ? 0n : undefined)) : undefined;
  if (ns === undefined || ns >= 2n ** 63n) {
    throw new QueryError(name, `${name} must be an ISO 8601 date-time (2026-11-22T08:00:00Z) or nanoseconds since the epoch; got "${text}"`);
  }
  return ns;
}

function integer(name: string, text: string, min: number, max: number): number {
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(n >= min && n <= max)) throw new QueryError(name, `${name} must be an integer from ${min} to ${max}; got "${text}"`);
  return n;
}

function severity(name: string, text: string): number {
  if (/^\d+$/.test(text)) return integer(name, text, 1, 24);
  const n = severityNumber(text);
  if (n === 0) throw new QueryError(name, `${name} must be a severity number from 1 to 24 or a level name (debug, info, warn, error, fatal, ...); got "${text}"`);
  return n;
}

/**
 * Parameters (name → value, in order) → a Query. `shown` renders a parameter's name as its caller
 * spells it (the command line writes --severity-min for severity_min).
 */
export function parseQuery(signal: Signal, entries: Iterable<[string, string]>, shown: (name: string) => string = (n) => n): Query {
  const known = PARAMETERS[signal];
  const seen = new Set<string>();
  const query: Query = { signal, limit: DEFAULT_LIMIT };
  for (const [name, value] of entries) {
    const label = shown(name);
    if (!known.includes(name)) throw new QueryError(name, `unknown parameter ${label}; known here: ${known.map(shown).join(', ')}`);
    if (seen.has(name)) throw new QueryError(name, `${label} is given more than once`);
    seen.add(name);
    if (value === '') throw new QueryError(name, `${label} is empty`);
    switch (name) {
      case 'from':
        query.from = time(label, value);
        break;
      case 'to':
        query.to = time(label, value);
        break;
      case 'limit':
        query.limit = integer(label, value, 1, MAX_LIMIT);
        break;
      case 'severity_min':
        query.severityMin = severity(label, value);
        break;
      case 'service':
        query.service = value;
        break;
      case 'trace_id':
        query.traceId = value;
        break;
      case 'q':
        query.q = value;
        break;
      case 'name':
        query.name = value;
        break;
    }
  }
  if (query.from !== undefined && query.to !== undefined && query.from >= query.to) {
    throw new QueryError('to', `${shown('to')} must be after ${shown('from')}`);
  }
  return query;
}
