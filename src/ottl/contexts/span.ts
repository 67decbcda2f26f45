// OTTL's span and span event contexts over otelgate's span rows: the Collector's ottlspan and
// ottlspanevent paths (with or without their `span.` / `spanevent.` prefix), the span's resource
// and scope, and `project` (read-only). A span event's context reads its span's paths under `span.`.
import { newAttributes, type Attributes } from '../../model/anyvalue.js';
import type { SpanEvent, SpanRow } from '../../model/traces.js';
import type { Getter } from '../compile.js';
import { idBytes, SPAN_ID_ZERO, TRACE_ID_ZERO } from './ids.js';
import { mergedPaths, resourceAndScopePaths, tableContext, type PathTable } from './table.js';

export interface SpanContext {
  readonly span: SpanRow;
  readonly project: string;
}

export interface SpanEventContext extends SpanContext {
  readonly event: SpanEvent;
}

/** pdata's SpanKind.String(). */
const KIND_NAMES = ['Unspecified', 'Internal', 'Server', 'Client', 'Producer', 'Consumer'];

/** A W3C tracestate ("k1=v1,k2=v2") as a map, for trace_state["k1"]. */
function traceStateEntries(state: string): Attributes {
  const entries = newAttributes();
  for (const member of state.split(',')) {
    const at = member.indexOf('=');
    if (at > 0) entries[member.slice(0, at).trim()] = member.slice(at + 1).trim();
  }
  return entries;
}

/** The span paths, under `span.`, of whatever context holds a span. */
function spanPaths<C extends SpanContext>(): PathTable<C> {
  return {
    plain: {
      project: (c) => c.project,
      'span.trace_id': (c) => idBytes(c.span.traceId, TRACE_ID_ZERO),
      'span.trace_id.string': (c) => c.span.traceId,
      'span.span_id': (c) => idBytes(c.span.spanId, SPAN_ID_ZERO),
      'span.span_id.string': (c) => c.span.spanId,
      'span.parent_span_id': (c) => idBytes(c.span.parentSpanId, SPAN_ID_ZERO),
      'span.parent_span_id.string': (c) => c.span.parentSpanId,
      'span.trace_state': (c) => c.span.traceState,
      'span.name': (c) => c.span.name,
      'span.kind': (c) => BigInt(c.span.kind),
      'span.kind.string': (c) => KIND_NAMES[c.span.kind] ?? String(c.span.kind),
      'span.start_time_unix_nano': (c) => c.span.startTimeUnixNano,
      'span.end_time_unix_nano': (c) => c.span.endTimeUnixNano,
      'span.flags': (c) => BigInt(c.span.flags),
      'span.dropped_attributes_count': (c) => BigInt(c.span.droppedAttributesCount),
      'span.dropped_events_count': (c) => BigInt(c.span.droppedEventsCount),
      'span.dropped_links_count': (c) => BigInt(c.span.droppedLinksCount),
      'span.status.code': (c) => BigInt(c.span.statusCode),
      'span.status.message': (c) => c.span.statusMessage,
    } satisfies Record<string, Getter<C>>,
    keyed: {
      'span.attributes': (c) => c.span.attributes,
      'span.trace_state': (c) => traceStateEntries(c.span.traceState),
    },
  };
}

const scoped = <C extends SpanContext>(): PathTable<C> => resourceAndScopePaths<C>((c) => c.span.resource, (c) => c.span.scope);

export const spanContext = tableContext<SpanContext>('span', mergedPaths(spanPaths(), scoped()));

const EVENT: PathTable<SpanEventContext> = {
  plain: {
    'spanevent.name': (c) => c.event.name,
    'spanevent.time_unix_nano': (c) => c.event.timeUnixNano,
    'spanevent.dropped_attributes_count': (c) => BigInt(c.event.droppedAttributesCount),
  },
  keyed: { 'spanevent.attributes': (c) => c.event.attributes },
};

export const spanEventContext = tableContext<SpanEventContext>('spanevent', mergedPaths(EVENT, spanPaths(), scoped()), ['span']);
