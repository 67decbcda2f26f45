// The logs view: the project's log records newest first, filtered by time range, service, minimum
// severity, trace id and text in the body (the read API's /logs parameters, the same ones for the
// histogram of counts by severity above the table, from /log_counts), all of them in the address.
// A row opens to the record in full. Live mode reads every POLL_MS the rows from the end of the read
// before up to now (lib/logs.ts's nextWindow) and puts them on top, the range moving with the clock.
//
// data-testid: view-logs (the view's root; data-state loading → ready once both the rows and the
// counts are on screen, or error), logs-error (what the read API refused, or could not answer),
// logs-count (how many rows, with data-count), logs-live (shown while live), logs-live-missed (a
// live read came back full: rows between were not read), and those of
// LogFilters, LogHistogram, LogTable and LogDetail (ui/src/components/log-*.tsx).
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Api } from '../api';
import { LogDetail } from '../components/log-detail';
import { LogFilters, type LogFilterValues } from '../components/log-filters';
import { LogHistogram } from '../components/log-histogram';
import { LogTable, type LogTableHandle } from '../components/log-table';
import { RANGE_FILTERS, rangeFilters, rangeOf } from '../components/range-picker';
import { messageOf } from '../components/use-read';
import { histogramOf, type Histogram } from '../lib/histogram';
import { mergeLive, nextWindow } from '../lib/logs';
import { resolveRange, type Range } from '../lib/range';
import type { LogRow } from '../rows';
import { useFilters } from '../url';
import './logs.css';

/** The filters in the address: range/from/to as lib/range.ts writes them, live=1 for live mode. */
const DEFAULTS = { ...RANGE_FILTERS, service: '', severity_min: '', trace_id: '', q: '', limit: '1000', live: '' };
const POLL_MS = 2000;

/**
 * The two answers are kept apart, each shown as it comes (on a big store the rows take a fraction
 * of the counts' time), each part of the view keeping its last answer until the next. `key` says
 * which filters an answer is to.
 */
interface RowsAnswer {
  key: string;
  rows?: LogRow[];
  truncated?: boolean;
  /** Where live mode reads on from: the end of the read before. */
  to?: bigint;
  /** A live read came back full: some rows of its window were not read. */
  missed?: boolean;
  error?: string;
  /** The last live update's failure; the next one tries again. */
  liveError?: string;
}

interface CountsAnswer {
  key: string;
  histogram?: Histogram;
  error?: string;
}

/** What the rows and counts shown answer: the filters but live mode, and how many times Apply read them again. */
const keyOf = (f: Omit<LogFilterValues, 'live'>, refresh: number): string => JSON.stringify([f.range, f.service, f.severity_min, f.trace_id, f.q, f.limit, refresh]);

const failure = (result: PromiseSettledResult<unknown>): string | undefined => (result.status === 'rejected' ? messageOf(result.reason) : undefined);

const servicesOf = (known: readonly string[], rows: readonly LogRow[]): string[] => [...new Set([...known, ...rows.map((row) => row.service_name).filter((name) => name !== '')])].sort();

