// One span in full, opened from its row of the waterfall: its facts (service, kind, status, times,
// ids, scope), attributes, events (each at its time from the span's start), links (a link's trace
// opens that trace) and resource.
//
// data-testid: span-detail (the panel), span-detail-close, span-detail-name, span-service,
// span-kind, span-status, span-start, span-duration, span-id, span-parent-id, span-scope,
// span-attributes, span-events (each `span-event`, with `span-event-at`, `span-event-name`,
// `span-event-attributes`), span-links (each `span-link`, with `span-link-trace` (a link to the
// trace), `span-link-span`, `span-link-attributes`), span-resource; the attribute tables' rows are
// in components/attributes.tsx.
import { traceHref } from '../url';
import { formatDuration, formatTime, spanKindName, spanStatusName } from '../lib/format';
import type { SpanRow } from '../rows';
import { AttributeTable } from './attributes';
import { Link } from './link';

/** `+190 ms` from `from` to `at`, `−5 ms` before it. */
function since(at: string, from: string | bigint): string {
  const delta = BigInt(at) - BigInt(from);
  return delta < 0n ? `−${formatDuration(-delta)}` : `+${formatDuration(delta)}`;
}

export function SpanStatus(props: { span: SpanRow }) {
  const { status_code: code, status_message: message } = props.span;
  const name = spanStatusName(code);
  return (
    <>
      {code === 2 ? <span class="badge badge-error">{name}</span> : name}
      {message !== '' && <> · {message}</>}
    </>
  );
}

export function SpanDetail(props: { id: string; span: SpanRow; traceStart: bigint; search: string; onClose: () => void }) {
  const { span } = props;
  const scope = [span.scope_name, span.scope_version].filter((part) => part !== '').join(' ');
  return (
    <div class="span-detail" id={props.id} data-testid="span-detail" role="region" aria-label={`Span ${span.name}`}>
      <div class="span-detail-head">
        <h3 data-testid="span-detail-name">{span.name}</h3>
        <button type="button" data-testid="span-detail-close" onClick={props.onClose} aria-label="Close the span's details (Escape)">
          Close
        </button>
      </div>
      <dl class="facts">
        <dt>Service</dt>
        <dd data-testid="span-service">{span.service_name === '' ? <span class="muted">none</span> : span.service_name}</dd>
        <dt>Kind</dt>
        <dd data-testid="span-kind">{spanKindName(span.kind)}</dd>
        <dt>Status</dt>
        <dd data-testid="span-status">
          <SpanStatus span={span} />
        </dd>
        <dt>Start</dt>
        <dd data-testid="span-start">
          {formatTime(span.start_time_unix_nano)} ({since(span.start_time_unix_nano, props.traceStart)} into the trace)
        </dd>
        <dt>Duration</dt>
        <dd data-testid="span-duration">{formatDuration(span.duration_nano)}</dd>
        <dt>Span id</dt>
        <dd>
          <code data-testid="span-id">{span.span_id}</code>
        </dd>
        <dt>Parent span id</dt>
        <dd data-testid="span-parent-id">{span.parent_span_id === '' ? <span class="muted">none: a root span</span> : <code>{span.parent_span_id}</code>}</dd>
        {span.trace_state !== '' && (
          <>
            <dt>Trace state</dt>
            <dd>
              <code>{span.trace_state}</code>
            </dd>
          </>
        )}
        <dt>Scope</dt>
        <dd data-testid="span-scope">{scope === '' ? <span class="muted">none</span> : scope}</dd>
      </dl>

      <h4>Attributes</h4>
      <AttributeTable attributes={span.attributes} dropped={span.dropped_attributes_count} testid="span-attributes" label="The span's attributes" />

      <h4>Events</h4>
      {span.events.length === 0 ? (
        <p class="muted" data-testid="span-events">
          None.
        </p>
      ) : (
        <ol class="span-items" data-testid="span-events">
          {span.events.map((event, i) => (
            <li key={i} data-testid="span-event">
              <p>
                <span class="at" data-testid="span-event-at" title={formatTime(event.time_unix_nano)}>
                  {since(event.time_unix_nano, span.start_time_unix_nano)}
                </span>{' '}
                <strong data-testid="span-event-name">{event.name}</strong>
              </p>
              <AttributeTable attributes={event.attributes} dropped={event.dropped_attributes_count} testid="span-event-attributes" label={`The attributes of the event ${event.name}`} />
            </li>
          ))}
        </ol>
      )}
      {span.dropped_events_count > 0 && <p class="muted">{span.dropped_events_count} more events were dropped by the sender.</p>}

      <h4>Links</h4>
      {span.links.length === 0 ? (
        <p class="muted" data-testid="span-links">
          None.
        </p>
      ) : (
        <ul class="span-items" data-testid="span-links">
          {span.links.map((link, i) => (
            <li key={i} data-testid="span-link">
              <p>
                Trace{' '}
                <Link href={traceHref(link.trace_id, props.search)} testid="span-link-trace">
                  <code>{link.trace_id}</code>
                </Link>
                , span <code data-testid="span-link-span">{link.span_id}</code>
                {link.trace_state !== '' && (
                  <>
                    , trace state <code>{link.trace_state}</code>
                  </>
                )}
              </p>
              <AttributeTable attributes={link.attributes} dropped={link.dropped_attributes_count} testid="span-link-attributes" label="The link's attributes" />
            </li>
          ))}
        </ul>
      )}
      {span.dropped_links_count > 0 && <p class="muted">{span.dropped_links_count} more links were dropped by the sender.</p>}

      <h4>Resource</h4>
      <AttributeTable attributes={span.resource} testid="span-resource" label="The resource's attributes" />
    </div>
  );
}
