// ExportTraceServiceRequest wire bytes → span rows.
import { emptySpanEvent, emptySpanLink, emptySpanRow, type Building } from '../../model/building.js';
import type { Resource, Scope } from '../../model/resource.js';
import type { SpanEvent, SpanLink, SpanRow } from '../../model/traces.js';
import { spanProblem } from '../checks.js';
import type { Decoded, RecordBudget } from '../result.js';
import { Reader, WIRE_I32, WIRE_I64, WIRE_LEN, WIRE_VARINT } from '../wire.js';
import { decodeRecords, expect, keyValue } from './common.js';

function event(r: Reader, end: number): SpanEvent {
  const out = emptySpanEvent();
  while (r.more(end)) {
    const tag = r.varint();
    switch (tag >>> 3) {
      case 1:
        expect(tag, WIRE_I64);
        out.timeUnixNano = r.fixed64();
        break;
      case 2:
        expect(tag, WIRE_LEN);
        out.name = r.string();
        break;
      case 3:
        expect(tag, WIRE_LEN);
        keyValue(r, r.delimited(), out.attributes);
        break;
      case 4:
        expect(tag, WIRE_VARINT);
        out.droppedAttributesCount = r.varint();
        break;
      default:
        r.skip(tag & 7);
    }
  }
  return out;
}

function link(r: Reader, end: number): SpanLink {
  const out = emptySpanLink();
  while (r.more(end)) {
    const tag = r.varint();
    switch (tag >>> 3) {
      case 1:
        expect(tag, WIRE_LEN);
        out.traceId = r.hex();
        break;
      case 2:
        expect(tag, WIRE_LEN);
        out.spanId = r.hex();
        break;
      case 3:
        expect(tag, WIRE_LEN);
        out.traceState = r.string();
        break;
      case 4:
        expect(tag, WIRE_LEN);
        keyValue(r, r.delimited(), out.attributes);
        break;
      case 5:
        expect(tag, WIRE_VARINT);
        out.droppedAttributesCount = r.varint();
        break;
      case 6:
        expect(tag, WIRE_I32);
        out.flags = r.fixed32();
        break;
      default:
        r.skip(tag & 7);
    }
  }
  return out;
}

function status(r: Reader, end: number, row: Building<SpanRow>): void {
  while (r.more(end)) {
    const tag = r.varint();
    const field = tag >>> 3;
    if (field === 2) {
      expect(tag, WIRE_LEN);
      row.statusMessage = r.string();
    } else if (field === 3) {
      expect(tag, WIRE_VARINT);
      row.statusCode = r.int32();
    } else {
      r.skip(tag & 7);
    }
  }
}

function span(r: Reader, end: number, resource: Resource, scope: Scope): SpanRow {
  const row = emptySpanRow(resource, scope);
  while (r.more(end)) {
    const tag = r.varint();
    switch (tag >>> 3) {
      case 1:
        expect(tag, WIRE_LEN);
        row.traceId = r.hex();
        break;
      case 2:
        expect(tag, WIRE_LEN);
        row.spanId = r.hex();
        break;
      case 3:
        expect(tag, WIRE_LEN);
        row.traceState = r.string();
        break;
      case 4:
        expect(tag, WIRE_LEN);
        row.parentSpanId = r.hex();
        break;
      case 16:
        expect(tag, WIRE_I32);
        row.flags = r.fixed32();
        break;
      case 5:
        expect(tag, WIRE_LEN);
        row.name = r.string();
        break;
      case 6:
        expect(tag, WIRE_VARINT);
        row.kind = r.int32();
        break;
      case 7:
        expect(tag, WIRE_I64);
        row.startTimeUnixNano = r.fixed64();
        break;
      case 8:
        expect(tag, WIRE_I64);
        row.endTimeUnixNano = r.fixed64();
        break;
      case 9:
        expect(tag, WIRE_LEN);
        keyValue(r, r.delimited(), row.attributes);
        break;
      case 10:
        expect(tag, WIRE_VARINT);
        row.droppedAttributesCount = r.varint();
        break;
      case 11: {
        expect(tag, WIRE_LEN);
        const eventEnd = r.delimited();
        row.events.push(event(r, eventEnd));
        break;
      }
      case 12:
        expect(tag, WIRE_VARINT);
        row.droppedEventsCount = r.varint();
        break;
      case 13: {
        expect(tag, WIRE_LEN);
        const linkEnd = r.delimited();
        row.links.push(link(r, linkEnd));
        break;
      }
      case 14:
        expect(tag, WIRE_VARINT);
        row.droppedLinksCount = r.varint();
        break;
      case 15:
        expect(tag, WIRE_LEN);
        status(r, r.delimited(), row);
        break;
      default:
        r.skip(tag & 7);
    }
  }
  return row;
}

export function decodeTracesProto(buf: Buffer, budget: RecordBudget, watch = false): Decoded<'traces'> {
  return decodeRecords<'traces'>(buf, budget, span, spanProblem, watch);
}
