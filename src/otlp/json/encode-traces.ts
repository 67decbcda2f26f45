// Span rows → OTLP/JSON ExportTraceServiceRequest.
import type { RowGroups } from '../../model/group.js';
import type { SpanEvent, SpanLink, SpanRow } from '../../model/traces.js';
import { writeAttributes, writeExport, writeId, writeInt, writeInt64, writeString } from './encode-common.js';
import type { JsonWriter } from './writer.js';

const NAMES = { resources: 'resourceSpans', scopes: 'scopeSpans', records: 'spans' };

function writeEvent(w: JsonWriter, event: SpanEvent): void {
  w.item();
  w.open();
  writeInt64(w, 'timeUnixNano', event.timeUnixNano);
  writeString(w, 'name', event.name);
  writeAttributes(w, 'attributes', event.attributes);
  writeInt(w, 'droppedAttributesCount', event.droppedAttributesCount);
  w.close();
}

function writeLink(w: JsonWriter, link: SpanLink): void {
  w.item();
  w.open();
  writeId(w, 'traceId', link.traceId);
  writeId(w, 'spanId', link.spanId);
  writeString(w, 'traceState', link.traceState);
  writeAttributes(w, 'attributes', link.attributes);
  writeInt(w, 'droppedAttributesCount', link.droppedAttributesCount);
  writeInt(w, 'flags', link.flags);
  w.close();
}

function writeSpan(w: JsonWriter, row: SpanRow): void {
  w.open();
  writeId(w, 'traceId', row.traceId);
  writeId(w, 'spanId', row.spanId);
  writeString(w, 'traceState', row.traceState);
  writeId(w, 'parentSpanId', row.parentSpanId);
  writeString(w, 'name', row.name);
  writeInt(w, 'kind', row.kind);
  writeInt64(w, 'startTimeUnixNano', row.startTimeUnixNano);
  writeInt64(w, 'endTimeUnixNano', row.endTimeUnixNano);
  writeAttributes(w, 'attributes', row.attributes);
  writeInt(w, 'droppedAttributesCount', row.droppedAttributesCount);
  if (row.events.length > 0) {
    w.key('events');
    w.openArray();
    for (const event of row.events) writeEvent(w, event);
    w.closeArray();
  }
  writeInt(w, 'droppedEventsCount', row.droppedEventsCount);
  if (row.links.length > 0) {
    w.key('links');
    w.openArray();
    for (const link of row.links) writeLink(w, link);
    w.closeArray();
  }
  writeInt(w, 'droppedLinksCount', row.droppedLinksCount);
  // The SDKs and the Collector send a status on every span, unset or not.
  w.key('status');
  w.open();
  writeString(w, 'message', row.statusMessage);
  writeInt(w, 'code', row.statusCode);
  w.close();
  writeInt(w, 'flags', row.flags);
  w.close();
}

export function encodeTracesJson(w: JsonWriter, groups: RowGroups<SpanRow>): void {
  writeExport(w, NAMES, groups, (writer, rows: SpanRow[]) => {
    for (const row of rows) {
      writer.item();
      writeSpan(writer, row);
    }
  });
}
