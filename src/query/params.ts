// The filters of the read API and of `otelgate query`, checked once for both: a bad one is an
// error naming the parameter (400 on the API; a message and exit 2 on the command line).
import { parseDuration } from '../config/duration.js';
import type { Signal } from '../model/signal.js';
import { severityNumber } from '../simple/levels.js';
import { parseTimestamp } from '../simple/time.js';

/** A query of stored rows: /api/v1/query/logs, /spans, /metrics. */
export interface Query {
  kind: 'rows';
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
 * Each parameter given, in order, checked against the path's `known` ones: known, given once, not
 * empty; `take` reads its value. `shown` renders a parameter's name as its caller spells it (the
 * command line writes --severity-min for severity_min).
 */
function eachParameter(known: readonly string[], entries: Iterable<[string, string]>, shown: (name: string) => string, take: (name: string, label: string, value: string) => void): void {
  const seen = new Set<string>();
  for (const [name, value] of entries) {
    const label = shown(name);
    if (!known.includes(name)) throw new QueryError(name, `unknown parameter ${label}; known here: ${known.map(shown).join(', ')}`);
    if (seen.has(name)) throw new QueryError(name, `${label} is given more than once`);
    seen.add(name);
    if (value === '') throw new QueryError(name, `${label} is empty`);
    take(name, label, value);
  }
}

/** The filters every path takes where it knows them, under the same names in each query; what narrows a read in the store. */
export type Filters = Pick<Query, 'from' | 'to' | 'service' | 'severityMin' | 'traceId' | 'q' | 'name'>;

/** Reads parameter `name` into `into` when it is one of the shared filters; false when it is not. */
function filter(into: Filters, name: string, label: string, value: string): boolean {
  switch (name) {
    case 'from':
      into.from = time(label, value);
      return true;
    case 'to':
      into.to = time(label, value);
      return true;
    case 'service':
      into.service = value;
      return true;
    case 'severity_min':
      into.severityMin = severity(label, value);
      return true;
    case 'trace_id':
      into.traceId = value;
      return true;
    case 'q':
      into.q = value;
      return true;
    case 'name':
      into.name = value;
      return true;
    default:
      return false;
  }
}

/** Parameters (name → value, in order) → a Query. */
export function parseQuery(signal: Signal, entries: Iterable<[string, string]>, shown: (name: string) => string = (n) => n): Query {
  const query: Query = { kind: 'rows', signal, limit: DEFAULT_LIMIT };
  eachParameter(PARAMETERS[signal], entries, shown, (name, label, value) => {
    // The one parameter of the row paths that is not a filter.
    if (!filter(query, name, label, value)) query.limit = integer(label, value, 1, MAX_LIMIT);
  });
  if (query.from !== undefined && query.to !== undefined && query.from >= query.to) {
    throw new QueryError('to', `${shown('to')} must be after ${shown('from')}`);
  }
  return query;
}

// ---- the aggregate paths, for the web viewer: counts, summaries, series ----

/** The read API's aggregate paths: /api/v1/query/log_counts, ... */
const VIEWS = ['log_counts', 'trace_summaries', 'metric_names', 'metric_series', 'error_groups'] as const;
export type View = (typeof VIEWS)[number];

const isView = (path: string): path is View => (VIEWS as readonly string[]).includes(path);

/** Every path of the read API after /api/v1/query/, in the order its 404 lists them. */
export const QUERY_PATHS: readonly string[] = [...QUERY_SIGNALS.keys(), ...VIEWS];

/** An aggregate's time range, always bounded: `to` defaults to now, `from` to an hour before `to`. */
interface Window {
  /** Inclusive, nanoseconds since the epoch. */
  from: bigint;
  /** Exclusive. */
  to: bigint;
  service?: string;
}

export interface LogCountsQuery extends Window {
  kind: 'log_counts';
  /** Bucket width in nanoseconds: buckets start at from + k × step. */
  step: bigint;
  severityMin?: number;
  traceId?: string;
  q?: string;
}

export interface TraceSummariesQuery extends Window {
  kind: 'trace_summaries';
  /** The root span's name. */
  name?: string;
  /** Nanoseconds. */
  minDuration?: bigint;
  /** Only traces with a span whose status is error. */
  errors: boolean;
  limit: number;
}

