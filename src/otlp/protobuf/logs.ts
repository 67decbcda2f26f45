// ExportLogsServiceRequest wire bytes → log rows.
import { emptyLogRow } from '../../model/building.js';
import type { LogRow } from '../../model/logs.js';
import type { Resource, Scope } from '../../model/resource.js';
import { logSpanId, logTraceId } from '../checks.js';
import type { Decoded, RecordBudget } from '../result.js';
import { Reader, WIRE_I32, WIRE_I64, WIRE_LEN, WIRE_VARINT } from '../wire.js';
import { anyValue, decodeRecords, expect, keyValue } from './common.js';

function logRecord(r: Reader, end: number, resource: Resource, scope: Scope): LogRow {
  const row = emptyLogRow(resource, scope);
  while (r.more(end)) {
    const tag = r.varint();
    switch (tag >>> 3) {
      case 1:
        expect(tag, WIRE_I64);
        row.timeUnixNano = r.fixed64();
        break;
      case 11:
        expect(tag, WIRE_I64);
        row.observedTimeUnixNano = r.fixed64();
        break;
      case 2:
        expect(tag, WIRE_VARINT);
        row.severityNumber = r.int32();
        break;
      case 3:
        expect(tag, WIRE_LEN);
        row.severityText = r.string();
        break;
      case 5:
        expect(tag, WIRE_LEN);
        row.body = anyValue(r, r.delimited());
        break;
      case 6:
        expect(tag, WIRE_LEN);
        keyValue(r, r.delimited(), row.attributes);
        break;
      case 7:
        expect(tag, WIRE_VARINT);
        row.droppedAttributesCount = r.varint();
        break;
      case 8:
        expect(tag, WIRE_I32);
        row.flags = r.fixed32();
        break;
      case 9:
        expect(tag, WIRE_LEN);
        row.traceId = logTraceId(r.hex());
        break;
      case 10:
        expect(tag, WIRE_LEN);
        row.spanId = logSpanId(r.hex());
        break;
      case 12:
        expect(tag, WIRE_LEN);
        row.eventName = r.string();
        break;
      default:
        r.skip(tag & 7);
    }
  }
  return row;
}

export function decodeLogsProto(buf: Buffer, budget: RecordBudget, watch = false): Decoded<'logs'> {
  return decodeRecords<'logs'>(buf, budget, logRecord, undefined, watch);
}