export function LogsView(props: { api: Api }) {
  const { api } = props;
  const [filters, setFilters] = useFilters(DEFAULTS);
  const range: Range = rangeOf(filters);
  const { service, severity_min, trace_id, q, limit } = filters;
  const live = filters.live === '1' && 'preset' in range;
  const [refresh, setRefresh] = useState(0);
  const key = keyOf({ range, service, severity_min, trace_id, q, limit }, refresh);
  const [rowsAnswer, setRowsAnswer] = useState<RowsAnswer>();
  const [countsAnswer, setCountsAnswer] = useState<CountsAnswer>();
  const [services, setServices] = useState<string[]>([]);
  const [opened, setOpened] = useState<LogRow>();
  const table = useRef<LogTableHandle | undefined>(undefined);
  const shown = useRef<RowsAnswer | undefined>(undefined);
  shown.current = rowsAnswer;

  // Both reads take the same filters; only /logs takes the limit.
  const filtersFor = (from: bigint, to: bigint) => ({ from: String(from), to: String(to), service, severity_min, trace_id, q });

  useEffect(() => {
    const controller = new AbortController();
    const { from, to } = resolveRange(range, Date.now());
    setOpened(undefined);
    const current = (): boolean => !controller.signal.aborted;
    api.logs({ ...filtersFor(from, to), limit: Number(limit) }, controller.signal).then(
      (got) => {
        if (!current()) return;
        setRowsAnswer({ key, rows: got.rows, truncated: got.truncated === true, to, missed: false });
        setServices((known) => servicesOf(known, got.rows));
      },
      (error: unknown) => {
        if (current()) setRowsAnswer({ key, error: messageOf(error) });
      },
    );
    api.logCounts(filtersFor(from, to), controller.signal).then(
      (counts) => {
        if (current()) setCountsAnswer({ key, histogram: histogramOf(counts) });
      },
      (error: unknown) => {
        if (current()) setCountsAnswer({ key, error: messageOf(error) });
      },
    );
    return () => controller.abort();
  }, [key]);

  const rowsNow = rowsAnswer?.key === key ? rowsAnswer : undefined;
  const countsNow = countsAnswer?.key === key ? countsAnswer : undefined;
  const canPoll = live && rowsNow?.rows !== undefined;
  useEffect(() => {
    if (!canPoll) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout>;
    const poll = async (): Promise<void> => {
      const { from, to } = resolveRange(range, Date.now());
      const last = shown.current?.key === key ? shown.current.to : undefined;
      const next = last === undefined ? undefined : nextWindow(last, from, to);
      const [newer, counts] = await Promise.allSettled([
        next === undefined ? Promise.resolve(undefined) : api.logs({ ...filtersFor(next.from, next.to), limit: Number(limit) }, controller.signal),
        api.logCounts(filtersFor(from, to), controller.signal),
      ]);
      if (controller.signal.aborted) return;
      const read = newer.status === 'fulfilled' && next !== undefined ? newer.value : undefined;
      setRowsAnswer((old) => {
        if (old?.key !== key || old.rows === undefined || old.to === undefined) return old;
        const merged = read === undefined || next === undefined ? {} : mergeLive({ rows: old.rows, to: old.to, missed: old.missed === true }, next, read, from, Number(limit));
        return { ...old, ...merged, liveError: failure(newer) ?? failure(counts) };
      });
      if (counts.status === 'fulfilled') setCountsAnswer({ key, histogram: histogramOf(counts.value) });
      if (read !== undefined) setServices((known) => servicesOf(known, read.rows));
      timer = setTimeout(() => void poll(), POLL_MS);
    };
    timer = setTimeout(() => void poll(), POLL_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [canPoll, key]);

  const apply = (value: LogFilterValues): void => {
    // Apply with nothing changed reads again: the newest rows of a range that moves with the clock.
    if (keyOf(value, refresh) === key && value.live === live) {
      setRefresh((n) => n + 1);
      return;
    }
    setFilters({ ...rangeFilters(value.range), service: value.service, severity_min: value.severity_min, trace_id: value.trace_id, q: value.q, limit: value.limit, live: value.live ? '1' : '' }, 'push');
  };

  const close = (): void => {
    const row = opened;
    setOpened(undefined);
    if (row !== undefined) table.current?.focusRow(row);
  };

  const failed = rowsNow?.error !== undefined || countsNow?.error !== undefined;
  const state = failed ? 'error' : rowsNow !== undefined && countsNow !== undefined ? 'ready' : 'loading';
  const errors = [...new Set([rowsNow?.error, countsNow?.error, rowsNow?.liveError].filter((error) => error !== undefined))];
  const rows = rowsAnswer?.rows;
  return (
    <section class="view logs-view" data-testid="view-logs" data-state={state} aria-busy={state === 'loading'}>
      <h1>Logs</h1>
      <LogFilters value={{ range, service, severity_min, trace_id, q, limit, live }} services={services} onApply={apply} onRefresh={() => setRefresh((n) => n + 1)} />
      <div class="message" role="alert" data-testid="logs-error">
        {errors.map((error) => (
          <p key={error}>{error}</p>
        ))}
      </div>
      <LogHistogram histogram={countsAnswer?.histogram} error={countsAnswer?.error === undefined ? undefined : 'No counts.'} />
      <div class={`logs-main${opened === undefined ? '' : ' with-detail'}`}>
        <div class="logs-list">
          <h2 class="visually-hidden">Log records</h2>
          {rowsAnswer !== undefined && rows !== undefined && <LogTable key={rowsAnswer.key} rows={rows} opened={opened} onOpen={setOpened} onClose={close} handle={table} />}
          <p class="hint logs-count" data-testid="logs-count" data-count={rows?.length ?? 0}>
            {rows === undefined ? (rowsAnswer === undefined ? 'Reading…' : '') : countText(rows.length, Number(limit), rowsAnswer?.truncated === true)}
            {live && (
              <span class="live-on" data-testid="logs-live">
                {' '}
                Live: updated every {POLL_MS / 1000} s.
              </span>
            )}
          </p>
          {rowsAnswer?.missed === true && (
            <p class="hint" data-testid="logs-live-missed">
              More than {Number(limit).toLocaleString('en')} records arrived between two updates: the older of them are not shown. Apply to read the range again.
            </p>
          )}
        </div>
        {opened !== undefined && <LogDetail row={opened} onClose={close} />}
      </div>
    </section>
  );
}

function countText(count: number, limit: number, truncated: boolean): string {
  const n = `${count.toLocaleString('en')} log record${count === 1 ? '' : 's'}, newest first.`;
  if (truncated) return `${n} The answer stopped at 32 MiB: narrow the range for older ones.`;
  if (count === limit) return `${n} That is the limit: narrow the filters or show more rows for older ones.`;
  return n;
}
