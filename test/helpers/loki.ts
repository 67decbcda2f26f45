// A stand-in Loki for exporter tests (no Loki binary can be installed here): it reads a push as
// Loki's distributor does. application/json is Loki's JSON push; anything else is a protobuf
// PushRequest (field numbers of Loki's push.proto, proto/loki/push.proto, read by protobufjs)
// in snappy's block format, decompressed by the rules of Loki's Go decoder. Each stream's labels
// are parsed as Loki parses them, and a stream Loki would refuse (no label, a name twice, a bad
// name) makes the push a 400, as in Loki.
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import type { BackendWire } from './backend.js';
import { snappyDecodeStrict } from './snappy-decode.js';

const root = protobuf.loadSync(fileURLToPath(new URL('../../proto/loki/push.proto', import.meta.url)));
export const PushRequest = root.lookupType('logproto.PushRequest');

export const LOKI_PUSH_PATH = '/loki/api/v1/push';

/** One entry as Loki stores it: its stream's labels, time, line and structured metadata. */
export interface LokiRecord {
  labels: Record<string, string>;
  timeUnixNano: bigint;
  line: string;
  metadata: Record<string, string>;
}

export class LokiRefusal extends Error {}

const NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** A label set in Loki's form, {name="value", ...}, read as Loki's parser reads it (values are Go string literals; JSON's escapes are a subset). */
export function parseLabels(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  const pair = /\s*([^=\s]+)\s*=\s*("(?:[^"\\]|\\.)*")\s*(,|\})/gy;
  if (!text.startsWith('{')) throw new LokiRefusal(`Error parsing labels '${text}': no opening brace`);
  pair.lastIndex = 1;
  if (/^\{\s*\}$/.test(text)) throw new LokiRefusal('error at least one label pair is required per stream');
  let closed = false;
  while (!closed) {
    const match = pair.exec(text);
    if (match === null) throw new LokiRefusal(`Error parsing labels '${text}'`);
    const [, name, quoted, end] = match as unknown as [string, string, string, string];
    if (!NAME.test(name)) throw new LokiRefusal(`Error parsing labels '${text}': invalid label name ${name}`);
    if (name in labels) throw new LokiRefusal(`stream '${text}' has duplicate label name: '${name}'`);
    labels[name] = JSON.parse(quoted) as string;
    closed = end === '}';
  }
  if (pair.lastIndex !== text.length) throw new LokiRefusal(`Error parsing labels '${text}': text after the closing brace`);
  return labels;
}

interface ProtoPair {
  name: string;
  value: string;
}

interface ProtoEntry {
  timestamp?: { seconds?: string; nanos?: number };
  line?: string;
  structuredMetadata?: ProtoPair[];
}

interface ProtoStream {
  labels?: string;
  entries?: ProtoEntry[];
}

/** A Timestamp as Loki's decoder reads one (gogo's TimestampFromProto): nanos in [0, 1e9), seconds up to the year 9999. */
export function timestamp({ seconds = '0', nanos = 0 }: { seconds?: string; nanos?: number }): bigint {
  if (nanos < 0 || nanos >= 1e9) throw new LokiRefusal(`timestamp: nanos not in range [0, 1e9): ${nanos}`);
  if (BigInt(seconds) < -62135596800n || BigInt(seconds) > 253402300799n) throw new LokiRefusal(`timestamp: seconds out of range: ${seconds}`);
  return BigInt(seconds) * 1_000_000_000n + BigInt(nanos);
}

function fromProtobuf(body: Buffer): LokiRecord[] {
  const request = PushRequest.toObject(PushRequest.decode(snappyDecodeStrict(body)), { longs: String }) as { streams?: ProtoStream[] };
  return (request.streams ?? []).flatMap((stream) => {
    const labels = parseLabels(stream.labels ?? '');
    return (stream.entries ?? []).map((entry) => ({
      labels,
      timeUnixNano: timestamp(entry.timestamp ?? {}),
      line: entry.line ?? '',
      metadata: Object.fromEntries((entry.structuredMetadata ?? []).map((p) => [p.name, p.value])),
    }));
  });
}

type JsonValue = [string, string] | [string, string, Record<string, string>];

function fromJson(body: Buffer): LokiRecord[] {
  const request = JSON.parse(body.toString('utf8')) as { streams: { stream: Record<string, string>; values: JsonValue[] }[] };
  return request.streams.flatMap(({ stream, values }) => {
    if (Object.keys(stream).length === 0) throw new LokiRefusal('error at least one label pair is required per stream');
    for (const name of Object.keys(stream)) if (!NAME.test(name)) throw new LokiRefusal(`invalid label name ${name}`);
    return values.map(([time, line, metadata]) => ({ labels: stream, timeUnixNano: BigInt(time), line, metadata: metadata ?? {} }));
  });
}

export const lokiWire: BackendWire<LokiRecord> = {
  read(path, headers, body) {
    const encoding = (headers['content-type'] ?? '').startsWith('application/json') ? 'json' : 'protobuf';
    if (path !== LOKI_PUSH_PATH) return { signal: undefined, encoding, rows: [] };
    return { signal: 'logs', encoding, rows: encoding === 'json' ? fromJson(body) : fromProtobuf(body) };
  },
  success: () => ({ status: 204 }),
};
