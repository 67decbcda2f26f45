// OTLP JSON ExportLogsServiceRequest bytes → log rows, read straight from the body (reader.ts).
import { emptyLogRow, type Building } from '../../model/building.js';
import type { LogRow } from '../../model/logs.js';
import type { Resource, Scope } from '../../model/resource.js';
import { logSpanId, logTraceId } from '../checks.js';
import type { Decoded, RecordBudget } from '../result.js';
import { NameTable } from './names.js';
import { anyValue, attributes, fieldsExact, fieldsOnce } from './read-common.js';
import { exportShape, readExport } from './read-export.js';
import { LBRACE, ShapeError, type JsonReader } from './reader.js';
import { enumValue, hex, int32, text, uint64 } from './values.js';

const SHAPE = exportShape(['resourceLogs', 'resource_logs'], ['scopeLogs', 'scope_logs'], ['logRecords', 'log_records']);

// A field's two spellings are ids 2k and 2k+1 (lowerCamelCase first); fields with one spelling
// (body, attributes, flags) take both ids, the second never matched.
const NAMES = [
  'timeUnixNano', 'time_unix_nano',
  'observedTimeUnixNano', 'observed_time_unix_nano',
  'severityNumber', 'severity_number',
  'severityText', 'severity_text',
  'body', '',
  'attributes', '',
  'droppedAttributesCount', 'dropped_attributes_count',
  'flags', '',
  'traceId', 'trace_id',
  'spanId', 'span_id',
  'eventName', 'event_name',
];
const RECORD = new NameTable(NAMES);

/** SeverityNumber by name: the Collector takes enums as names or numbers. */
const SEVERITY: ReadonlyMap<string, number> = new Map(
  ['UNSPECIFIED', 'TRACE', 'TRACE2', 'TRACE3', 'TRACE4', 'DEBUG', 'DEBUG2', 'DEBUG3', 'DEBUG4', 'INFO', 'INFO2', 'INFO3', 'INFO4', 'WARN', 'WARN2', 'WARN3', 'WARN4', 'ERROR', 'ERROR2', 'ERROR3', 'ERROR4', 'FATAL', 'FATAL2', 'FATAL3', 'FATAL4'].map((name, n) => [`SEVERITY_NUMBER_${name}`, n]),
);


/** Reads the value of field `field` (a NAMES index over 2) at the reader into the row. */
function readField(r: JsonReader, row: Building<LogRow>, field: number): void {
  switch (field) {
    case 0:
      row.timeUnixNano = uint64(r);
      break;
    case 1:
      row.observedTimeUnixNano = uint64(r);
      break;
    case 2:
      row.severityNumber = enumValue(r, SEVERITY);
      break;
    case 3:
      row.severityText = text(r);
      break;
    case 4:
      row.body = anyValue(r);
      break;
    case 5:
      attributes(r, row.attributes);
      break;
    case 6:
      row.droppedAttributesCount = int32(r);
      break;
    case 7:
      row.flags = int32(r) >>> 0;
      break;
    case 8:
      row.traceId = logTraceId(hex(r));
      break;
    case 9:
      row.spanId = logSpanId(hex(r));
      break;
    default:
      row.eventName = text(r);
  }
}

function readLogRecord(r: JsonReader, out: Decoded<'logs'>, resource: Resource, scope: Scope): void {
  if (r.buf[r.pos] !== LBRACE) throw new ShapeError('log record is not an object');
  let row = emptyLogRow(resource, scope);
  if (!fieldsOnce(r, RECORD, row, readField)) {
    row = emptyLogRow(resource, scope);
    fieldsExact(r, RECORD, row, readField);
  }
  out.rows.push(row);
}

export function decodeLogsJson(body: Buffer, budget: RecordBudget): Decoded<'logs'> {
  return readExport<'logs'>(body, SHAPE, budget, readLogRecord);
}
