// A label pair as a protobuf field: a message of a name (field 1) and a value (field 2), as both
// Prometheus's remote-write Label and Loki's LabelPairAdapter are, written once and kept by the
// encoders that repeat it.
import { fieldSize, putVarint } from '../../otlp/protobuf/writer.js';

/** The field of `tag` (a length-delimited one) holding the pair of `name` and `value`. */
export function labelPairField(tag: number, name: string, value: string): Buffer {
  const nameBytes = Buffer.byteLength(name);
  const valueBytes = Buffer.byteLength(value);
  const inner = fieldSize(nameBytes) + fieldSize(valueBytes);
  const bytes = Buffer.allocUnsafe(fieldSize(inner));
  bytes[0] = tag;
  let at = putVarint(bytes, 1, inner);
  bytes[at++] = 0x0a;
  at = putVarint(bytes, at, nameBytes);
  at += bytes.write(name, at);
  bytes[at++] = 0x12;
  at = putVarint(bytes, at, valueBytes);
  bytes.write(value, at);
  return bytes;
}
