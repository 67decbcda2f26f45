// OTLP JSON ExportLogsServiceRequest → log rows.
import type { Building } from '../../model/building.js';
import type { LogRow } from '../../model/logs.js';
import { logProblem } from '../checks.js';
import { emptyDecoded, type Decoded, type RecordBudget } from '../result.js';
import { anyValue, attributes, field, id, int, isObject, ShapeError, str, uint64, walkJsonExport } from './common.js';

const SHAPE = { resources: ['resourceLogs', 'resource_logs'], scopes: ['scopeLogs', 'scope_logs'], records: ['logRecords', 'log_records'] } as const;

export function decodeLogsJson(body: Buffer, budget: RecordBudget): Decoded<'logs'> {
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
      traceId: id(field(value, 'traceId', 'trace_id'), 'traceId'),
      spanId: id(field(value, 'spanId', 'span_id'), 'spanId'),
      eventName: str(field(value, 'eventName', 'event_name'), 'eventName'),
    };
    if (logProblem(row) === undefined) out.rows.push(row);
    else out.skipped++;
  });
  return out;
}
