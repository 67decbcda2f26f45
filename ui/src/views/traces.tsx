// The traces view. At /ui/traces, the recent traces (read API trace_summaries), newest first,
// filtered by time range, service, root span name, minimum duration and errors only, all in the
// address; each opens its trace, keeping the filters for the way back. At /ui/traces/<trace id>,
// one trace: its spans as a waterfall (components/trace-waterfall.tsx) and its logs, oldest first
// so that they read along the waterfall, from the trace's start minus a minute to its end plus one.
//
// data-testid: view-traces (the root of both pages, with data-state loading → ready | error).
// The list: traces-filters (the form, components/filter-bar.tsx's, with its filter-range,
// filter-from, filter-to, filter-range-message, filter-apply, filter-refresh; and filter-service,
// filter-name, filter-min-duration, filter-errors, filter-limit), traces-message (why the read
// failed: the read API's refusal, components/use-read.ts's messageOf), traces-count, traces-table,
// trace-row (each, with data-trace-id; its cells trace-start, trace-root (the link to the trace),
// trace-service, trace-duration, trace-spans, trace-errors), traces-empty, traces-more (the limit
// was reached).
// A trace: trace-detail, traces-back (to the list), trace-id, trace-summary, trace-message (a read
// refused), trace-empty (no spans stored), trace-truncated; the waterfall's and the span details'
// own; trace-logs (the logs section), trace-logs-link (to the logs view), trace-log (each, with
// trace-log-time, trace-log-severity, trace-log-service, trace-log-span, trace-log-body),
// trace-logs-empty, trace-logs-message, trace-logs-more.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiError, type Api } from '../api';
import { Link } from '../components/link';
import { CheckField, Field, FilterBar, useDraft } from '../components/filter-bar';
import { RANGE_FILTERS, rangeFilters, rangeOf } from '../components/range-picker';
import { TraceWaterfall } from '../components/trace-waterfall';
import { useRead } from '../components/use-read';
import { formatDuration, formatTime, severityBand } from '../lib/format';
import { resolveRange } from '../lib/range';
import { rootOf, waterfall } from '../lib/waterfall';
import type { LogRow, Rows, SpanRow, TraceSummary } from '../rows';
import { BASE, navigate, routeOf, traceHref, useFilters, useLocation } from '../url';
import './traces.css';

export function TracesView(props: { api: Api }) {
  const route = routeOf(useLocation().path);
  const traceId = route.view === 'traces' ? route.traceId : undefined;
  // Keyed: another trace starts from nothing, its spans' details closed.
  return traceId === undefined ? <TraceList api={props.api} /> : <TracePage key={traceId} api={props.api} traceId={traceId} />;
}

// ---- the list ----

const LIST_FILTERS = { ...RANGE_FILTERS, service: '', name: '', min_duration: '', errors: '', limit: '' };
const LIMITS = ['20', '50', '100', '200', '500', '1000'];
/** The read API's default. */
const DEFAULT_LIMIT = '100';

