// The JSON.parse-based OTLP JSON traces decoder that src/otlp/json/read-traces.ts replaced, kept
// as the reference the new reader is tested against, unchanged.
import type { Building } from '../../../src/model/building.js';
import type { SpanEvent, SpanLink, SpanRow } from '../../../src/model/traces.js';
import { spanProblem } from '../../../src/otlp/checks.js';
import { attributes, field, id, int, isObject, list, ShapeError, str, uint64, walkJsonExport, type JsonObject } from './reference-common.js';
import { emptyDecoded, type Decoded, type RecordBudget } from '../../../src/otlp/result.js';

const SHAPE = { resources: ['resourceSpans', 'resource_spans'], scopes: ['scopeSpans', 'scope_spans'], records: ['spans', 'spans'] } as const;

const dropped = (o: JsonObject): number => int(field(o, 'droppedAttributesCount', 'dropped_attributes_count'), 'droppedAttributesCount');

function event(value: unknown): SpanEvent {
  if (!isObject(value)) throw new ShapeError('event is not an object');
  return {
    timeUnixNano: uint64(field(value, 'timeUnixNano', 'time_unix_nano'), 'event.timeUnixNano'),
    name: str(value['name'], 'event.name'),
    attributes: attributes(value['attributes']),
    droppedAttributesCount: dropped(value),
  };
}

function link(value: unknown): SpanLink {
  if (!isObject(value)) throw new ShapeError('link is not an object');
  return {
    traceId: id(field(value, 'traceId', 'trace_id'), 'link.traceId'),
    spanId: id(field(value, 'spanId', 'span_id'), 'link.spanId'),
    traceState: str(field(value, 'traceState', 'trace_state'), 'link.traceState'),
    attributes: attributes(value['attributes']),
    droppedAttributesCount: dropped(value),
    flags: int(value['flags'], 'link.flags') >>> 0,
  };
}

export function referenceDecodeTracesJson(body: Buffer, budget: RecordBudget): Decoded<'traces'> {
  const out = emptyDecoded<'traces'>();
  walkJsonExport(body, SHAPE, out, budget, (value, resource, scope) => {
    if (!isObject(value)) throw new ShapeError('span is not an object');
    const status = value['status'];
    const statusObject = isObject(status) ? status : {};
    const row: Building<SpanRow> = {
      resource,
      scope,
      traceId: id(field(value, 'traceId', 'trace_id'), 'traceId'),
      spanId: id(field(value, 'spanId', 'span_id'), 'spanId'),
      parentSpanId: id(field(value, 'parentSpanId', 'parent_span_id'), 'parentSpanId'),
      traceState: str(field(value, 'traceState', 'trace_state'), 'traceState'),
      flags: int(value['flags'], 'flags') >>> 0,
      name: str(value['name'], 'name'),
      kind: int(value['kind'], 'kind'),
      startTimeUnixNano: uint64(field(value, 'startTimeUnixNano', 'start_time_unix_nano'), 'startTimeUnixNano'),
      endTimeUnixNano: uint64(field(value, 'endTimeUnixNano', 'end_time_unix_nano'), 'endTimeUnixNano'),
      attributes: attributes(value['attributes']),
      droppedAttributesCount: dropped(value),
      events: list(value['events'], 'events').map(event),
      droppedEventsCount: int(field(value, 'droppedEventsCount', 'dropped_events_count'), 'droppedEventsCount'),
      links: list(value['links'], 'links').map(link),
      droppedLinksCount: int(field(value, 'droppedLinksCount', 'dropped_links_count'), 'droppedLinksCount'),
      statusCode: int(statusObject['code'], 'status.code'),
      statusMessage: str(statusObject['message'], 'status.message'),
    };
    if (spanProblem(row) === undefined) out.rows.push(row);
    else out.skipped++;
  });
  return out;
}
