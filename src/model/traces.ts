// One stored span with its events and links.
import type { Attributes } from './anyvalue.js';
import type { Resource, Scope } from './resource.js';

export interface SpanEvent {
  timeUnixNano: bigint;
  name: string;
  attributes: Attributes;
  droppedAttributesCount: number;
}

export interface SpanLink {
  traceId: string;
  spanId: string;
  traceState: string;
  attributes: Attributes;
  droppedAttributesCount: number;
  flags: number;
}

export interface SpanRow {
  resource: Resource;
  scope: Scope;
  /** Lower-case hex. */
  traceId: string;
  spanId: string;
  parentSpanId: string;
  traceState: string;
  flags: number;
  name: string;
  /** OTLP SpanKind number: 0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  attributes: Attributes;
  droppedAttributesCount: number;
  events: SpanEvent[];
  droppedEventsCount: number;
  links: SpanLink[];
  droppedLinksCount: number;
  /** OTLP StatusCode number: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  statusMessage: string;
}