function TraceList(props: { api: Api }) {
  const [filters, setFilters] = useFilters(LIST_FILTERS);
  const search = location.search;
  const range = rangeOf(filters);
  // A preset range moves with the clock: Refresh reads it again up to now.
  const [refreshes, setRefreshes] = useState(0);
  const read = useRead(`${search}#${refreshes}`, (signal) => {
    const { from, to } = resolveRange(range, Date.now());
    return props.api.traceSummaries(
      {
        from: String(from),
        to: String(to),
        service: filters.service,
        name: filters.name,
        min_duration: filters.min_duration,
        errors: filters.errors === 'true' ? true : undefined,
        limit: filters.limit === '' ? undefined : Number(filters.limit),
      },
      signal,
    );
  });
  const state = read.state === 'idle' ? 'loading' : read.state;
  const rows = read.state === 'ready' ? read.data.rows : read.state === 'loading' ? read.previous?.rows : undefined;

  const [draft, edit] = useDraft({ service: filters.service, name: filters.name, min_duration: filters.min_duration });
  const apply = (): void => {
    setFilters({ service: draft.service.trim(), name: draft.name.trim(), min_duration: draft.min_duration.trim() }, 'push');
  };
  const limit = filters.limit === '' ? DEFAULT_LIMIT : filters.limit;
  const services = useMemo(() => [...new Set((rows ?? []).flatMap((row) => row.services))].sort(), [rows]);
  const names = useMemo(() => [...new Set((rows ?? []).map((row) => row.root_name))].sort(), [rows]);

  return (
    <section class="view traces-view" data-testid="view-traces" data-state={state} aria-busy={state === 'loading'}>
      <h1>Traces</h1>
      <FilterBar
        label="Filter the traces"
        testid="traces-filters"
        range={range}
        onRange={(next) => setFilters(rangeFilters(next), 'push')}
        onApply={apply}
        onRefresh={() => setRefreshes(refreshes + 1)}
        footer={
          <>
            <p id="min-duration-hint" class="hint filters-hint">
              Service and root span name match exactly; a duration is written as 250ms, 1.5s or 2m (digits alone are nanoseconds).
            </p>
            <datalist id="trace-services">
              {services.map((service) => (
                <option key={service} value={service} />
              ))}
            </datalist>
            <datalist id="trace-names">
              {names.map((name) => (
                <option key={name} value={name} />
              ))}
            </datalist>
          </>
        }
      >
        <Field label="Service">
          <input data-testid="filter-service" list="trace-services" value={draft.service} placeholder="any" onInput={(event) => edit({ service: event.currentTarget.value })} />
        </Field>
        <Field label="Root span name">
          <input data-testid="filter-name" list="trace-names" value={draft.name} placeholder="any" onInput={(event) => edit({ name: event.currentTarget.value })} />
        </Field>
        <Field label="Min duration" size="short">
          <input
            data-testid="filter-min-duration"
            value={draft.min_duration}
            placeholder="250ms, 1.5s"
            aria-describedby="min-duration-hint"
            onInput={(event) => edit({ min_duration: event.currentTarget.value })}
          />
        </Field>
        <CheckField label="Errors only" testid="filter-errors" checked={filters.errors === 'true'} onChange={(checked) => setFilters({ errors: checked ? 'true' : '' }, 'push')} />
        <Field label="Show" size="short">
          <select data-testid="filter-limit" value={limit} onChange={(event) => setFilters({ limit: event.currentTarget.value === DEFAULT_LIMIT ? '' : event.currentTarget.value }, 'push')}>
            {(LIMITS.includes(limit) ? LIMITS : [...LIMITS, limit]).map((n) => (
              <option key={n} value={n}>
                {n} traces
              </option>
            ))}
          </select>
        </Field>
      </FilterBar>

      {read.state === 'error' && (
        <p class="message" role="alert" data-testid="traces-message">
          {read.message}
        </p>
      )}
      {rows !== undefined && <TraceTable rows={rows} search={search} limit={Number(limit)} stale={state !== 'ready'} />}
      {rows === undefined && state === 'loading' && <p class="muted">Loading the traces…</p>}
    </section>
  );
}

function TraceTable(props: { rows: TraceSummary[]; search: string; limit: number; stale: boolean }) {
  const { rows, search } = props;
  if (rows.length === 0) {
    return (
      <p class="empty" data-testid="traces-empty">
        No traces started in this time range with these filters.
      </p>
    );
  }
  // A click anywhere on a row opens it too; a drag that selects text does not.
  const open = (event: MouseEvent, traceId: string): void => {
    if ((event.target as Element).closest('a') !== null || getSelection()?.toString() !== '') return;
    navigate(traceHref(traceId, search));
  };
  return (
    <>
      <p class="muted" data-testid="traces-count" aria-live="polite">
        {rows.length === 1 ? '1 trace' : `${rows.length} traces`}, newest first
      </p>
      <table class={`traces data-table${props.stale ? ' stale' : ''}`} data-testid="traces-table">
        <thead>
          <tr>
            <th scope="col">Start</th>
            <th scope="col">Root span</th>
            <th scope="col">Service</th>
            <th scope="col" class="num">
              Duration
            </th>
            <th scope="col" class="num">
              Spans
            </th>
            <th scope="col">Errors</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.trace_id}
              data-testid="trace-row"
              data-trace-id={row.trace_id}
              onClick={(event) => open(event, row.trace_id)}
              onKeyDown={(event) => {
                // Space opens the row, as Enter does on its link.
                if (event.key === ' ' && (event.target as Element).closest('a') !== null) {
                  event.preventDefault();
                  navigate(traceHref(row.trace_id, search));
                }
              }}
            >
              <td data-label="Start" data-testid="trace-start">
                {formatTime(row.start_time_unix_nano)}
              </td>
              <td data-label="Root span" class="root">
                <Link href={traceHref(row.trace_id, search)} testid="trace-root">
                  {row.root_name === '' ? '(no name)' : row.root_name}
                </Link>
              </td>
              <td data-label="Service" data-testid="trace-service">
                {row.root_service}
              </td>
              <td data-label="Duration" class="num" data-testid="trace-duration">
                {formatDuration(row.duration_nano)}
              </td>
              <td data-label="Spans" class="num" data-testid="trace-spans">
                {row.span_count}
              </td>
              <td data-label="Errors" data-testid="trace-errors">
                {row.error_count > 0 ? <span class="badge badge-error">{row.error_count === 1 ? '1 error' : `${row.error_count} errors`}</span> : <span class="muted">none</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length >= props.limit && (
        <p class="hint" data-testid="traces-more">
          These are the newest {props.limit}: narrow the range or the filters, or show more, to see older ones.
        </p>
      )}
    </>
  );
}

