// One entry to every OTLP encoder, the inverse of decode.ts: (signal, encoding, rows) → an
// Export*ServiceRequest body. Rows are only read; the encoders never change them.
import type { RowOf } from '../model/batch.js';
import { groupPoints, groupRows, type GroupOptions } from '../model/group.js';
import type { Signal } from '../model/signal.js';
import type { Encoding } from './decode.js';
import { encodeLogsJson } from './json/encode-logs.js';
import { encodeMetricsJson } from './json/encode-metrics.js';
import { encodeTracesJson } from './json/encode-traces.js';
import { JsonWriter } from './json/writer.js';
import type { Output } from './output.js';
import { encodeLogsProto } from './protobuf/encode-logs.js';
import { encodeMetricsProto } from './protobuf/encode-metrics.js';
import { encodeTracesProto } from './protobuf/encode-traces.js';
import { Writer } from './protobuf/writer.js';
import { sourceOf } from './source.js';

export interface EncodeOptions {
  /**
   * 'identity' (the default): one ResourceX, ScopeX and Metric message per distinct object, which
   * gives back the messages the rows were decoded from. 'value': objects equal by value share one
   * message, for batches joined from several requests.
   */
  group?: 'identity' | 'value';
}

type Encoder<S extends Signal> = (rows: readonly RowOf<S>[], grouping: GroupOptions) => Buffer;

// Encoding is synchronous and never re-entered, so one writer per encoding (and its grown buffer) serves every call.
const protobufWriter = new Writer();
const jsonWriter = new JsonWriter();

function written<W extends Output, G>(w: W, encode: (w: W, groups: G) => void, groups: G): Buffer {
  w.reset();
  encode(w, groups);
  return w.finish();
}

const ENCODERS: { [S in Signal]: Record<Encoding, Encoder<S>> } = {
  logs: {
    json: (rows, grouping) => written(jsonWriter, encodeLogsJson, groupRows(rows, grouping)),
    protobuf: (rows, grouping) => written(protobufWriter, encodeLogsProto, groupRows(rows, grouping)),
  },
  traces: {
    json: (rows, grouping) => written(jsonWriter, encodeTracesJson, groupRows(rows, grouping)),
    protobuf: (rows, grouping) => written(protobufWriter, encodeTracesProto, groupRows(rows, grouping)),
  },
  metrics: {
    json: (rows, grouping) => written(jsonWriter, encodeMetricsJson, groupPoints(rows, grouping)),
    protobuf: (rows, grouping) => written(protobufWriter, encodeMetricsProto, groupPoints(rows, grouping)),
  },
};

/**
 * Rows decoded from protobuf and never changed since are their source's bytes (source.ts), which
 * hold the same messages in the same grouping: with 'identity' grouping, those bytes are the answer.
 * The buffer returned is never to be written to.
 */
export function encodeOtlp<S extends Signal>(signal: S, encoding: Encoding, rows: readonly RowOf<S>[], options: EncodeOptions = {}): Buffer {
  if (encoding === 'protobuf' && options.group !== 'value') {
    const source = sourceOf(rows);
    if (source !== undefined) return source;
  }
  return (ENCODERS[signal] as Record<Encoding, Encoder<S>>)[encoding](rows, { byValue: options.group === 'value' });
}
