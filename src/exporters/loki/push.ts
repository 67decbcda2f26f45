// The body of a push to Loki: its protobuf PushRequest (proto/loki/push.proto), written with the
// OTLP encoders' writer, which the sending queue holds as it is and the push compresses with
// snappy as Loki requires; or Loki's JSON form.
import { Writer } from '../../otlp/protobuf/writer.js';
import { WIRE_LEN, WIRE_VARINT } from '../../otlp/wire.js';
import type { LokiEntry, LokiStream } from './streams.js';

const NANOS_PER_SECOND = 1_000_000_000n;

const writer = new Writer();

function writePairs(w: Writer, pairs: readonly string[]): void {
  for (let i = 0; i < pairs.length; i += 2) {
    const at = w.begin(3);
    w.tag(1, WIRE_LEN);
    w.string(pairs[i] as string);
    w.tag(2, WIRE_LEN);
    w.string(pairs[i + 1] as string);
    w.end(at);
  }
}

/** Structured metadata pairs as an entry's fields, for pairs every entry of a resource carries. */
export function metadataWire(pairs: readonly string[]): Uint8Array {
  const w = new Writer(256);
  writePairs(w, pairs);
  return w.finish();
}

function writeEntry(w: Writer, entry: LokiEntry): void {
  const at = w.begin(2);
  const time = w.begin(1);
  const seconds = entry.timeUnixNano / NANOS_PER_SECOND;
  const nanos = Number(entry.timeUnixNano % NANOS_PER_SECOND);
  if (seconds !== 0n) {
    w.tag(1, WIRE_VARINT);
    w.int64(seconds);
  }
  if (nanos !== 0) {
    w.tag(2, WIRE_VARINT);
    w.varint(nanos);
  }
  w.end(time);
  w.tag(2, WIRE_LEN);
  w.string(entry.line);
  w.raw(entry.shared.wire);
  writePairs(w, entry.own);
  w.end(at);
}

/** A PushRequest of `streams`, uncompressed: what the queue holds. */
export function pushRequest(streams: readonly LokiStream[]): Buffer {
  const w = writer;
  w.reset();
  for (const stream of streams) {
    const at = w.begin(1);
    w.tag(1, WIRE_LEN);
    w.string(stream.labels);
    for (const entry of stream.entries) writeEntry(w, entry);
    w.end(at);
  }
  return w.finish();
}

function metadataObject(entry: LokiEntry): Record<string, string> | undefined {
  if (entry.shared.pairs.length === 0 && entry.own.length === 0) return undefined;
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const pairs of [entry.shared.pairs, entry.own]) for (let i = 0; i < pairs.length; i += 2) out[pairs[i] as string] = pairs[i + 1] as string;
  return out;
}

/** Loki's JSON push: {"streams": [{"stream": {labels}, "values": [["<unix ns>", "<line>", {metadata}?]]}]}. */
export function jsonPush(streams: readonly LokiStream[]): Buffer {
  const body = {
    streams: streams.map((stream) => ({
      stream: Object.fromEntries(stream.pairs),
      values: stream.entries.map((entry) => {
        const metadata = metadataObject(entry);
        return metadata === undefined ? [String(entry.timeUnixNano), entry.line] : [String(entry.timeUnixNano), entry.line, metadata];
      }),
    })),
  };
  return Buffer.from(JSON.stringify(body));
}