// ---- one trace ----

/** The most spans read: the read API's most rows an answer. */
const SPAN_LIMIT = 10_000;
const LOG_LIMIT = 1_000;
/** Logs of a trace are looked for from this long before its first span to this long after its last end. */
const LOG_MARGIN_NANO = 60_000_000_000n;

interface TraceData {
  spans: SpanRow[];
  spansTruncated: boolean;
  /** The trace's logs newest first, or why they could not be read; none without spans. */
  logs?: { rows: LogRow[]; from: bigint; to: bigint } | { error: string };
}

async function readTrace(api: Api, traceId: string, signal: AbortSignal): Promise<TraceData> {
  const spans: Rows<SpanRow> = await api.spans({ trace_id: traceId, limit: SPAN_LIMIT }, signal);
  const truncated = spans.truncated === true || spans.rows.length >= SPAN_LIMIT;
  if (spans.rows.length === 0) return { spans: [], spansTruncated: false };
  // The trace's time bounds the logs' scan, which has no index on trace_id.
  const layout = waterfall(spans.rows);
  const lower = layout.startNano - LOG_MARGIN_NANO;
  const from = lower < 0n ? 0n : lower;
  const to = layout.startNano + layout.durationNano + LOG_MARGIN_NANO;
  try {
    const logs = await api.logs({ trace_id: traceId, from: String(from), to: String(to), limit: LOG_LIMIT }, signal);
    return { spans: spans.rows, spansTruncated: truncated, logs: { rows: logs.rows, from, to } };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status === 401) throw error;
    return { spans: spans.rows, spansTruncated: truncated, logs: { error: error.message } };
  }
}

function TracePage(props: { api: Api; traceId: string }) {
  const { traceId } = props;
  const search = useLocation().query.toString();
  const query = search === '' ? '' : `?${search}`;
  const read = useRead(traceId, (signal) => readTrace(props.api, traceId, signal));
  const data = read.state === 'ready' ? read.data : undefined;
  const state = (data?.logs !== undefined && 'error' in data.logs) || read.state === 'error' ? 'error' : data === undefined ? 'loading' : 'ready';
  const heading = useRef<HTMLHeadingElement>(null);
  // Opened from a list or a link, the keyboard starts at the trace, not at the top of the page.
  useEffect(() => heading.current?.focus(), []);

  return (
    <section class="view traces-view" data-testid="view-traces" data-state={state} aria-busy={state === 'loading'}>
      <div data-testid="trace-detail">
        <p class="back">
          <Link href={`${BASE}traces${query}`} testid="traces-back">
            ← Traces
          </Link>
        </p>
        <h1 ref={heading} tabIndex={-1}>
          Trace <code data-testid="trace-id">{traceId}</code>
        </h1>
        {read.state === 'error' && (
          <p class="message" role="alert" data-testid="trace-message">
            {read.message}
          </p>
        )}
        {state === 'loading' && <p class="muted">Loading the trace…</p>}
        {data !== undefined && data.spans.length === 0 && (
          <p class="empty" data-testid="trace-empty">
            No spans stored for this trace id. Its spans may not have arrived yet, or were kept elsewhere.{' '}
            <Link href={`${BASE}logs?${new URLSearchParams({ trace_id: traceId }).toString()}`}>Look for logs with this trace id</Link>.
          </p>
        )}
        {data !== undefined && data.spans.length > 0 && <TraceBody traceId={traceId} data={data} search={query} />}
      </div>
    </section>
  );
}

