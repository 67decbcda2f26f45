// The time range of a view: a preset (the last 15 minutes, hour, day, week) or a custom from/to,
// kept in the address as lib/range.ts writes it (`range`, or `from` and `to` in nanoseconds).
// Choosing "Custom" starts from the preset's range at that moment; each edit of From or To that
// leaves a valid range applies at once.
//
// data-testid: filter-range (the select), filter-from, filter-to (the custom range's inputs),
// filter-range-message (why an edited custom range was not applied).
import { useEffect, useState } from 'preact/hooks';
import { localInputToNanos, nanosToLocalInput, PRESETS, rangeFromParams, rangeToParams, resolveRange, type Preset, type Range } from '../lib/range';
import type { Filters } from '../url';

export type RangeFilter = 'range' | 'from' | 'to';

/** The range's members of a view's filters, for useFilters' defaults: each '' (not in the address). */
export const RANGE_FILTERS: Filters<RangeFilter> = { range: '', from: '', to: '' };

const PRESET_LABELS: Record<Preset, string> = { '15m': 'Last 15 minutes', '1h': 'Last hour', '24h': 'Last 24 hours', '7d': 'Last 7 days' };
const CUSTOM = 'custom';

export function rangeOf(filters: Filters<RangeFilter>): Range {
  const params = new URLSearchParams();
  for (const name of ['range', 'from', 'to'] as const) if (filters[name] !== '') params.set(name, filters[name]);
  return rangeFromParams(params);
}

/** A range as the changes of filters that write it: the members it does not use become '' (removed). */
export function rangeFilters(range: Range): Filters<RangeFilter> {
  const params = new URLSearchParams();
  rangeToParams(range, params);
  return { range: params.get('range') ?? '', from: params.get('from') ?? '', to: params.get('to') ?? '' };
}

export function RangePicker(props: { range: Range; onChange: (range: Range) => void }) {
  const { range, onChange } = props;
  const custom = !('preset' in range);
  const shownFrom = custom ? nanosToLocalInput(range.from) : '';
  const shownTo = custom ? nanosToLocalInput(range.to) : '';
  const [from, setFrom] = useState(shownFrom);
  const [to, setTo] = useState(shownTo);
  const [message, setMessage] = useState('');
  // The address changed under the inputs (back, a link): they show it again.
  useEffect(() => {
    setFrom(shownFrom);
    setTo(shownTo);
    setMessage('');
  }, [shownFrom, shownTo]);

  const choose = (value: string): void => {
    if (value !== CUSTOM) return onChange({ preset: value as Preset });
    const resolved = resolveRange(range, Date.now());
    onChange({ from: String(resolved.from), to: String(resolved.to) });
  };
  const edit = (nextFrom: string, nextTo: string): void => {
    setFrom(nextFrom);
    setTo(nextTo);
    const fromNanos = localInputToNanos(nextFrom);
    const toNanos = localInputToNanos(nextTo);
    if (fromNanos === undefined || toNanos === undefined) return setMessage('Give both From and To, to the minute at least.');
    if (BigInt(fromNanos) >= BigInt(toNanos)) return setMessage('From must be before To.');
    setMessage('');
    onChange({ from: fromNanos, to: toNanos });
  };

  return (
    <>
      <label class="field">
        <span>Time range</span>
        <select data-testid="filter-range" value={custom ? CUSTOM : range.preset} onChange={(event) => choose(event.currentTarget.value)}>
          {(Object.keys(PRESETS) as Preset[]).map((preset) => (
            <option key={preset} value={preset}>
              {PRESET_LABELS[preset]}
            </option>
          ))}
          <option value={CUSTOM}>Custom…</option>
        </select>
      </label>
      {custom && (
        <>
          <label class="field">
            <span>From</span>
            <input type="datetime-local" step="0.001" data-testid="filter-from" value={from} onChange={(event) => edit(event.currentTarget.value, to)} />
          </label>
          <label class="field">
            <span>To</span>
            <input type="datetime-local" step="0.001" data-testid="filter-to" value={to} onChange={(event) => edit(from, event.currentTarget.value)} />
          </label>
          <p class="message" role="alert" data-testid="filter-range-message">
            {message}
          </p>
        </>
      )}
    </>
  );
}
