// The typed client of every read API path (docs/read-api.md), with the key the user signed in with.
// The key lives in sessionStorage: it is gone when the tab is closed, is never in a URL, and is sent
// only to this origin, as a bearer token. The shapes of the answers are in rows.ts.
import type { Attributes, ErrorGroups, LogCounts, LogRow, MetricName, MetricRow, MetricSeries, Rows, SpanRow, TraceSummary } from './rows';

const KEY_ITEM = 'otelgate.key';

export function storedKey(): string | undefined {
  return sessionStorage.getItem(KEY_ITEM) ?? undefined;
}

export function storeKey(key: string): void {
  sessionStorage.setItem(KEY_ITEM, key);
}

/** Signing out forgets everything the tab kept, not only the key. */
export function clearSession(): void {
  sessionStorage.clear();
}

// ---- parameters ----

/** ISO 8601 with offset, or nanoseconds since the epoch as digits; `to` is exclusive. */
interface Range {
  from?: string;
  to?: string;
  /** Exactly this service.name. */
  service?: string;
}

export interface LogsParams extends Range {
  limit?: number;
  /** A number 1-24 or a level name (debug, info, warn, error, fatal, …). */
  severity_min?: string;
  trace_id?: string;
  /** The body contains this text (case-sensitive). */
  q?: string;
}

export interface SpansParams extends Range {
  limit?: number;
  trace_id?: string;
  name?: string;
}

export interface MetricsParams extends Range {
  limit?: number;
  name?: string;
}

/**
 * For the aggregate paths, a missing `to` is now and a missing `from` an hour before `to`; a
 * range over 31 days is refused. `step` is a duration (30s, 1m, 1h) or nanoseconds; by default the
 * range / 60, and at most 1,000 buckets.
 */
export interface LogCountsParams extends Range {
  severity_min?: string;
  trace_id?: string;
  q?: string;
  step?: string;
}

export interface TraceSummariesParams extends Range {
  /** Exactly the root span's name. */
  name?: string;
  /** A duration (250ms, 1.5s) or nanoseconds: traces at least this long. */
  min_duration?: string;
  /** true: only traces with a span whose status is error. */
  errors?: boolean;
  limit?: number;
}

export interface MetricNamesParams extends Range {
  limit?: number;
}

export interface MetricSeriesParams extends Range {
  name: string;
  /** Only series whose point attributes have each of these, compared as JSON values. */
  attributes?: Attributes;
  limit?: number;
  max_points?: number;
}

export interface ErrorGroupsParams extends Range {
  limit?: number;
  step?: string;
}

// ---- the client ----

/** A read that was answered with an error status (0: no answer at all), with the API's message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A parameter left undefined or empty is not sent; `attributes` goes as its JSON text. */
function search(params: object): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params) as [string, unknown][]) {
    if (value === undefined || value === '') continue;
    query.set(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}

async function get<T>(path: string, params: object, key: string, signal: AbortSignal | undefined): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/api/v1/query/${path}${search(params)}`, { headers: { Authorization: `Bearer ${key}` }, signal });
  } catch (error) {
    if (signal?.aborted === true) throw error;
    throw new ApiError(0, `otelgate could not be reached (${String(error)}).`);
  }
  if (response.ok) return (await response.json()) as T;
  const text = await response.text();
  let message = text;
  try {
    message = (JSON.parse(text) as { message?: string }).message ?? text;
  } catch {
    // Not the API's JSON (a proxy's page, say): its text is the best there is.
  }
  throw new ApiError(response.status, message);
}

/** Checks a key the way the viewer uses it: one read. Throws ApiError (401 when it cannot read). */
export async function checkKey(key: string): Promise<void> {
  await get<Rows<LogRow>>('logs', { limit: 1 }, key, undefined);
}

/**
 * Every read API path, with the stored key. A 401 (the key was revoked, or the session has none)
 * calls `onUnauthorized`, which signs out, then throws the ApiError as any other failure does.
 * `signal` cancels a read a view no longer needs.
 */
export class Api {
  constructor(private readonly onUnauthorized: () => void) {}

  private async read<T>(path: string, params: object, signal: AbortSignal | undefined): Promise<T> {
    const key = storedKey();
    try {
      if (key === undefined) throw new ApiError(401, 'Not signed in.');
      return await get<T>(path, params, key, signal);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) this.onUnauthorized();
      throw error;
    }
  }

  logs(params: LogsParams, signal?: AbortSignal): Promise<Rows<LogRow>> {
    return this.read('logs', params, signal);
  }

  spans(params: SpansParams, signal?: AbortSignal): Promise<Rows<SpanRow>> {
    return this.read('spans', params, signal);
  }

  metrics(params: MetricsParams, signal?: AbortSignal): Promise<Rows<MetricRow>> {
    return this.read('metrics', params, signal);
  }

  logCounts(params: LogCountsParams, signal?: AbortSignal): Promise<LogCounts> {
    return this.read('log_counts', params, signal);
  }

  traceSummaries(params: TraceSummariesParams, signal?: AbortSignal): Promise<Rows<TraceSummary>> {
    return this.read('trace_summaries', params, signal);
  }

  metricNames(params: MetricNamesParams, signal?: AbortSignal): Promise<Rows<MetricName>> {
    return this.read('metric_names', params, signal);
  }

  metricSeries(params: MetricSeriesParams, signal?: AbortSignal): Promise<Rows<MetricSeries>> {
    return this.read('metric_series', params, signal);
  }

  errorGroups(params: ErrorGroupsParams, signal?: AbortSignal): Promise<ErrorGroups> {
    return this.read('error_groups', params, signal);
  }
}
