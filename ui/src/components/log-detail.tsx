// One log record in full, beside the table (over it at a phone's width): its body, times, severity,
// trace and span (the trace a link to its view), flags, event name, scope, attributes and resource.
// It takes the focus when it opens; Escape or Close closes it, and the view puts the focus back on
// the record's row.
//
// data-testid: log-detail (the panel), log-detail-close, detail-body, detail-time, detail-observed,
// detail-severity (its text), detail-severity-number (and its band), detail-service, detail-trace-id
// (the field), detail-trace (the link in it, absent without a trace id), detail-span,
// detail-flags, detail-event, detail-scope, detail-attributes, detail-resource (AttributeTable's
// rows inside).
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { formatTime, severityBand } from '../lib/format';
import type { LogRow } from '../rows';
import { traceHref } from '../url';
import { AttributeTable } from './attributes';
import { Link } from './link';

function Field(props: { name: string; testid: string; children: ComponentChildren }) {
  return (
    <>
      <dt>{props.name}</dt>
      <dd data-testid={props.testid}>{props.children}</dd>
    </>
  );
}

const NONE = <span class="hint">none</span>;

/** A time in full: as the table shows it, and its nanoseconds (a log's time may be finer than a millisecond). */
function time(ns: string) {
  if (ns === '0') return NONE;
  return (
    <>
      {formatTime(ns)} <span class="hint">({ns} ns)</span>
    </>
  );
}

export function LogDetail(props: { row: LogRow; onClose: () => void }) {
  const { row } = props;
  const heading = useRef<HTMLHeadingElement>(null);
  // Before the next key press, which is meant for the record shown.
  useLayoutEffect(() => heading.current?.focus(), [row]);
  const band = severityBand(row.severity_number);
  const onKeyDown = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    props.onClose();
  };
  return (
    <aside class="log-detail" aria-labelledby="log-detail-title" data-testid="log-detail" onKeyDown={onKeyDown}>
      <div class="log-detail-top">
        <h2 id="log-detail-title" ref={heading} tabIndex={-1}>
          Log record
        </h2>
        <button type="button" data-testid="log-detail-close" onClick={props.onClose}>
          Close
        </button>
      </div>
      <pre class="log-detail-body" data-testid="detail-body">
        {row.body}
      </pre>
      <dl class="facts">
        <Field name="Time" testid="detail-time">
          {time(row.time_unix_nano)}
        </Field>
        <Field name="Observed" testid="detail-observed">
          {time(row.observed_time_unix_nano)}
        </Field>
        <Field name="Severity" testid="detail-severity">
          {row.severity_text === '' ? NONE : <span class={`badge sev-fill sev-${band}`}>{row.severity_text}</span>}
        </Field>
        <Field name="Severity number" testid="detail-severity-number">
          {row.severity_number} ({band})
        </Field>
        <Field name="Service" testid="detail-service">
          {row.service_name === '' ? NONE : row.service_name}
        </Field>
        <Field name="Trace" testid="detail-trace-id">
          {row.trace_id === '' ? (
            NONE
          ) : (
            <Link href={traceHref(row.trace_id)} testid="detail-trace" class="mono">
              {row.trace_id}
            </Link>
          )}
        </Field>
        <Field name="Span" testid="detail-span">
          {row.span_id === '' ? NONE : <span class="mono">{row.span_id}</span>}
        </Field>
        <Field name="Flags" testid="detail-flags">
          {row.flags}
        </Field>
        <Field name="Event" testid="detail-event">
          {row.event_name === '' ? NONE : row.event_name}
        </Field>
        <Field name="Scope" testid="detail-scope">
          {row.scope_name === '' ? NONE : row.scope_version === '' ? row.scope_name : `${row.scope_name} ${row.scope_version}`}
        </Field>
      </dl>
      <h3>Attributes</h3>
      <AttributeTable attributes={row.attributes} dropped={row.dropped_attributes_count} label="Attributes" testid="detail-attributes" />
      <h3>Resource</h3>
      <AttributeTable attributes={row.resource} label="Resource" testid="detail-resource" />
    </aside>
  );
}