export interface MetricNamesQuery extends Window {
  kind: 'metric_names';
  limit: number;
}

/** One attribute a series must have: a key, the JSON type of its value, and the value for the types that have more than one. */
export type AttributeMatch =
  | { key: string; type: 'text'; value: string }
  | { key: string; type: 'number'; value: number }
  /** The value's JSON text: arrays and maps match by their text. */
  | { key: string; type: 'array' | 'object'; value: string }
  | { key: string; type: 'true' | 'false' | 'null' };

export interface MetricSeriesQuery extends Window {
  kind: 'metric_series';
  name: string;
  attributes: AttributeMatch[];
  /** Series. */
  limit: number;
  /** Per series, the newest kept. */
  maxPoints: number;
}

export interface ErrorGroupsQuery extends Window {
  kind: 'error_groups';
  step: bigint;
  limit: number;
}

export type ViewQuery = LogCountsQuery | TraceSummariesQuery | MetricNamesQuery | MetricSeriesQuery | ErrorGroupsQuery;
/** What a Reader answers: rows, or an aggregate of them. */
export type ReadQuery = Query | ViewQuery;

const VIEW_PARAMETERS: Record<View, readonly string[]> = {
  log_counts: ['from', 'to', 'service', 'step', 'severity_min', 'trace_id', 'q'],
  trace_summaries: [...COMMON, 'name', 'min_duration', 'errors'],
  metric_names: COMMON,
  metric_series: [...COMMON, 'name', 'attributes', 'max_points'],
  error_groups: [...COMMON, 'step'],
};

/** The paths with a `limit` (log_counts has none: step bounds its buckets), and its default and largest there. */
type Limited = Exclude<View, 'log_counts'>;
const VIEW_LIMITS: Record<Limited, { initial: number; max: number }> = {
  trace_summaries: { initial: 100, max: 1000 },
  metric_names: { initial: 1000, max: 10_000 },
  metric_series: { initial: 100, max: 1000 },
  error_groups: { initial: 100, max: 1000 },
};

const SECOND = 1_000_000_000n;
const HOUR = 3600n * SECOND;
/** The longest range an aggregate reads: each one reads every row of its range. */
const MAX_RANGE = 31n * 24n * HOUR;
const MAX_BUCKETS = 1000n;
const DEFAULT_BUCKETS = 60n;
const DEFAULT_MAX_POINTS = 1000;
const MAX_POINTS = 10_000;
const MAX_ATTRIBUTE_MATCHES = 32;

/** Nanoseconds of a duration as Go writes it (250ms, 1.5s, 1m), or of digits alone, as times are given. */
function duration(name: string, text: string, examples: string, min: bigint): bigint {
  let ns: bigint | undefined;
  if (/^\d+$/.test(text)) {
    ns = BigInt(text);
  } else {
    const ms = parseDuration(text);
    // Hundreds of digits make Infinity, which no BigInt holds.
    if (ms !== undefined && Number.isFinite(ms)) ns = BigInt(Math.round(ms * 1e6));
  }
  if (ns === undefined || ns < min || ns >= 2n ** 63n) {
    throw new QueryError(name, `${name} must be a duration${min > 0n ? ' of more than 0' : ''} (${examples}) or nanoseconds; got "${text}"`);
  }
  return ns;
}

function bool(name: string, text: string): boolean {
  if (text !== 'true' && text !== 'false') throw new QueryError(name, `${name} must be true or false; got "${text}"`);
  return text === 'true';
}

function attributeMatches(name: string, text: string): AttributeMatch[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new QueryError(name, `${name} must be a JSON object of attribute values, like {"http.route":"/api"}; got "${text}"`);
  }
  // Each key is one more condition of the query: SQLite refuses a statement past a depth of 1,000.
  const keys = Object.keys(parsed).length;
  if (keys > MAX_ATTRIBUTE_MATCHES) throw new QueryError(name, `${name} may name at most ${MAX_ATTRIBUTE_MATCHES} attributes; got ${keys}`);
  return Object.entries(parsed).map(([key, value]: [string, unknown]): AttributeMatch => {
    if (typeof value === 'string') return { key, type: 'text', value };
    if (typeof value === 'number') return { key, type: 'number', value };
    if (value === true || value === false || value === null) return { key, type: String(value) as 'true' | 'false' | 'null' };
    return { key, type: Array.isArray(value) ? 'array' : 'object', value: JSON.stringify(value) };
  });
}

