// One stored span with its events and links.
import type { Attributes } from './anyvalue.js';
import type { Resource, Scope } from './resource.js';

export interface SpanEvent {
  readonly timeUnixNano: bigint;
  readonly name: string;
  readonly attributes: Attributes;
  readonly droppedAttributesCount: number;
}

export interface SpanLink {
  readonly traceId: string;
  readonly spanId: string;
  readonly traceState: string;
  readonly attributes: Attributes;
  readonly droppedAttributesCount: number;
  readonly flags: number;
}

export interface SpanRow {
  readonly resource: Resource;
  readonly scope: Scope;
  /** Lower-case hex. */
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly traceState: string;
  readonly flags: number;
  readonly name: string;
  /** OTLP SpanKind number: 0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  readonly kind: number;
  readonly startTimeUnixNano: bigint;
  readonly endTimeUnixNano: bigint;
  readonly attributes: Attributes;
  readonly droppedAttributesCount: number;
  readonly events: readonly SpanEvent[];
  readonly droppedEventsCount: number;
  readonly links: readonly SpanLink[];
  readonly droppedLinksCount: number;
  /** OTLP StatusCode number: 0 unset, 1 ok, 2 error. */
  readonly statusCode: number;
  readonly statusMessage: string;
}
