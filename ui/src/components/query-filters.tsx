// The filters the aggregate views share: the time range (a preset up to now, or a custom from/to)
// and the service, both in the address (range.ts's `range`, `from`, `to`; `service`), and a button
// that reads again (a preset's "now" moves on).
//
// data-testid: range-preset (the range's <select>), range-from, range-to, range-apply (a custom
// range's fields and its button), service-filter (the service's field), refresh.
import { useMemo, useState } from 'preact/hooks';
import { PRESETS, rangeFromParams, rangeToParams, resolveRange, type Preset, type Range } from '../lib/range';
import { navigate, useLocation } from '../url';
import './query-filters.css';

const PRESET_NAMES: Record<Preset, string> = { '15m': 'Last 15 minutes', '1h': 'Last hour', '24h': 'Last 24 hours', '7d': 'Last 7 days' };

export interface Query {
  range: Range;
  /** The range in nanoseconds, resolved when the view was opened or last refreshed. */
  from: bigint;
  to: bigint;
  /** '' for every service. */
  service: string;
  /** Text that changes whenever the query does, refreshes included: a read's key. */
  key: string;
  refresh: () => void;
}

/** The range and service of the address, resolved against the clock once per change or refresh. */
export function useQuery(): Query {
  const { query } = useLocation();
  const range = rangeFromParams(query);
  const service = query.get('service') ?? '';
  const [refreshes, setRefreshes] = useState(0);
  const rangeText = JSON.stringify(range);
  const resolved = useMemo(() => resolveRange(range, Date.now()), [rangeText, refreshes]);
  return {
    range,
    ...resolved,
    service,
    key: JSON.stringify([resolved.from.toString(), resolved.to.toString(), service]),
    refresh: () => setRefreshes((n) => n + 1),
  };
}

function writeQuery(change: (params: URLSearchParams) => void): void {
  const params = new URLSearchParams(location.search);
  change(params);
  const text = params.toString();
  navigate(`${location.pathname}${text === '' ? '' : `?${text}`}`);
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** Nanoseconds → a datetime-local field's value, in the browser's zone, to the second. */
function fieldValue(ns: bigint): string {
  const d = new Date(Number(ns / 1_000_000n));
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** A datetime-local field's value (the browser's zone) → nanoseconds; undefined when it is no time. */
function fieldNanos(value: string): bigint | undefined {
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? BigInt(ms) * 1_000_000n : undefined;
}

export function QueryFilters(props: { query: Query; idPrefix: string }) {
  const { query, idPrefix } = props;
  const [customising, setCustomising] = useState(false);
  const [message, setMessage] = useState('');
  const custom = customising || !('preset' in query.range);
  const choose = (value: string): void => {
    if (value === 'custom') {
      setCustomising(true);
      return;
    }
    setCustomising(false);
    setMessage('');
    if (value in PRESETS) writeQuery((params) => rangeToParams({ preset: value as Preset }, params));
  };
  const apply = (event: Event): void => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const from = fieldNanos((form.elements.namedItem('from') as HTMLInputElement).value);
    const to = fieldNanos((form.elements.namedItem('to') as HTMLInputElement).value);
    if (from === undefined || to === undefined || from >= to) {
      setMessage('Give a start before the end.');
      return;
    }
    setMessage('');
    setCustomising(false);
    writeQuery((params) => rangeToParams({ from: String(from), to: String(to) }, params));
  };
  const setService = (event: Event): void => {
    event.preventDefault();
    const form = (event.currentTarget as HTMLElement).closest('form') as HTMLFormElement;
    const value = (form.elements.namedItem('service') as HTMLInputElement).value.trim();
    if (value === query.service) return;
    writeQuery((params) => (value === '' ? params.delete('service') : params.set('service', value)));
  };
  return (
    <div class="query-filters" role="group" aria-label="Filters">
      <div class="field">
        <label for={`${idPrefix}-range`}>Time range</label>
        <select id={`${idPrefix}-range`} data-testid="range-preset" value={custom ? 'custom' : 'preset' in query.range ? query.range.preset : ''} onChange={(e) => choose(e.currentTarget.value)}>
          {(Object.keys(PRESETS) as Preset[]).map((preset) => (
            <option key={preset} value={preset}>
              {PRESET_NAMES[preset]}
            </option>
          ))}
          <option value="custom">Custom…</option>
        </select>
      </div>
      {custom && (
        // Keyed by the range, so that fields left half-typed give way to the range the address now holds.
        <form key={`${query.from}-${query.to}`} class="custom-range" onSubmit={apply}>
          <div class="field">
            <label for={`${idPrefix}-from`}>From</label>
            <input id={`${idPrefix}-from`} name="from" type="datetime-local" step={1} data-testid="range-from" defaultValue={fieldValue(query.from)} required />
          </div>
          <div class="field">
            <label for={`${idPrefix}-to`}>To</label>
            <input id={`${idPrefix}-to`} name="to" type="datetime-local" step={1} data-testid="range-to" defaultValue={fieldValue(query.to)} required />
          </div>
          <button type="submit" data-testid="range-apply">
            Apply
          </button>
          <p class="message" role="alert">
            {message}
          </p>
        </form>
      )}
      <form class="service-form" onSubmit={setService}>
        <div class="field">
          <label for={`${idPrefix}-service`}>Service</label>
          <input
            id={`${idPrefix}-service`}
            key={query.service}
            name="service"
            type="search"
            placeholder="every service"
            data-testid="service-filter"
            defaultValue={query.service}
            onChange={setService}
          />
        </div>
      </form>
      <button type="button" class="refresh" data-testid="refresh" onClick={query.refresh}>
        Refresh
      </button>
    </div>
  );
}
