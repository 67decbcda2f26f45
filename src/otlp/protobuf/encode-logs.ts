// Log rows → ExportLogsServiceRequest wire bytes.
import type { LogRow } from '../../model/logs.js';
import type { RowGroups } from '../../model/group.js';
import { writeAnyValue, writeAttributes, writeExport, writeFixed32, writeFixed64, writeId, writeInt32, writeString, writeUint } from './encode-common.js';
import type { Writer } from './writer.js';

function writeLogRecord(w: Writer, row: LogRow): void {
  const at = w.begin(2);
  writeFixed64(w, 1, row.timeUnixNano);
  writeInt32(w, 2, row.severityNumber);
  writeString(w, 3, row.severityText);
  if (row.body !== null) {
    const body = w.begin(5);
    writeAnyValue(w, row.body);
    w.end(body);
  }
  writeAttributes(w, 6, row.attributes);
  writeUint(w, 7, row.droppedAttributesCount);
  writeFixed32(w, 8, row.flags);
  writeId(w, 9, row.traceId);
  writeId(w, 10, row.spanId);
  writeFixed64(w, 11, row.observedTimeUnixNano);
  writeString(w, 12, row.eventName);
  w.end(at);
}

export function encodeLogsProto(w: Writer, groups: RowGroups<LogRow>): void {
  writeExport(w, groups, (writer, rows: LogRow[]) => {
    for (const row of rows) writeLogRecord(writer, row);
  });
}
