// One entry to every OTLP decoder: (signal, encoding, body) → rows and a count of skipped records.
import type { Signal } from '../model/signal.js';
import { decodeTracesJson } from './json/read-traces.js';
import { decodeLogsJson } from './json/read-logs.js';
import { decodeMetricsJson } from './json/read-metrics.js';
import { decodeLogsProto } from './protobuf/logs.js';
import { decodeMetricsProto } from './protobuf/metrics.js';
import { decodeTracesProto } from './protobuf/traces.js';
import { discarded, RecordBudget, TooManyRecords, type Decoded } from './result.js';
import { keepSource } from './source.js';

export type Encoding = 'json' | 'protobuf';

/** `watch`: tell whether the rows are not exactly the body (Decoded.inexact; protobuf only). */
type Decoder<S extends Signal> = (body: Buffer, budget: RecordBudget, watch: boolean) => Decoded<S>;

const DECODERS: { [S in Signal]: Record<Encoding, Decoder<S>> } = {
  logs: { json: decodeLogsJson, protobuf: decodeLogsProto },
  traces: { json: decodeTracesJson, protobuf: decodeTracesProto },
  metrics: { json: decodeMetricsJson, protobuf: decodeMetricsProto },
};

export interface DecodeOptions {
  /**
   * Keep a protobuf body that became rows whole and exactly as their source (source.ts): for
   * rows that a consumer sends on as OTLP protobuf (Consumer.sendsProtobuf).
   */
  keepSource?: boolean;
}

/**
 * `records` bounds the rows one body may become (log records, spans or data points): past its
 * limit the body is discarded whole; when its shared budget runs out, OutOfBudget is thrown.
 */
export function decodeOtlp<S extends Signal>(signal: S, encoding: Encoding, body: Buffer, records = new RecordBudget(Number.POSITIVE_INFINITY), options: DecodeOptions = {}): Decoded<S> {
  const keep = encoding === 'protobuf' && options.keepSource === true;
  try {
    const decoded = (DECODERS[signal] as Record<Encoding, Decoder<S>>)[encoding](body, records, keep);
    if (keep && decoded.skipped === 0 && decoded.inexact !== true) keepSource(decoded.rows, body);
    return decoded;
  } catch (error) {
    if (error instanceof TooManyRecords) return discarded(error);
    throw error;
  }
}
