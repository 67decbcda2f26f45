// OTTL's span and span event contexts over otelgate's span rows: the Collector's ottlspan and
// ottlspanevent paths (with or without their `span.` / `spanevent.` prefix), the span's resource
// and scope, and `project` (read-only). A span event's context reads its span's paths under `span.`.
import { newAttributes, type Attributes } from '../../model/anyvalue.js';
import type { SpanEvent, SpanRow } from '../../model/traces.js';
import type { ValueGetter } from '../compile.js';
import { idBytes, SPAN_ID_ZERO, TRACE_ID_ZERO } from './ids.js';
import { mergedPaths, resourceAndScopePaths, tableContext, timeOf, type PathTable } from './table.js';

export interface SpanContext {
  readonly row: SpanRow;
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
function spanFieldPaths<C extends SpanContext>(): PathTable<C> {
  return {
    plain: {
      project: (c) => c.project,
      'span.trace_id': (c) => idBytes(c.row.traceId, TRACE_ID_ZERO),
      'span.trace_id.string': (c) => c.row.traceId,
      'span.span_id': (c) => idBytes(c.row.spanId, SPAN_ID_ZERO),
      'span.span_id.string': (c) => c.row.spanId,
      'span.parent_span_id': (c) => idBytes(c.row.parentSpanId, SPAN_ID_ZERO),
      'span.parent_span_id.string': (c) => c.row.parentSpanId,
      'span.trace_state': (c) => c.row.traceState,
      'span.name': (c) => c.row.name,
      'span.kind': (c) => BigInt(c.row.kind),
      'span.kind.string': (c) => KIND_NAMES[c.row.kind] ?? String(c.row.kind),
      'span.start_time_unix_nano': (c) => c.row.startTimeUnixNano,
      'span.end_time_unix_nano': (c) => c.row.endTimeUnixNano,
      'span.start_time': timeOf((c) => c.row.startTimeUnixNano),
      'span.end_time': timeOf((c) => c.row.endTimeUnixNano),
      'span.flags': (c) => BigInt(c.row.flags),
      'span.dropped_attributes_count': (c) => BigInt(c.row.droppedAttributesCount),
      'span.dropped_events_count': (c) => BigInt(c.row.droppedEventsCount),
      'span.dropped_links_count': (c) => BigInt(c.row.droppedLinksCount),
      'span.status.code': (c) => BigInt(c.row.statusCode),
      'span.status.message': (c) => c.row.statusMessage,
    } satisfies Record<string, ValueGetter<C>>,
    keyed: {
      'span.attributes': (c) => c.row.attributes,
      'span.trace_state': (c) => traceStateEntries(c.row.traceState),
    },
  };
}

const scoped = <C extends SpanContext>(): PathTable<C> => resourceAndScopePaths<C>((c) => c.row.resource, (c) => c.row.scope);

/** Every path a span's context reads. */
export const spanPaths: PathTable<SpanContext> = mergedPaths(spanFieldPaths(), scoped());

export const spanContext = tableContext<SpanContext>('span', spanPaths);

const EVENT: PathTable<SpanEventContext> = {
  plain: {
    'spanevent.name': (c) => c.event.name,
    'spanevent.time_unix_nano': (c) => c.event.timeUnixNano,
    'spanevent.time': timeOf((c) => c.event.timeUnixNano),
    'spanevent.dropped_attributes_count': (c) => BigInt(c.event.droppedAttributesCount),
  },
  keyed: { 'spanevent.attributes': (c) => c.event.attributes },
};

/** Every path a span event's context reads: its own, its span's under `span.`, the resource's and scope's. */
export const spanEventPaths: PathTable<SpanEventContext> = mergedPaths(EVENT, spanFieldPaths(), scoped());

export const spanEventContext = tableContext<SpanEventContext>('spanevent', spanEventPaths, ['span']);
