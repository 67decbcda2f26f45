// One entry to every OTLP decoder: (signal, encoding, body) → rows and a count of skipped records.
import type { Signal } from '../model/signal.js';
import { decodeLogsJson } from './json/logs.js';
import { decodeMetricsJson } from './json/metrics.js';
import { decodeTracesJson } from './json/traces.js';
import { decodeLogsProto } from './protobuf/logs.js';
import { decodeMetricsProto } from './protobuf/metrics.js';
import { decodeTracesProto } from './protobuf/traces.js';
import type { Decoded } from './result.js';

export type Encoding = 'json' | 'protobuf';

type Decoder<S extends Signal> = (body: Buffer) => Decoded<S>;

const DECODERS: { [S in Signal]: Record<Encoding, Decoder<S>> } = {
  logs: { json: decodeLogsJson, protobuf: decodeLogsProto },
  traces: { json: decodeTracesJson, protobuf: decodeTracesProto },
  metrics: { json: decodeMetricsJson, protobuf: decodeMetricsProto },
};

export function decodeOtlp<S extends Signal>(signal: S, encoding: Encoding, body: Buffer): Decoded<S> {
  return (DECODERS[signal] as Record<Encoding, Decoder<S>>)[encoding](body);
}
