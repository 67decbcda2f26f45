// What the span rows of transactions and of span v2 items map alike: kind, status, links, times,
// and the checks a span row must pass to be stored.
import type { Attributes, MutableAttributes } from '../model/anyvalue.js';
import { emptySpanRow, type Building } from '../model/building.js';
import type { Resource, Scope } from '../model/resource.js';
import type { SpanRow } from '../model/traces.js';
import { spanProblem } from '../otlp/checks.js';
import type { DecodeContext } from './context.js';
import { spanId, traceId } from './ids.js';
import { isObject } from './json.js';
import { sentryTime } from './time.js';

const INTERNAL = 1;
const SERVER = 2;
const CLIENT = 3;
const PRODUCER = 4;
const CONSUMER = 5;

const KINDS: Readonly<Record<string, number>> = { internal: INTERNAL, server: SERVER, client: CLIENT, producer: PRODUCER, consumer: CONSUMER };

const opIs = (op: string, name: string): boolean => op === name || op.startsWith(`${name}.`);

/**
 * The span kind: `sentry.kind` when the SDK says it (the OpenTelemetry-based SDKs keep the kind
 * their instrumentation gave there; it is removed then, being the kind), else from the op: an
 * incoming request serves, an outgoing one or a database call is a client, a queue's publish and
 * process its producer and consumer.
 */
export function spanKind(op: string | undefined, attributes: MutableAttributes): number {
  const sentryKind = attributes['sentry.kind'];
  if (typeof sentryKind === 'string' && Object.hasOwn(KINDS, sentryKind)) {
    delete attributes['sentry.kind'];
    return KINDS[sentryKind] as number;
  }
  if (op === undefined) return INTERNAL;
  if (opIs(op, 'http.server')) return SERVER;
  if (opIs(op, 'http.client') || opIs(op, 'db')) return CLIENT;
  if (opIs(op, 'queue.publish')) return PRODUCER;
  if (opIs(op, 'queue.process')) return CONSUMER;
  return INTERNAL;
}

/**
 * A Sentry status → OTel's: `ok` (or none) is UNSET, anything else ERROR with the Sentry status as
 * its message. Not OK: the SDKs mark every span that did not fail `ok` on their own, while OTel
 * keeps OK for a status a developer set on purpose, and UNSET for "completed without error".
 */
export function applyStatus(row: Building<SpanRow>, status: string | undefined, message: string | undefined): void {
  if (status === undefined || status === '' || status === 'ok') return;
  row.statusCode = 2;
  row.statusMessage = message ?? status;
}

/** Start and end (`timestamp` for transactions and their spans, `end_timestamp` for v2); false when either is not a time. */
export function applyTimes(row: Building<SpanRow>, start: unknown, end: unknown): boolean {
  const startNs = sentryTime(start);
  const endNs = sentryTime(end);
  if (startNs === undefined || endNs === undefined) return false;
  row.startTimeUnixNano = startNs;
  row.endTimeUnixNano = endNs;
  return true;
}

/** A span at the model's defaults but for its kind: a Sentry span without a known kind is internal work. */
export function emptySentrySpan(resource: Resource, scope: Scope): Building<SpanRow> {
  const row = emptySpanRow(resource, scope);
  row.kind = INTERNAL;
  return row;
}

/** `links` ({trace_id, span_id, sampled, attributes}); one without valid ids is dropped and counted. */
export function applyLinks(row: Building<SpanRow>, value: unknown, attributesOf: (value: unknown) => Attributes): void {
  if (!Array.isArray(value)) return;
  for (const link of value) {
    const trace = isObject(link) ? traceId(link['trace_id']) : '';
    const span = isObject(link) ? spanId(link['span_id']) : '';
    if (!isObject(link) || trace === '' || span === '') row.droppedLinksCount++;
    else row.links.push({ traceId: trace, spanId: span, traceState: '', attributes: attributesOf(link['attributes']), droppedAttributesCount: 0, flags: link['sampled'] === true ? 1 : 0 });
  }
}

/** `measurements` ({name: {value, unit}}) whose value is a number, as `sentry.measurement.<name>` (the unit is not kept). */
export function applyMeasurements(attributes: MutableAttributes, value: unknown): void {
  if (!isObject(value)) return;
  for (const name of Object.keys(value)) {
    const measurement = value[name];
    const number = isObject(measurement) ? measurement['value'] : undefined;
    if (typeof number === 'number') attributes[`sentry.measurement.${name}`] = number;
  }
}

/** Hands the row on, or counts it skipped when it cannot be stored (no valid trace or span id). */
export function keepSpan(context: DecodeContext, row: Building<SpanRow>): void {
  if (spanProblem(row) === undefined) context.out.spans.push(row);
  else context.out.skipped++;
}
