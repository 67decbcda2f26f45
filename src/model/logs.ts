// One stored log line, whatever wire format it arrived in.
import type { AnyValue, Attributes } from './anyvalue.js';
import type { Resource, Scope } from './resource.js';

export interface LogRow {
  resource: Resource;
  scope: Scope;
  /** Nanoseconds since the Unix epoch; 0n when the sender gave none. */
  timeUnixNano: bigint;
  observedTimeUnixNano: bigint;
  severityNumber: number;
  severityText: string;
  body: AnyValue;
  attributes: Attributes;
  droppedAttributesCount: number;
  flags: number;
  /** Lower-case hex for OTLP; for simple JSON logs, the string the client sent. '' when absent. */
  traceId: string;
  spanId: string;
  eventName: string;
}
