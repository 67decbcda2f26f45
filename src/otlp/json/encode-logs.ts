// Log rows → OTLP/JSON ExportLogsServiceRequest.
import type { RowGroups } from '../../model/group.js';
import type { LogRow } from '../../model/logs.js';
import { anyValue, attributes, exportJson, id, int, int64, object, string } from './encode-common.js';

const NAMES = { resources: 'resourceLogs', scopes: 'scopeLogs', records: 'logRecords' };

function logRecord(row: LogRow): string {
  return object(
    int64('timeUnixNano', row.timeUnixNano) +
      int('severityNumber', row.severityNumber) +
      string('severityText', row.severityText) +
      (row.body === null ? '' : `,"body":${anyValue(row.body)}`) +
      attributes('attributes', row.attributes) +
      int('droppedAttributesCount', row.droppedAttributesCount) +
      int('flags', row.flags) +
      id('traceId', row.traceId) +
      id('spanId', row.spanId) +
      int64('observedTimeUnixNano', row.observedTimeUnixNano) +
      string('eventName', row.eventName),
  );
}

export function encodeLogsJson(groups: RowGroups<LogRow>): string {
  return exportJson(NAMES, groups, (rows: LogRow[]) => rows.map(logRecord).join(','));
}
