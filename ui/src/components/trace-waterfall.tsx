// A trace's spans as a waterfall (lib/waterfall.ts): one row per span under its parent, indented by
// its depth, with a bar on the trace's time axis. A row is a button: a click, Enter or Space opens
// the span's details under it, again or Escape closes them; the arrow keys, Home and End move
// between rows. An error span says so in words, not only in the colour of its bar.
//
// data-testid: waterfall, waterfall-axis (each tick `waterfall-tick`), span-row (each row's button,
// with data-depth, 1 for a root, and data-span-id), span-bar, span-row-name, span-row-service,
// span-row-duration, span-row-error (the error badge); the details are in span-detail.tsx.
import { useMemo, useRef, useState } from 'preact/hooks';
import { formatDuration } from '../lib/format';
import { axisTicks, waterfall } from '../lib/waterfall';
import type { SpanRow } from '../rows';
import { SpanDetail } from './span-detail';

const percent = (fraction: number): string => `${(fraction * 100).toFixed(3)}%`;

export function TraceWaterfall(props: { spans: SpanRow[]; search: string }) {
  const layout = useMemo(() => waterfall(props.spans), [props.spans]);
  const ticks = useMemo(() => axisTicks(layout.durationNano), [layout]);
  // By row: a span id may have been sent twice.
  const [open, setOpen] = useState<number>();
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const focusRow = (i: number): void => buttons.current[Math.max(0, Math.min(i, layout.rows.length - 1))]?.focus();
  const close = (i: number): void => {
    setOpen(undefined);
    focusRow(i);
  };

  const move = (event: KeyboardEvent, i: number): void => {
    const to = { ArrowDown: i + 1, ArrowUp: i - 1, Home: 0, End: layout.rows.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    focusRow(to);
  };

  return (
    <div class="waterfall" data-testid="waterfall">
      <div class="wf-line wf-head">
        <span class="wf-label">Span</span>
        <span class="wf-track" data-testid="waterfall-axis">
          {ticks.map((tick) => (
            <span key={String(tick.atNano)} class="wf-tick" data-testid="waterfall-tick" style={{ left: percent(tick.fraction), transform: `translateX(-${percent(tick.fraction)})` }}>
              {tick.atNano === 0n ? '0' : formatDuration(tick.atNano)}
            </span>
          ))}
        </span>
        <span class="wf-duration">Duration</span>
      </div>
      <ol class="wf-rows">
        {layout.rows.map((row, i) => {
          const { span } = row;
          const error = span.status_code === 2;
          const detailId = `span-detail-${i}`;
          return (
            <li
              key={i}
              onKeyDown={(event) => {
                if (event.key === 'Escape' && open === i) {
                  event.preventDefault();
                  close(i);
                }
              }}
            >
              <button
                type="button"
                class={`wf-line wf-row${open === i ? ' open' : ''}${error ? ' error' : ''}`}
                data-testid="span-row"
                data-depth={row.depth + 1}
                data-span-id={span.span_id}
                aria-expanded={open === i}
                aria-controls={open === i ? detailId : undefined}
                ref={(element) => {
                  buttons.current[i] = element;
                }}
                onClick={() => setOpen(open === i ? undefined : i)}
                onKeyDown={(event) => move(event, i)}
              >
                <span class="wf-label" style={{ '--depth': row.depth }}>
                  <span class="wf-name" data-testid="span-row-name" title={span.name}>
                    {span.name}
                  </span>
                  <span class="wf-service" data-testid="span-row-service" title={span.service_name}>
                    {span.service_name}
                  </span>
                  {error && (
                    <span class="badge badge-error" data-testid="span-row-error">
                      error
                    </span>
                  )}
                </span>
                <span class="wf-track">
                  <span class={`wf-bar${error ? ' error' : ''}`} data-testid="span-bar" style={{ left: percent(row.offset), width: percent(row.width) }} />
                </span>
                <span class="wf-duration" data-testid="span-row-duration">
                  {formatDuration(span.duration_nano)}
                </span>
              </button>
              {open === i && <SpanDetail id={detailId} span={span} traceStart={layout.startNano} search={props.search} onClose={() => close(i)} />}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