/**
 * Parameters (name → value, in order) → the query of an aggregate path. `now` (nanoseconds) is the
 * default `to`; the caller's clock, so that tests can hold it.
 */
export function parseView(view: View, entries: Iterable<[string, string]>, now: bigint, shown: (name: string) => string = (n) => n): ViewQuery {
  const given: Filters & {
    limit?: number;
    step?: string;
    minDuration?: bigint;
    errors?: boolean;
    attributes?: AttributeMatch[];
    maxPoints?: number;
  } = {};
  eachParameter(VIEW_PARAMETERS[view], entries, shown, (name, label, value) => {
    if (filter(given, name, label, value)) return;
    switch (name) {
      case 'limit':
        // Only the paths that have a limit know the parameter.
        given.limit = integer(label, value, 1, VIEW_LIMITS[view as Limited].max);
        break;
      case 'step':
        // Checked once the range is known: its smallest is the range / 1000.
        given.step = value;
        break;
      case 'min_duration':
        given.minDuration = duration(label, value, '250ms, 1.5s', 0n);
        break;
      case 'errors':
        given.errors = bool(label, value);
        break;
      case 'attributes':
        given.attributes = attributeMatches(label, value);
        break;
      case 'max_points':
        given.maxPoints = integer(label, value, 1, MAX_POINTS);
        break;
    }
  });
  const to = given.to ?? now;
  const from = given.from ?? (to > HOUR ? to - HOUR : 0n);
  if (from >= to) {
    throw given.to === undefined
      ? new QueryError('from', `${shown('from')} must be before now (the default ${shown('to')})`)
      : new QueryError('to', `${shown('to')} must be after ${shown('from')}`);
  }
  if (to - from > MAX_RANGE) {
    throw new QueryError('from', `${shown('from')} must be at most 31 days before ${shown('to')}${given.to === undefined ? ' (now, when not given)' : ''}`);
  }
  const window = { from, to, service: given.service };
  const limit = (of: Limited): number => given.limit ?? VIEW_LIMITS[of].initial;
  switch (view) {
    case 'log_counts':
      return { kind: view, ...window, step: step(given.step, to - from, shown), severityMin: given.severityMin, traceId: given.traceId, q: given.q };
    case 'trace_summaries':
      return { kind: view, ...window, name: given.name, minDuration: given.minDuration, errors: given.errors ?? false, limit: limit(view) };
    case 'metric_names':
      return { kind: view, ...window, limit: limit(view) };
    case 'metric_series':
      if (given.name === undefined) throw new QueryError('name', `${shown('name')} is required here: the exact name of the metric whose series to read`);
      return { kind: view, ...window, name: given.name, attributes: given.attributes ?? [], limit: limit(view), maxPoints: given.maxPoints ?? DEFAULT_MAX_POINTS };
    case 'error_groups':
      return { kind: view, ...window, step: step(given.step, to - from, shown), limit: limit(view) };
  }
}

/** A bucket width: the one given, at most 1,000 buckets in `range`; else the range / 60 rounded up to a whole second. */
function step(text: string | undefined, range: bigint, shown: (name: string) => string): bigint {
  if (text === undefined) return ((range + DEFAULT_BUCKETS * SECOND - 1n) / (DEFAULT_BUCKETS * SECOND)) * SECOND;
  const label = shown('step');
  const ns = duration(label, text, '30s, 1m, 1h', 1n);
  const buckets = (range + ns - 1n) / ns;
  if (buckets > MAX_BUCKETS) {
    const least = (range + MAX_BUCKETS - 1n) / MAX_BUCKETS;
    throw new QueryError(label, `${label} ${text} makes ${buckets} buckets of the range from ${shown('from')} to ${shown('to')}, more than ${MAX_BUCKETS}: give a step of at least ${least} ns, or a shorter range`);
  }
  return ns;
}

/** The query of any read API path (one of QUERY_PATHS). */
export function parseRead(path: string, entries: Iterable<[string, string]>, now: bigint): ReadQuery {
  const signal = QUERY_SIGNALS.get(path);
  if (signal !== undefined) return parseQuery(signal, entries);
  if (isView(path)) return parseView(path, entries, now);
  throw new RangeError(`not a read API path: ${path}`);
}
