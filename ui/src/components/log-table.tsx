// The log rows as a grid, newest first, virtualised: rows have one height, the scrolled box holds a
// spacer as tall as all of them, and only the rows in view (and OVERSCAN either side) are in the
// DOM, so that 10,000 rows scroll as smoothly as 10. One row at a time is in the Tab order (a
// roving tabindex): the arrows, Page Up/Down, Home and End move between rows, Enter or Space opens
// one, Escape closes it.
//
// data-testid: log-table (the grid), log-scroll (the scrolled box), log-row (each row rendered,
// with data-index), log-time, log-severity, log-service, log-body, log-trace (in a row), logs-empty.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { formatTime, severityBand } from '../lib/format';
import { rowTime } from '../lib/logs';
import { scrollToRow, visibleRows } from '../lib/virtual';
import type { LogRow } from '../rows';
import { traceHref } from '../url';
import { Link } from './link';

/** Rows rendered beyond each edge of the view: enough for a fast scroll not to show blank space before a render. */
const OVERSCAN = 10;
/** One line a row at a desktop's width, two at a phone's (the body gets a line of its own); style.css lays them out the same. */
const ROW_HEIGHT = { wide: 32, narrow: 52 } as const;
const NARROW = '(max-width: 600px)';

// Rows are keyed by identity, not by place: live mode adds rows on top, and the focused row's
// element must stay that row's.
const ids = new WeakMap<LogRow, number>();
let lastId = 0;
function idOf(row: LogRow): number {
  let id = ids.get(row);
  if (id === undefined) ids.set(row, (id = ++lastId));
  return id;
}

function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => matchMedia(NARROW).matches);
  useEffect(() => {
    const query = matchMedia(NARROW);
    const changed = (): void => setNarrow(query.matches);
    query.addEventListener('change', changed);
    return () => query.removeEventListener('change', changed);
  }, []);
  return narrow;
}

/** What the view can ask of the table: to put the focus back on a row (after its detail closes). */
export interface LogTableHandle {
  focusRow(row: LogRow): void;
}

