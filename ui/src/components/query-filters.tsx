// The filters of the aggregate views (metrics, errors): the time range and the service, both in the
// address (range.ts's `range`, `from`, `to`; `service`), in the bar every view has (filter-bar.tsx).
//
// data-testid: those of FilterBar (filter-range, filter-from, filter-to, filter-range-message,
// filter-apply, filter-refresh), filter-service.
import { useMemo, useState } from 'preact/hooks';
import { resolveRange, type Range } from '../lib/range';
import { useFilters } from '../url';
import { Field, FilterBar, useDraft } from './filter-bar';
import { RANGE_FILTERS, rangeFilters, rangeOf } from './range-picker';

const QUERY_FILTERS = { ...RANGE_FILTERS, service: '' };

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
  setRange: (range: Range) => void;
  setService: (service: string) => void;
}

/** The range and service of the address, resolved against the clock once per change or refresh. */
export function useQuery(): Query {
  const [filters, setFilters] = useFilters(QUERY_FILTERS);
  const range = rangeOf(filters);
  const [refreshes, setRefreshes] = useState(0);
  const rangeText = JSON.stringify(range);
  const resolved = useMemo(() => resolveRange(range, Date.now()), [rangeText, refreshes]);
  return {
    range,
    ...resolved,
    service: filters.service,
    key: JSON.stringify([resolved.from.toString(), resolved.to.toString(), filters.service]),
    refresh: () => setRefreshes((n) => n + 1),
    setRange: (next) => setFilters(rangeFilters(next), 'push'),
    setService: (service) => setFilters({ service }, 'push'),
  };
}

export function QueryFilters(props: { query: Query }) {
  const { query } = props;
  const [draft, edit] = useDraft({ service: query.service });
  const apply = (): void => {
    const service = draft.service.trim();
    if (service !== query.service) query.setService(service);
  };
  return (
    <FilterBar label="Filters" range={query.range} onRange={query.setRange} onApply={apply} onRefresh={query.refresh}>
      <Field label="Service">
        <input type="search" data-testid="filter-service" autocomplete="off" spellcheck={false} placeholder="any" value={draft.service} onInput={(event) => edit({ service: event.currentTarget.value })} />
      </Field>
    </FilterBar>
  );
}
