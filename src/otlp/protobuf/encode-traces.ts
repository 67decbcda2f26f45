// Span rows → ExportTraceServiceRequest wire bytes.
import type { RowGroups } from '../../model/group.js';
import type { SpanEvent, SpanLink, SpanRow } from '../../model/traces.js';
import { writeAttributes, writeExport, writeFixed32, writeFixed64, writeId, writeInt32, writeString, writeUint } from './encode-common.js';
import type { Writer } from './writer.js';

function writeEvent(w: Writer, event: SpanEvent): void {
  const at = w.begin(11);
  writeFixed64(w, 1, event.timeUnixNano);
  writeString(w, 2, event.name);
  writeAttributes(w, 3, event.attributes);
  writeUint(w, 4, event.droppedAttributesCount);
  w.end(at);
}

function writeLink(w: Writer, link: SpanLink): void {
  const at = w.begin(13);
  writeId(w, 1, link.traceId);
  writeId(w, 2, link.spanId);
  writeString(w, 3, link.traceState);
  writeAttributes(w, 4, link.attributes);
  writeUint(w, 5, link.droppedAttributesCount);
  writeFixed32(w, 6, link.flags);
  w.end(at);
}

function writeSpan(w: Writer, row: SpanRow): void {
  const at = w.begin(2);
  writeId(w, 1, row.traceId);
  writeId(w, 2, row.spanId);
  writeString(w, 3, row.traceState);
  writeId(w, 4, row.parentSpanId);
  writeString(w, 5, row.name);
  writeInt32(w, 6, row.kind);
  writeFixed64(w, 7, row.startTimeUnixNano);
  writeFixed64(w, 8, row.endTimeUnixNano);
  writeAttributes(w, 9, row.attributes);
  writeUint(w, 10, row.droppedAttributesCount);
  for (const event of row.events) writeEvent(w, event);
  writeUint(w, 12, row.droppedEventsCount);
  for (const link of row.links) writeLink(w, link);
  writeUint(w, 14, row.droppedLinksCount);
  // The SDKs and the Collector send a status on every span, unset or not.
  const status = w.begin(15);
  writeString(w, 2, row.statusMessage);
  writeInt32(w, 3, row.statusCode);
  w.end(status);
  writeFixed32(w, 16, row.flags);
  w.end(at);
}

export function encodeTracesProto(w: Writer, groups: RowGroups<SpanRow>): void {
  writeExport(w, groups, (writer, rows: SpanRow[]) => {
    for (const row of rows) writeSpan(writer, row);
  });
}
