// Log rows → OTLP/JSON ExportLogsServiceRequest.
import type { RowGroups } from '../../model/group.js';
import type { LogRow } from '../../model/logs.js';
import { writeAnyValue, writeAttributes, writeExport, writeId, writeInt, writeInt64, writeString } from './encode-common.js';
import type { JsonWriter } from './writer.js';

const NAMES = { resources: 'resourceLogs', scopes: 'scopeLogs', records: 'logRecords' };

function writeLogRecord(w: JsonWriter, row: LogRow): void {
  w.open();
  writeInt64(w, 'timeUnixNano', row.timeUnixNano);
  writeInt(w, 'severityNumber', row.severityNumber);
  writeString(w, 'severityText', row.severityText);
  if (row.body !== null) {
    w.key('body');
    writeAnyValue(w, row.body);
  }
  writeAttributes(w, 'attributes', row.attributes);
  writeInt(w, 'droppedAttributesCount', row.droppedAttributesCount);
  writeInt(w, 'flags', row.flags);
  writeId(w, 'traceId', row.traceId);
  writeId(w, 'spanId', row.spanId);
  writeInt64(w, 'observedTimeUnixNano', row.observedTimeUnixNano);
  writeString(w, 'eventName', row.eventName);
  w.close();
}

export function encodeLogsJson(w: JsonWriter, groups: RowGroups<LogRow>): void {
  writeExport(w, NAMES, groups, (writer, rows: LogRow[]) => {
    for (const row of rows) {
      writer.item();
      writeLogRecord(writer, row);
    }
  });
}
