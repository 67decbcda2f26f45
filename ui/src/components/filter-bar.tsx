// The bar of filters above every view's data, laid out alike in each (filter-bar.css): the time range
// (RangePicker: a preset, or a custom from/to that applies as it is edited), the view's own fields,
// then Apply and Refresh. A choice in a list, a checkbox or the range applies at once; the text
// fields apply on Enter or Apply. Refresh reads again what the address says: a preset range moves
// with the clock.
//
// data-testid: the form takes the one it is given; those of RangePicker (filter-range, filter-from,
// filter-to, filter-range-message), filter-apply, filter-refresh.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Range } from '../lib/range';
import { RangePicker } from './range-picker';
import './filter-bar.css';

export function FilterBar(props: {
  label: string;
  testid?: string;
  range: Range;
  onRange: (range: Range) => void;
  onApply: () => void;
  onRefresh: () => void;
  /** The view's fields, after the range. */
  children?: ComponentChildren;
  /** After the buttons (the logs view's Live box). */
  actions?: ComponentChildren;
  /** On a line of its own under the fields (a hint, datalists). */
  footer?: ComponentChildren;
}) {
  return (
    <form
      class="filters"
      data-testid={props.testid}
      aria-label={props.label}
      onSubmit={(event) => {
        event.preventDefault();
        props.onApply();
      }}
    >
      <RangePicker range={props.range} onChange={props.onRange} />
      {props.children}
      <div class="filter-actions">
        <button type="submit" data-testid="filter-apply">
          Apply
        </button>
        <button type="button" data-testid="filter-refresh" onClick={props.onRefresh}>
          Refresh
        </button>
        {props.actions}
      </div>
      {props.footer}
    </form>
  );
}

/** A field of the bar with its label above it: `wide` grows into the room left, `short` holds a few characters. */
export function Field(props: { label: string; size?: 'wide' | 'short'; children: ComponentChildren }) {
  return (
    <label class={props.size === undefined ? 'field' : `field field-${props.size}`}>
      <span>{props.label}</span>
      {props.children}
    </label>
  );
}

/** A checkbox of the bar, its label after it. */
export function CheckField(props: { label: string; testid: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label class="field field-check">
      <input type="checkbox" data-testid={props.testid} checked={props.checked} onChange={(event) => props.onChange(event.currentTarget.checked)} />
      <span>{props.label}</span>
    </label>
  );
}

/**
 * What the text fields hold, applied or not, starting from `applied` (the address's values); when
 * the address changes under them (back, forward, a link) they show it again.
 */
export function useDraft<T extends Record<string, string>>(applied: T): [T, (changes: Partial<T>) => void] {
  const [draft, setDraft] = useState(applied);
  const appliedText = JSON.stringify(applied);
  useEffect(() => setDraft(applied), [appliedText]);
  return [draft, (changes) => setDraft((old) => ({ ...old, ...changes }))];
}
