// OTLP JSON ExportTraceServiceRequest bytes → span rows, read straight from the body (reader.ts).
import { emptySpanEvent, emptySpanLink, emptySpanRow, type Building } from '../../model/building.js';
import type { Resource, Scope } from '../../model/resource.js';
import type { SpanEvent, SpanLink, SpanRow } from '../../model/traces.js';
import { spanProblem } from '../checks.js';
import type { Decoded, RecordBudget } from '../result.js';
import { NameTable } from './names.js';
import { attributes, fieldsExact, fieldsOnce, GUESSES, repeatedText, type FieldReader } from './read-common.js';
import { exportShape, readExport } from './read-export.js';
import { LBRACE, LBRACKET, ShapeError, type JsonReader } from './reader.js';
import { enumValue, hex, int32, text, uint64 } from './values.js';

const SHAPE = exportShape(['resourceSpans', 'resource_spans'], ['scopeSpans', 'scope_spans'], ['spans', '']);

// A field's two spellings are ids 2k and 2k+1 (lowerCamelCase first); fields with one spelling
// take both ids, the second never matched. In the order of trace.proto's field numbers.
const SPAN = new NameTable([
  'traceId', 'trace_id',
  'spanId', 'span_id',
  'traceState', 'trace_state',
  'parentSpanId', 'parent_span_id',
  'name', '',
  'kind', '',
  'startTimeUnixNano', 'start_time_unix_nano',
  'endTimeUnixNano', 'end_time_unix_nano',
  'attributes', '',
  'droppedAttributesCount', 'dropped_attributes_count',
  'events', '',
  'droppedEventsCount', 'dropped_events_count',
  'links', '',
  'droppedLinksCount', 'dropped_links_count',
  'status', '',
  'flags', '',
]);
const EVENT = new NameTable(['timeUnixNano', 'time_unix_nano', 'name', '', 'attributes', '', 'droppedAttributesCount', 'dropped_attributes_count']);
const LINK = new NameTable(['traceId', 'trace_id', 'spanId', 'span_id', 'traceState', 'trace_state', 'attributes', '', 'droppedAttributesCount', 'dropped_attributes_count', 'flags', '']);
const STATUS = new NameTable(['code', '', 'message', '']);

/** The enums by name: the Collector takes them as names or numbers. */
const SPAN_KIND: ReadonlyMap<string, number> = new Map(['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'].map((name, n) => [`SPAN_KIND_${name}`, n]));
const STATUS_CODE: ReadonlyMap<string, number> = new Map(['UNSET', 'OK', 'ERROR'].map((name, n) => [`STATUS_CODE_${name}`, n]));

function readSpanField(r: JsonReader, row: Building<SpanRow>, field: number): void {
  switch (field) {
    case 0:
      row.traceId = hex(r);
      break;
    case 1:
      row.spanId = hex(r);
      break;
    case 2:
      row.traceState = text(r);
      break;
    case 3:
      row.parentSpanId = hex(r);
      break;
    case 4:
      row.name = repeatedText(r, GUESSES.spanName);
      break;
    case 5:
      row.kind = enumValue(r, SPAN_KIND);
      break;
    case 6:
      row.startTimeUnixNano = uint64(r);
      break;
    case 7:
      row.endTimeUnixNano = uint64(r);
      break;
    case 8:
      attributes(r, row.attributes);
      break;
    case 9:
      row.droppedAttributesCount = int32(r);
      break;
    case 10:
      entries(r, row.events, EVENT, emptySpanEvent, readEventField);
      break;
    case 11:
      row.droppedEventsCount = int32(r);
      break;
    case 12:
      entries(r, row.links, LINK, emptySpanLink, readLinkField);
      break;
    case 13:
      row.droppedLinksCount = int32(r);
      break;
    case 14:
      status(r, row);
      break;
    default:
      row.flags = int32(r) >>> 0;
  }
}

function readEventField(r: JsonReader, event: Building<SpanEvent>, field: number): void {
  switch (field) {
    case 0:
      event.timeUnixNano = uint64(r);
      break;
    case 1:
      event.name = repeatedText(r, GUESSES.eventName);
      break;
    case 2:
      attributes(r, event.attributes, GUESSES.eventAttributes);
      break;
    default:
      event.droppedAttributesCount = int32(r);
  }
}

function readLinkField(r: JsonReader, link: Building<SpanLink>, field: number): void {
  switch (field) {
    case 0:
      link.traceId = hex(r);
      break;
    case 1:
      link.spanId = hex(r);
      break;
    case 2:
      link.traceState = text(r);
      break;
    case 3:
      attributes(r, link.attributes, GUESSES.linkAttributes);
      break;
    case 4:
      link.droppedAttributesCount = int32(r);
      break;
    default:
      link.flags = int32(r) >>> 0;
  }
}

function readStatusField(r: JsonReader, row: Building<SpanRow>, field: number): void {
  if (field === 0) row.statusCode = enumValue(r, STATUS_CODE);
  else row.statusMessage = text(r);
}

/** Events or links: a list of objects into `into` (empty); null is the empty list. */
function entries<T>(r: JsonReader, into: T[], table: NameTable, make: () => T, read: FieldReader<T>): void {
  if (r.null()) return;
  if (r.buf[r.pos] !== LBRACKET) throw new ShapeError('events or links is not a list');
  r.openArray();
  while (r.item()) {
    if (r.buf[r.pos] !== LBRACE) throw new ShapeError('an event or link is not an object');
    const entry = make();
    if (fieldsOnce(r, table, entry, read)) into.push(entry);
    else {
      const exact = make();
      fieldsExact(r, table, exact, read);
      into.push(exact);
    }
  }
}

/** Status, into the row (its fields at their defaults); anything but an object is the unset status, as a resource or scope is empty then. */
function status(r: JsonReader, row: Building<SpanRow>): void {
  if (r.buf[r.pos] !== LBRACE) {
    r.skip();
    return;
  }
  // Its fields are scalars: a second reading overwrites each field the first one set.
  if (!fieldsOnce(r, STATUS, row, readStatusField)) fieldsExact(r, STATUS, row, readStatusField);
}

function readSpan(r: JsonReader, out: Decoded<'traces'>, resource: Resource, scope: Scope): void {
  if (r.buf[r.pos] !== LBRACE) throw new ShapeError('span is not an object');
  let row = emptySpanRow(resource, scope);
  if (!fieldsOnce(r, SPAN, row, readSpanField)) {
    row = emptySpanRow(resource, scope);
    fieldsExact(r, SPAN, row, readSpanField);
  }
  if (spanProblem(row) === undefined) out.rows.push(row);
  else out.skipped++;
}

export function decodeTracesJson(body: Buffer, budget: RecordBudget): Decoded<'traces'> {
  return readExport<'traces'>(body, SHAPE, budget, readSpan);
}
