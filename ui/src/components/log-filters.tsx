// The logs view's filters in the bar every view has (filter-bar.tsx): the time range, service,
// minimum severity, trace id, text in the body, how many rows, and live mode. A choice in a list or
// the live box applies at once, with whatever the text fields hold; the text fields apply on Enter
// or Apply. The view writes what is applied into the address.
//
// data-testid: those of FilterBar (filter-range, filter-from, filter-to, filter-range-message,
// filter-apply, filter-refresh), filter-service, filter-severity, filter-trace, filter-q,
// filter-limit, filter-live.
import { SEVERITY_BANDS } from '../lib/format';
import { DEFAULT_RANGE, type Range } from '../lib/range';
import { CheckField, Field, FilterBar, useDraft } from './filter-bar';

export interface LogFilterValues {
  range: Range;
  service: string;
  /** As the read API takes it: a band's name, or whatever the address said (a number, another level name). */
  severity_min: string;
  trace_id: string;
  q: string;
  limit: string;
  live: boolean;
}

const LIMITS = ['100', '1000', '10000'] as const;
/** Every band but unspecified: a minimum of 0 is no filter. */
const MINIMUMS = SEVERITY_BANDS.filter((band) => band !== 'unspecified');

/** A select's options, and the address's own value among them when it is none of them (limit=50). */
function withCurrent(options: readonly string[], current: string): readonly string[] {
  return current === '' || options.includes(current) ? options : [...options, current];
}

export function LogFilters(props: { value: LogFilterValues; services: readonly string[]; onApply: (value: LogFilterValues) => void; onRefresh: () => void }) {
  const { value } = props;
  const [draft, edit] = useDraft({ service: value.service, trace_id: value.trace_id, q: value.q });

  const apply = (changes: Partial<LogFilterValues>): void => {
    props.onApply({ ...value, service: draft.service.trim(), trace_id: draft.trace_id.trim(), q: draft.q, ...changes });
  };
  // Live follows the clock: a custom range gives way to the default one.
  const toggleLive = (on: boolean): void => apply(on && 'from' in value.range ? { live: on, range: DEFAULT_RANGE } : { live: on });

  const live = value.live && 'preset' in value.range;
  return (
    <FilterBar
      label="Filters"
      range={value.range}
      onRange={(range) => apply({ range })}
      onApply={() => apply({})}
      onRefresh={props.onRefresh}
      actions={<CheckField label="Live" testid="filter-live" checked={live} onChange={toggleLive} />}
      footer={
        <datalist id="logs-services">
          {props.services.map((service) => (
            <option key={service} value={service} />
          ))}
        </datalist>
      }
    >
      <Field label="Service">
        <input
          list="logs-services"
          data-testid="filter-service"
          autocomplete="off"
          spellcheck={false}
          placeholder="any"
          value={draft.service}
          onInput={(event) => edit({ service: event.currentTarget.value })}
        />
      </Field>
      <Field label="Minimum severity">
        <select data-testid="filter-severity" value={value.severity_min} onChange={(event) => apply({ severity_min: event.currentTarget.value })}>
          <option value="">any</option>
          {withCurrent(MINIMUMS, value.severity_min).map((band) => (
            <option key={band} value={band}>
              {band}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Trace id" size="wide">
        <input
          class="mono"
          data-testid="filter-trace"
          autocomplete="off"
          spellcheck={false}
          placeholder="32 hex digits"
          value={draft.trace_id}
          onInput={(event) => edit({ trace_id: event.currentTarget.value })}
        />
      </Field>
      <Field label="Body contains" size="wide">
        <input type="search" data-testid="filter-q" placeholder="text (case-sensitive)" value={draft.q} onInput={(event) => edit({ q: event.currentTarget.value })} />
      </Field>
      <Field label="Rows" size="short">
        <select data-testid="filter-limit" value={value.limit} onChange={(event) => apply({ limit: event.currentTarget.value })}>
          {withCurrent(LIMITS, value.limit).map((limit) => (
            <option key={limit} value={limit}>
              {/^\d+$/.test(limit) ? Number(limit).toLocaleString('en') : limit}
            </option>
          ))}
        </select>
      </Field>
    </FilterBar>
  );
}
