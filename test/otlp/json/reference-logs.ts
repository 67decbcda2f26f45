// The JSON.parse-based OTLP JSON logs decoder that src/otlp/json/read-logs.ts replaced, kept as
// the reference the new reader is tested against. One change from what it was: ids of the wrong
// length are treated as absent (src/otlp/checks.ts), as both readers now do.
import type { Building } from '../../../src/model/building.js';
import type { LogRow } from '../../../src/model/logs.js';
import { logSpanId, logTraceId } from '../../../src/otlp/checks.js';
import { anyValue, attributes, field, id, int, isObject, ShapeError, str, uint64, walkJsonExport } from './reference-common.js';
import { emptyDecoded, type Decoded, type RecordBudget } from '../../../src/otlp/result.js';

const SHAPE = { resources: ['resourceLogs', 'resource_logs'], scopes: ['scopeLogs', 'scope_logs'], records: ['logRecords', 'log_records'] } as const;

export function referenceDecodeLogsJson(body: Buffer, budget: RecordBudget): Decoded<'logs'> {
  const out = emptyDecoded<'logs'>();
  walkJsonExport(body, SHAPE, out, budget, (value, resource, scope) => {
    if (!isObject(value)) throw new ShapeError('log record is not an object');
    const row: Building<LogRow> = {
      resource,
      scope,
      timeUnixNano: uint64(field(value, 'timeUnixNano', 'time_unix_nano'), 'timeUnixNano'),
      observedTimeUnixNano: uint64(field(value, 'observedTimeUnixNano', 'observed_time_unix_nano'), 'observedTimeUnixNano'),
      severityNumber: int(field(value, 'severityNumber', 'severity_number'), 'severityNumber'),
      severityText: str(field(value, 'severityText', 'severity_text'), 'severityText'),
      body: anyValue(value['body']),
      attributes: attributes(value['attributes']),
      droppedAttributesCount: int(field(value, 'droppedAttributesCount', 'dropped_attributes_count'), 'droppedAttributesCount'),
      flags: int(value['flags'], 'flags') >>> 0,
      traceId: logTraceId(id(field(value, 'traceId', 'trace_id'), 'traceId')),
      spanId: logSpanId(id(field(value, 'spanId', 'span_id'), 'spanId')),
      eventName: str(field(value, 'eventName', 'event_name'), 'eventName'),
    };
    out.rows.push(row);
  });
  return out;
}
