// One stored log line, whatever wire format it arrived in.
import type { AnyValue, Attributes } from './anyvalue.js';
import type { Resource, Scope } from './resource.js';

export interface LogRow {
  readonly resource: Resource;
  readonly scope: Scope;
  /** Nanoseconds since the Unix epoch; 0n when the sender gave none. */
  readonly timeUnixNano: bigint;
  readonly observedTimeUnixNano: bigint;
  readonly severityNumber: number;
  readonly severityText: string;
  readonly body: AnyValue;
  readonly attributes: Attributes;
  readonly droppedAttributesCount: number;
  readonly flags: number;
  /** Lower-case hex for OTLP; for simple JSON logs, the string the client sent. '' when absent. */
  readonly traceId: string;
  readonly spanId: string;
  readonly eventName: string;
}
