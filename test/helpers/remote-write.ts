// A stand-in remote-write receiver for exporter tests where a real Prometheus can't answer what a
// test needs (stopped, slowed, told what to answer): it reads a request as Prometheus's remote
// write handler does (snappy block, then prompb.WriteRequest with the field numbers of
// proto/prometheus/remote.proto, read by protobufjs) and answers 204.
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import snappyjs from 'snappyjs';
import type { BackendWire } from './backend.js';

const root = protobuf.loadSync(fileURLToPath(new URL('../../proto/prometheus/remote.proto', import.meta.url)));
const WriteRequest = root.lookupType('prometheus.WriteRequest');

/** One series as Prometheus would append it. */
export interface SeriesRecord {
  labels: Record<string, string>;
  /** The label names in the order they came: remote write requires them sorted. */
  order: string[];
  samples: { value: number; timestampMs: number }[];
}

interface ProtoSeries {
  labels?: { name: string; value: string }[];
  samples?: { value?: number; timestamp?: string }[];
}

export const REMOTE_WRITE_PATH = '/api/v1/write';

export const remoteWriteWire: BackendWire<SeriesRecord> = {
  read(path, headers, body) {
    if (path !== REMOTE_WRITE_PATH) return { signal: undefined, encoding: 'protobuf', rows: [] };
    if (headers['content-encoding'] !== 'snappy') throw new Error(`unsupported Content-Encoding ${String(headers['content-encoding'])}`);
    const request = WriteRequest.toObject(WriteRequest.decode(snappyjs.uncompress(body)), { longs: String }) as { timeseries?: ProtoSeries[] };
    const rows = (request.timeseries ?? []).map((series) => ({
      labels: Object.fromEntries((series.labels ?? []).map((l) => [l.name, l.value])),
      order: (series.labels ?? []).map((l) => l.name),
      samples: (series.samples ?? []).map((s) => ({ value: s.value ?? 0, timestampMs: Number(s.timestamp ?? '0') })),
    }));
    return { signal: 'metrics', encoding: 'protobuf', rows };
  },
  success: () => ({ status: 204 }),
};
