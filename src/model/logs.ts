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
  /**
   * Lower-case hex, or '' when absent, as on every row. A simple JSON id sent in another form is in
   * `attributes` as sent (src/simple/decode.ts).
   */
  readonly traceId: string;
  readonly spanId: string;
  readonly eventName: string;
}
