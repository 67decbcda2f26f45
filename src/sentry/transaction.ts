// A transaction event → one span row for the transaction and one for each of its child spans.
import type { MutableAttributes } from '../model/anyvalue.js';
import type { Building } from '../model/building.js';
import type { Resource, Scope } from '../model/resource.js';
import type { SpanRow } from '../model/traces.js';
import type { DecodeContext } from './context.js';
import { eventAttributes, eventResource, eventScope, tagsOf } from './event-fields.js';
import { spanId, traceId } from './ids.js';
import { isObject, nonEmpty, plainAttributes, type JsonObject } from './json.js';
import { applyLinks, applyMeasurements, applyStatus, applyTimes, emptySentrySpan, keepSpan, spanKind } from './span-fields.js';

const plain = (value: unknown): MutableAttributes => plainAttributes(isObject(value) ? value : {});

/** The fields a transaction (from its event and contexts.trace) and a child span (from itself) both have. */
interface SpanFields {
  op: unknown;
  origin: unknown;
  status: unknown;
  links: unknown;
  measurements: unknown;
  start: unknown;
  end: unknown;
}

/** Fills in what both kinds of span map alike, then keeps the row or counts it skipped. */
function finish(context: DecodeContext, row: Building<SpanRow>, attributes: MutableAttributes, fields: SpanFields): void {
  const op = nonEmpty(fields.op);
  if (op !== undefined) attributes['sentry.op'] = op;
  const origin = nonEmpty(fields.origin);
  if (origin !== undefined) attributes['sentry.origin'] = origin;
  applyMeasurements(attributes, fields.measurements);
  row.attributes = attributes;
  row.kind = spanKind(op, attributes);
  applyStatus(row, nonEmpty(fields.status), undefined);
  applyLinks(row, fields.links, plain);
  if (applyTimes(row, fields.start, fields.end)) keepSpan(context, row);
  else context.out.skipped++;
}

export function transactionToSpans(context: DecodeContext, event: JsonObject): void {
  const tags = tagsOf(event);
  const resource = eventResource(context, event, tags);
  const scope = eventScope(context, event);
  const contexts = event['contexts'];
  const trace = isObject(contexts) && isObject(contexts['trace']) ? contexts['trace'] : {};
  const transactionTrace = traceId(trace['trace_id']);
  context.record(() => {
    const row = emptySentrySpan(resource, scope);
    row.traceId = transactionTrace;
    row.spanId = spanId(trace['span_id']);
    row.parentSpanId = spanId(trace['parent_span_id']);
    row.name = nonEmpty(event['transaction']) ?? nonEmpty(trace['op']) ?? '';
    const attributes = plain(trace['data']);
    eventAttributes(event, tags, attributes);
    finish(context, row, attributes, {
      op: trace['op'],
      origin: trace['origin'],
      status: trace['status'],
      links: trace['links'],
      measurements: event['measurements'],
      start: event['start_timestamp'],
      end: event['timestamp'],
    });
  });
  const spans = event['spans'];
  if (Array.isArray(spans)) for (const child of spans) childToSpan(context, child, resource, scope, transactionTrace);
}

/** A child span of a transaction (the SDK's SpanJSON), in the transaction's trace unless it names its own. */
function childToSpan(context: DecodeContext, span: unknown, resource: Resource, scope: Scope, transactionTrace: string): void {
  context.record(() => {
    if (!isObject(span)) {
      context.out.skipped++;
      return;
    }
    const row = emptySentrySpan(resource, scope);
    row.traceId = traceId(span['trace_id']) || transactionTrace;
    row.spanId = spanId(span['span_id']);
    row.parentSpanId = spanId(span['parent_span_id']);
    row.name = nonEmpty(span['description']) ?? nonEmpty(span['op']) ?? '';
    const attributes = plain(span['data']);
    for (const [key, tag] of tagsOf(span)) attributes[key] = tag;
    finish(context, row, attributes, {
      op: span['op'],
      origin: span['origin'],
      status: span['status'],
      links: span['links'],
      measurements: span['measurements'],
      start: span['start_timestamp'],
      end: span['timestamp'],
    });
  });
}
