// An encoded protobuf body as protobufjs (the reference codec, independent of otelgate's decoders)
// reads it, in the shape of OTLP/JSON: what our JSON encoder must write for the same rows.
import type { Signal } from '../../src/model/signal.js';
import { requestType } from './otlp.js';

const ID_FIELDS = new Set(['traceId', 'spanId', 'parentSpanId']);

/** protobufjs writes bytes as base64; OTLP/JSON writes ids (and only ids) as hex. */
function idsToHex(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(idsToHex);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = ID_FIELDS.has(key) && typeof inner === 'string' ? Buffer.from(inner, 'base64').toString('hex') : idsToHex(inner);
  }
  return out;
}

/**
 * protobufjs's object for the bytes, with the fields present on the wire only (no defaults, no
 * empty lists), 64-bit integers as decimal strings, bytes as base64, NaN and infinities as strings.
 */
export function protobufjsView(signal: Signal, body: Uint8Array): unknown {
  const type = requestType(signal);
  return idsToHex(type.toObject(type.decode(body), { longs: String, bytes: String, json: true }));
}