function TraceBody(props: { traceId: string; data: TraceData; search: string }) {
  const { spans, spansTruncated, logs } = props.data;
  const summary = useMemo(() => {
    const layout = waterfall(spans);
    // As the list names it, which a waterfall's first row is not always: a span whose parent has not arrived is a root there too.
    const root = rootOf(spans);
    const services = [...new Set(spans.map((span) => span.service_name))].sort();
    const errors = spans.filter((span) => span.status_code === 2).length;
    return { root, services, errors, start: layout.startNano, duration: layout.durationNano };
  }, [spans]);
  const spanNames = useMemo(() => new Map(spans.map((span) => [span.span_id, span.name])), [spans]);

  return (
    <>
      <dl class="facts summary" data-testid="trace-summary">
        <dt>Root span</dt>
        <dd>{summary.root?.name}</dd>
        <dt>Started</dt>
        <dd>{formatTime(String(summary.start))}</dd>
        <dt>Duration</dt>
        <dd>{formatDuration(summary.duration)}</dd>
        <dt>Spans</dt>
        <dd>{spans.length}</dd>
        <dt>Services</dt>
        <dd>{summary.services.join(', ')}</dd>
        <dt>Errors</dt>
        <dd>{summary.errors > 0 ? <span class="badge badge-error">{summary.errors === 1 ? '1 error span' : `${summary.errors} error spans`}</span> : 'none'}</dd>
      </dl>
      {spansTruncated && (
        <p class="hint" data-testid="trace-truncated">
          This trace has more spans than one read returns ({SPAN_LIMIT.toLocaleString('en')}): the newest are shown.
        </p>
      )}
      <h2>Spans</h2>
      <p class="hint">Select a span for its attributes, events and links.</p>
      <TraceWaterfall spans={spans} search={props.search} />
      {logs !== undefined && <TraceLogs traceId={props.traceId} logs={logs} spanNames={spanNames} />}
    </>
  );
}

function TraceLogs(props: { traceId: string; logs: NonNullable<TraceData['logs']>; spanNames: Map<string, string> }) {
  const { logs } = props;
  const link = new URLSearchParams({ trace_id: props.traceId });
  if ('rows' in logs) {
    link.set('from', String(logs.from));
    link.set('to', String(logs.to));
  }
  // Read newest first (the read API's order); shown oldest first, as the waterfall runs.
  const rows = 'rows' in logs ? [...logs.rows].reverse() : [];
  return (
    <section class="trace-logs" data-testid="trace-logs" aria-labelledby="trace-logs-heading">
      <h2 id="trace-logs-heading">Logs</h2>
      <p class="hint">
        Log records with this trace id, oldest first.{' '}
        <Link href={`${BASE}logs?${link.toString()}`} testid="trace-logs-link">
          Open them in the logs view
        </Link>
      </p>
      {'error' in logs && (
        <p class="message" role="alert" data-testid="trace-logs-message">
          The logs could not be read: {logs.error}
        </p>
      )}
      {'rows' in logs && rows.length === 0 && (
        <p class="muted" data-testid="trace-logs-empty">
          No logs stored with this trace id.
        </p>
      )}
      {rows.length > 0 && (
        <ol class="log-lines">
          {rows.map((row, i) => {
            const band = severityBand(row.severity_number);
            const span = props.spanNames.get(row.span_id);
            return (
              <li key={i} data-testid="trace-log">
                <time data-testid="trace-log-time">{formatTime(row.time_unix_nano)}</time>
                <span class={`badge sev-${band} sev-fill`} data-testid="trace-log-severity">
                  {row.severity_text === '' ? band : row.severity_text}
                </span>
                <span class="log-service" data-testid="trace-log-service">
                  {row.service_name}
                </span>
                {span !== undefined && (
                  <span class="log-span" data-testid="trace-log-span" title={`Span ${row.span_id}`}>
                    in {span}
                  </span>
                )}
                <span class="log-body" data-testid="trace-log-body">
                  {row.body}
                </span>
              </li>
            );
          })}
        </ol>
      )}
      {rows.length >= LOG_LIMIT && (
        <p class="hint" data-testid="trace-logs-more">
          The newest {LOG_LIMIT.toLocaleString('en')} are shown: the logs view has them all.
        </p>
      )}
    </section>
  );
}