export function LogTable(props: {
  rows: readonly LogRow[];
  opened: LogRow | undefined;
  onOpen: (row: LogRow) => void;
  /** Escape on a row, while one is open. */
  onClose: () => void;
  handle: { current?: LogTableHandle };
}) {
  const { rows } = props;
  const rowHeight = useNarrow() ? ROW_HEIGHT.narrow : ROW_HEIGHT.wide;
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewHeight, setViewHeight] = useState(0);
  // The row in the Tab order, by identity: live mode adds rows above it.
  const [active, setActive] = useState<LogRow>();
  const toFocus = useRef<LogRow | undefined>(undefined);
  const firstRow = useRef<LogRow | undefined>(undefined);

  useLayoutEffect(() => {
    const box = scroller.current;
    if (box === null) return;
    setViewHeight(box.clientHeight);
    const observer = new ResizeObserver(() => setViewHeight(box.clientHeight));
    observer.observe(box);
    return () => observer.disconnect();
  }, []);

  // Rows added on top (live mode) keep the rows in view where they are, unless the view is at the top,
  // where the newest should show.
  useLayoutEffect(() => {
    const box = scroller.current;
    const previous = firstRow.current;
    firstRow.current = rows[0];
    if (box === null || previous === undefined || previous === rows[0] || box.scrollTop === 0) return;
    const added = rows.indexOf(previous);
    if (added > 0) {
      box.scrollTop += added * rowHeight;
      setScrollTop(box.scrollTop);
    }
  }, [rows]);

  const activeIndex = active === undefined ? -1 : rows.indexOf(active);
  const { start, end } = visibleRows(scrollTop, viewHeight, rowHeight, rows.length, OVERSCAN);
  // The row the Tab key reaches: the active one while it is rendered, else the first in view.
  const tabIndexRow = activeIndex >= start && activeIndex < end ? activeIndex : Math.min(Math.floor(scrollTop / rowHeight), rows.length - 1);

  useLayoutEffect(() => {
    const row = toFocus.current;
    if (row === undefined) return;
    toFocus.current = undefined;
    const index = rows.indexOf(row);
    scroller.current?.querySelector<HTMLElement>(`[data-index="${index}"]`)?.focus({ preventScroll: true });
  });

  const focusIndex = (index: number): void => {
    const box = scroller.current;
    const row = rows[Math.max(0, Math.min(rows.length - 1, index))];
    if (box === null || row === undefined) return;
    box.scrollTop = scrollToRow(rows.indexOf(row), box.scrollTop, box.clientHeight, rowHeight);
    setScrollTop(box.scrollTop);
    setActive(row);
    toFocus.current = row;
  };
  props.handle.current = { focusRow: (row) => focusIndex(rows.indexOf(row)) };

  const onKeyDown = (event: KeyboardEvent): void => {
    const target = (event.target as HTMLElement).closest<HTMLElement>('[data-index]');
    if (target === null || event.altKey || event.metaKey) return;
    const index = Number(target.dataset['index']);
    const page = Math.max(1, Math.floor(viewHeight / rowHeight) - 1);
    const moves: Record<string, number> = { ArrowDown: index + 1, ArrowUp: index - 1, PageDown: index + page, PageUp: index - page, Home: 0, End: rows.length - 1 };
    const to = moves[event.key];
    if (to !== undefined) {
      event.preventDefault();
      focusIndex(to);
    } else if (event.key === 'Escape' && props.opened !== undefined) {
      event.preventDefault();
      props.onClose();
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      const row = rows[index];
      if (row !== undefined) props.onOpen(row);
    }
  };

  const onClick = (event: MouseEvent): void => {
    const target = event.target as HTMLElement;
    // The trace link in a row goes to the trace, and does not open the row.
    if (target.closest('a') !== null) return;
    const row = rows[Number(target.closest<HTMLElement>('[data-index]')?.dataset['index'])];
    if (row === undefined) return;
    setActive(row);
    props.onOpen(row);
  };

  const rendered = [];
  for (let index = start; index < end; index++) {
    const row = rows[index] as LogRow;
    const band = severityBand(row.severity_number);
    const time = rowTime(row);
    rendered.push(
      <div
        key={idOf(row)}
        role="row"
        class={`log-row${row === props.opened ? ' opened' : ''}`}
        aria-rowindex={index + 2}
        aria-selected={row === props.opened}
        tabIndex={index === tabIndexRow ? 0 : -1}
        data-index={index}
        data-testid="log-row"
        style={{ top: `${index * rowHeight}px`, height: `${rowHeight}px` }}
        onFocus={() => setActive(row)}
      >
        <span role="gridcell" class="log-time" data-testid="log-time">
          {time === undefined ? '' : formatTime(String(time))}
        </span>
        <span role="gridcell" class="log-severity">
          <span class={`badge sev-fill sev-${band}`} data-testid="log-severity">
            {row.severity_text === '' ? band : row.severity_text}
          </span>
        </span>
        <span role="gridcell" class="log-service" data-testid="log-service">
          {row.service_name}
        </span>
        <span role="gridcell" class="log-body" data-testid="log-body">
          {row.body}
        </span>
        <span role="gridcell" class="log-trace">
          {row.trace_id !== '' && (
            <Link href={traceHref(row.trace_id)} tabIndex={-1} label={`Trace ${row.trace_id}`} testid="log-trace">
              trace
            </Link>
          )}
        </span>
      </div>,
    );
  }

  return (
    <div class="log-table" role="grid" aria-label="Log records, newest first" aria-rowcount={rows.length + 1} data-testid="log-table">
      <div role="row" class="log-row log-head" aria-rowindex={1}>
        <span role="columnheader">Time</span>
        <span role="columnheader">Severity</span>
        <span role="columnheader">Service</span>
        <span role="columnheader">Body</span>
        <span role="columnheader">
          <span class="visually-hidden">Trace</span>
        </span>
      </div>
      <div ref={scroller} class="log-scroll" data-testid="log-scroll" onScroll={(event) => setScrollTop((event.currentTarget as HTMLElement).scrollTop)} onKeyDown={onKeyDown} onClick={onClick}>
        <div class="log-spacer" role="rowgroup" style={{ height: `${rows.length * rowHeight}px` }}>
          {rendered}
        </div>
        {rows.length === 0 && (
          <p class="log-empty" data-testid="logs-empty">
            No log records match these filters in this range.
          </p>
        )}
      </div>
    </div>
  );
}
