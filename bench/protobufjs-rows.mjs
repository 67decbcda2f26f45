// The protobufjs way to the same log rows: decode the message into objects, then map them. This is
// what otelgate would do with a generated codec; the benchmark compares its own wire reader to it.
import { REQUEST_TYPES } from './payloads.mjs';

const Long = (v) => (typeof v === 'number' ? BigInt(v) : BigInt.asUintN(64, (BigInt(v.high >>> 0) << 32n) | BigInt(v.low >>> 0)));

function anyValue(v) {
  if (v == null) return null;
  if (v.stringValue != null) return v.stringValue;
  if (v.boolValue != null) return v.boolValue;
  if (v.intValue != null) return Long(v.intValue);
  if (v.doubleValue != null) return v.doubleValue;
  if (v.bytesValue != null) return v.bytesValue;
  if (v.arrayValue != null) return v.arrayValue.values.map(anyValue);
  if (v.kvlistValue != null) return attributes(v.kvlistValue.values);
  return null;
}

function attributes(list) {
  const out = Object.create(null);
  for (const kv of list) out[kv.key] = anyValue(kv.value);
  return out;
}

const hex = (bytes) => (bytes == null || bytes.length === 0 ? '' : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex'));

export function protobufjsLogRows(body) {
  const message = REQUEST_TYPES.logs.decode(body);
  const rows = [];
  for (const rl of message.resourceLogs) {
    const resource = { attributes: attributes(rl.resource?.attributes ?? []), droppedAttributesCount: rl.resource?.droppedAttributesCount ?? 0, schemaUrl: rl.schemaUrl ?? '' };
    for (const sl of rl.scopeLogs) {
      const scope = { name: sl.scope?.name ?? '', version: sl.scope?.version ?? '', attributes: attributes(sl.scope?.attributes ?? []), droppedAttributesCount: 0, schemaUrl: sl.schemaUrl ?? '' };
      for (const r of sl.logRecords) {
        rows.push({
          resource,
          scope,
          timeUnixNano: Long(r.timeUnixNano ?? 0),
          observedTimeUnixNano: Long(r.observedTimeUnixNano ?? 0),
          severityNumber: r.severityNumber ?? 0,
          severityText: r.severityText ?? '',
          body: anyValue(r.body),
          attributes: attributes(r.attributes),
          droppedAttributesCount: r.droppedAttributesCount ?? 0,
          flags: r.flags ?? 0,
          traceId: hex(r.traceId),
          spanId: hex(r.spanId),
          eventName: r.eventName ?? '',
        });
      }
    }
  }
  return rows;
}
