// Span rows → OTLP/JSON ExportTraceServiceRequest.
import type { RowGroups } from '../../model/group.js';
import type { SpanEvent, SpanLink, SpanRow } from '../../model/traces.js';
import { attributes, exportJson, id, int, int64, list, object, string } from './encode-common.js';

const NAMES = { resources: 'resourceSpans', scopes: 'scopeSpans', records: 'spans' };

function event(e: SpanEvent): string {
  return object(int64('timeUnixNano', e.timeUnixNano) + string('name', e.name) + attributes('attributes', e.attributes) + int('droppedAttributesCount', e.droppedAttributesCount));
}

function link(l: SpanLink): string {
  return object(
    id('traceId', l.traceId) +
      id('spanId', l.spanId) +
      string('traceState', l.traceState) +
      attributes('attributes', l.attributes) +
      int('droppedAttributesCount', l.droppedAttributesCount) +
      int('flags', l.flags),
  );
}

function span(row: SpanRow): string {
  return object(
    id('traceId', row.traceId) +
      id('spanId', row.spanId) +
      string('traceState', row.traceState) +
      id('parentSpanId', row.parentSpanId) +
      string('name', row.name) +
      int('kind', row.kind) +
      int64('startTimeUnixNano', row.startTimeUnixNano) +
      int64('endTimeUnixNano', row.endTimeUnixNano) +
      attributes('attributes', row.attributes) +
      int('droppedAttributesCount', row.droppedAttributesCount) +
      list('events', row.events.map(event)) +
      int('droppedEventsCount', row.droppedEventsCount) +
      list('links', row.links.map(link)) +
      int('droppedLinksCount', row.droppedLinksCount) +
      // The SDKs and the Collector send a status on every span, unset or not.
      `,"status":${object(string('message', row.statusMessage) + int('code', row.statusCode))}` +
      int('flags', row.flags),
  );
}

export function encodeTracesJson(groups: RowGroups<SpanRow>): string {
  return exportJson(NAMES, groups, (rows: SpanRow[]) => rows.map(span).join(','));
}
