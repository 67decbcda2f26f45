// A `span` item → span rows. Current SDKs stream spans as a v2 container
// (`application/vnd.sentry.items.span.v2+json`: {"version": 2, "items": [...]}, typed attributes);
// older SDKs sent a standalone span (a browser's INP, say) as one span JSON like a transaction's
// child spans, read here as the v2 span it stands for.
import type { DecodeContext } from './context.js';
import { tagsOf } from './event-fields.js';
import { spanId, traceId } from './ids.js';
import { itemOrigin, takeString } from './item-fields.js';
import { isObject, nonEmpty, str, typedAttributes, type JsonObject } from './json.js';
import { applyLinks, applyStatus, applyTimes, emptySentrySpan, keepSpan, spanKind } from './span-fields.js';

/** Reads the payload of a `span` item: undefined when it could, else why not. */
export function spanItem(context: DecodeContext, payload: unknown): string | undefined {
  if (!isObject(payload)) return 'the payload is not a JSON object';
  const items = payload['items'];
  if (Array.isArray(items)) {
    for (const item of items) v2Span(context, item);
    return undefined;
  }
  if (payload['span_id'] === undefined) return 'the payload is neither a span container ({"items": [...]}) nor a span';
  v2Span(context, v1AsV2(payload));
  return undefined;
}

/** An older SDK's span JSON in the v2 shape: description (else op) as the name, op, origin and tags among the attributes. */
function v1AsV2(span: JsonObject): JsonObject {
  // No prototype: a "__proto__" key in the client's data is then an attribute like any other.
  const attributes = Object.create(null) as JsonObject;
  const data = span['data'];
  if (isObject(data)) for (const key of Object.keys(data)) attributes[key] = data[key];
  for (const [key, tag] of tagsOf(span)) attributes[key] = tag;
  const op = nonEmpty(span['op']);
  if (op !== undefined) attributes['sentry.op'] = op;
  const origin = nonEmpty(span['origin']);
  if (origin !== undefined) attributes['sentry.origin'] = origin;
  return {
    name: nonEmpty(span['description']) ?? op ?? '',
    span_id: span['span_id'],
    trace_id: span['trace_id'],
    parent_span_id: span['parent_span_id'],
    start_timestamp: span['start_timestamp'],
    end_timestamp: span['timestamp'],
    status: span['status'],
    attributes,
    links: span['links'],
  };
}

function v2Span(context: DecodeContext, value: unknown): void {
  context.record(() => {
    if (!isObject(value)) {
      context.out.skipped++;
      return;
    }
    const attributes = typedAttributes(value['attributes']);
    const { resource, scope } = itemOrigin(context, attributes, false);
    const row = emptySentrySpan(resource, scope);
    row.attributes = attributes;
    row.traceId = traceId(value['trace_id']);
    row.spanId = spanId(value['span_id']);
    row.parentSpanId = spanId(value['parent_span_id']);
    row.name = str(value['name']) ?? '';
    const op = attributes['sentry.op'];
    row.kind = spanKind(typeof op === 'string' ? op : undefined, attributes);
    // The v2 status is only ok or error; why it failed is in sentry.status.message.
    const status = nonEmpty(value['status']);
    applyStatus(row, status, status === undefined || status === 'ok' ? undefined : takeString(attributes, 'sentry.status.message'));
    const segment = value['is_segment'];
    if (typeof segment === 'boolean') attributes['sentry.is_segment'] = segment;
    applyLinks(row, value['links'], typedAttributes);
    if (applyTimes(row, value['start_timestamp'], value['end_timestamp'])) keepSpan(context, row);
    else context.out.skipped++;
  });
}
