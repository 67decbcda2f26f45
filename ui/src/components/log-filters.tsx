// The logs view's filters: the time range (RangePicker: a preset, or a custom from/to that applies
// as it is edited), service, minimum severity, trace id, text in the body, how many rows, and live
// mode. A choice in a list or the live box applies at once, with whatever the text fields hold;
// the text fields apply on Enter or Apply. The view writes what is applied into the address.
//
// data-testid: those of RangePicker (filter-range, filter-from, filter-to, filter-range-message),
// filter-service, filter-severity, filter-trace, filter-q, filter-limit, filter-live, filter-apply.
import { useEffect, useState } from 'preact/hooks';
import { SEVERITY_BANDS } from '../lib/format';
import { DEFAULT_RANGE, type Range } from '../lib/range';
import { RangePicker } from './range-picker';

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

/** What the text fields hold, applied or not. */
interface Draft {
  service: string;
  trace_id: string;
  q: string;
}

const draftOf = (value: LogFilterValues): Draft => ({ service: value.service, trace_id: value.trace_id, q: value.q });

/** A select's options, and the address's own value among them when it is none of them (limit=50). */
function withCurrent(options: readonly string[], current: string): readonly string[] {
  return current === '' || options.includes(current) ? options : [...options, current];
}

export function LogFilters(props: { value: LogFilterValues; services: readonly string[]; onApply: (value: LogFilterValues) => void }) {
  const { value } = props;
  const [draft, setDraft] = useState(() => draftOf(value));
  const applied = JSON.stringify(draftOf(value));
  // The address changed (back, forward, a link): the fields show what it holds.
  useEffect(() => setDraft(draftOf(value)), [applied]);

  const edit = (changes: Partial<Draft>): void => setDraft((old) => ({ ...old, ...changes }));
  const apply = (changes: Partial<LogFilterValues>): void => {
    props.onApply({ ...value, service: draft.service.trim(), trace_id: draft.trace_id.trim(), q: draft.q, ...changes });
  };
  // Live follows the clock: a custom range gives way to the default one.
  const toggleLive = (on: boolean): void => apply(on && 'from' in value.range ? { live: on, range: DEFAULT_RANGE } : { live: on });

  const live = value.live && 'preset' in value.range;
  return (
    <form
      class="filters"
      aria-label="Filters"
      onSubmit={(event) => {
        event.preventDefault();
        apply({});
      }}
    >
      <RangePicker range={value.range} onChange={(range) => apply({ range })} />
      <div class="field">
        <label for="logs-service">Service</label>
        <input
          id="logs-service"
          list="logs-services"
          data-testid="filter-service"
          autocomplete="off"
          spellcheck={false}
          placeholder="any"
          value={draft.service}
          onInput={(event) => edit({ service: event.currentTarget.value })}
        />
        <datalist id="logs-services">
          {props.services.map((service) => (
            <option key={service} value={service} />
          ))}
        </datalist>
      </div>
      <div class="field">
        <label for="logs-severity">Minimum severity</label>
        <select id="logs-severity" data-testid="filter-severity" value={value.severity_min} onChange={(event) => apply({ severity_min: event.currentTarget.value })}>
          <option value="">any</option>
          {withCurrent(MINIMUMS, value.severity_min).map((band) => (
            <option key={band} value={band}>
              {band}
            </option>
          ))}
        </select>
      </div>
      <div class="field wide">
        <label for="logs-trace">Trace id</label>
        <input
          id="logs-trace"
          class="mono"
          data-testid="filter-trace"
          autocomplete="off"
          spellcheck={false}
          placeholder="32 hex digits"
          value={draft.trace_id}
          onInput={(event) => edit({ trace_id: event.currentTarget.value })}
        />
      </div>
      <div class="field wide">
        <label for="logs-q">Body contains</label>
        <input id="logs-q" type="search" data-testid="filter-q" placeholder="text (case-sensitive)" value={draft.q} onInput={(event) => edit({ q: event.currentTarget.value })} />
      </div>
      <div class="field">
        <label for="logs-limit">Rows</label>
        <select id="logs-limit" data-testid="filter-limit" value={value.limit} onChange={(event) => apply({ limit: event.currentTarget.value })}>
          {withCurrent(LIMITS, value.limit).map((limit) => (
            <option key={limit} value={limit}>
              {/^\d+$/.test(limit) ? Number(limit).toLocaleString('en') : limit}
            </option>
          ))}
        </select>
      </div>
      <div class="field actions">
        <button type="submit" data-testid="filter-apply">
          Apply
        </button>
        <label class="live">
          <input
            type="checkbox"
            data-testid="filter-live"
            checked={live}
            onChange={(event) => toggleLive(event.currentTarget.checked)}
          />
          Live
        </label>
      </div>
    </form>
  );
}
