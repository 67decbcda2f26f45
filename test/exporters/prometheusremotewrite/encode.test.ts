// What the encoder keeps between batches changes how it writes them, never what: batch after batch
// through one encoder, the bodies decompress to the bytes a new encoder writes for each batch alone,
// which Prometheus reads as the series and samples the points make. And what an otelgate before
// this one queued (OTLP protobuf) is sent as the same requests.
import fc from 'fast-check';
import snappyjs from 'snappyjs';
import { describe, expect, it } from 'vitest';
import type { AnyValue } from '../../../src/model/anyvalue.js';
import type { DataPointRow, Metric } from '../../../src/model/metrics.js';
import type { Resource } from '../../../src/model/resource.js';
import { queuedFrames, RemoteWriteEncoder, requestBodies } from '../../../src/exporters/prometheusremotewrite/encode.js';
import { encodeOtlp } from '../../../src/otlp/encode.js';
import { remoteWriteWire, type SeriesRecord } from '../../helpers/remote-write.js';
import type { TranslateOptions } from '../../../src/exporters/prometheusremotewrite/translate.js';
import { snappyDecodeStrict } from '../../helpers/snappy-decode.js';
import { attrs, scope } from '../../helpers/rows.js';

const OPTIONS: TranslateOptions = { namespace: '', addSuffixes: true, externalLabels: { cluster: 'eu-1' }, resourceLabels: false, targetInfo: true };

/** A point as plain data; made into rows with new objects per batch, as the decoder makes them. */
interface PointSpec {
  resource: number;
  metric: number;
  attributes: [string, AnyValue][];
  ms: number;
  stale: boolean;
  value: number;
  bounds: number[];
}

const RESOURCES: Record<string, AnyValue>[] = [{ 'service.name': 'checkout', 'host.name': 'web-1' }, { 'service.name': 'checkout', 'service.instance.id': 'pod-2', 'host.name': 'web-2' }, { 'service.name': 'cart' }, {}];
const METRICS: Omit<Metric, 'metadata'>[] = [
  { name: 'queue.depth', unit: '{job}', type: 'gauge', isMonotonic: false, description: '', temporality: 0 },
  { name: 'http.requests', unit: '1', type: 'sum', isMonotonic: true, description: '', temporality: 2 },
  { name: 'http.duration', unit: 'ms', type: 'histogram', isMonotonic: false, description: '', temporality: 2 },
  { name: 'rpc.latency', unit: 's', type: 'summary', isMonotonic: false, description: '', temporality: 0 },
  { name: 'delta.sum', unit: '1', type: 'sum', isMonotonic: true, description: '', temporality: 1 },
];

const value: fc.Arbitrary<AnyValue> = fc.oneof(fc.constantFrom('GET', 'POST', '/api/a', ''), fc.constantFrom(1, 2.5, Number.NaN), fc.constantFrom(1n, 7n), fc.boolean(), fc.constant(['x', 1n] as AnyValue));
const point: fc.Arbitrary<PointSpec> = fc.record({
  resource: fc.nat(RESOURCES.length - 1),
  metric: fc.nat(METRICS.length - 1),
  attributes: fc.uniqueArray(fc.tuple(fc.constantFrom('http.method', 'route', 'le', 'a.b', 'a_b', 'shard'), value), { maxLength: 3, selector: ([key]) => key }),
  ms: fc.constantFrom(1_790_000_000_000, 1_790_000_001_000, 1_790_000_000_500, 0),
  stale: fc.boolean(),
  value: fc.constantFrom(0, 1, 2.5, 1e21),
  bounds: fc.constantFrom([5, 10], [5, 10, 25], []),
});

function rowsOf(batch: readonly PointSpec[]): DataPointRow[] {
  // One Resource and one Metric object per batch, as a decoded request has.
  const resources = RESOURCES.map((attributes): Resource => ({ attributes: attrs(attributes), droppedAttributesCount: 0, schemaUrl: '' }));
  const metrics = METRICS.map((m): Metric => ({ ...m, metadata: attrs({}) }));
  return batch.map((p) => {
    const metric = metrics[p.metric] as Metric;
    const base = { resource: resources[p.resource] as Resource, scope: scope(), metric, startTimeUnixNano: 0n, timeUnixNano: BigInt(p.ms) * 1_000_000n, attributes: attrs(Object.fromEntries(p.attributes)), flags: p.stale ? 1 : 0, exemplars: [] };
    switch (metric.type) {
      case 'histogram':
        return { ...base, kind: 'histogram', count: 3, sum: p.value, min: undefined, max: undefined, bucketCounts: [...p.bounds.map(() => 1), 0], explicitBounds: p.bounds };
      case 'summary':
        return { ...base, kind: 'summary', count: 2, sum: p.value, quantiles: p.bounds.map((q) => ({ quantile: q / 100, value: p.value })) };
      default:
        return { ...base, kind: 'number', value: p.value };
    }
  });
}

/** The request bodies of one encode, decompressed by Go's rules. */
function bodies(encoder: RemoteWriteEncoder, rows: readonly DataPointRow[], maxBytes: number): Buffer[] {
  return requestBodies(encoder.encode(rows).payload, maxBytes).map(snappyDecodeStrict);
}

/** Samples the points make: a number 1, a histogram a bucket per bound, +Inf, _sum and _count, a summary a series per quantile, _sum and _count; a delta none. */
function samplesOf(batch: readonly PointSpec[]): number {
  let samples = 0;
  for (const p of batch) {
    const metric = METRICS[p.metric] as Omit<Metric, 'metadata'>;
    if (metric.temporality === 1) continue;
    samples += metric.type === 'histogram' ? p.bounds.length + 3 : metric.type === 'summary' ? p.bounds.length + 2 : 1;
  }
  return samples;
}

/** What Prometheus reads from the bodies (by protobufjs, as the stand-in backend reads them). */
const read = (decompressed: readonly Buffer[]): SeriesRecord[] => decompressed.flatMap((body) => remoteWriteWire.read('/api/v1/write', { 'content-encoding': 'snappy' }, Buffer.from(snappyjs.compress(body))).rows as SeriesRecord[]);

describe('RemoteWriteEncoder across batches', () => {
  it('writes every batch as a new encoder would, whatever it kept from the batches before, each series with its samples in time order', () => {
    fc.assert(
      fc.property(fc.array(fc.array(point, { maxLength: 12 }), { minLength: 1, maxLength: 6 }), fc.constantFrom(300, 3_000_000), fc.constantFrom(3, 1000), (batches, maxBytes, keep) => {
        const kept = new RemoteWriteEncoder(OPTIONS, maxBytes, keep);
        for (const batch of batches) {
          const written = bodies(kept, rowsOf(batch), maxBytes);
          expect(written).toEqual(bodies(new RemoteWriteEncoder(OPTIONS, maxBytes), rowsOf(batch), maxBytes));
          const series = read(written);
          const info = series.filter((s) => s.labels['__name__'] === 'target_info');
          expect(series.reduce((n, s) => n + s.samples.length, 0) - info.length).toBe(samplesOf(batch));
          for (const s of series) expect(s.samples.map((x) => x.timestampMs)).toEqual(s.samples.map((x) => x.timestampMs).sort((a, b) => a - b));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('sends what an otelgate before this one queued, OTLP protobuf, as the requests its points make now, alone or merged with newer payloads', () => {
    const batch: PointSpec[] = [
      { resource: 1, metric: 2, attributes: [['route', '/a']], ms: 1_790_000_000_000, stale: false, value: 2.5, bounds: [5, 10] },
      { resource: 0, metric: 0, attributes: [['shard', 3n]], ms: 1_790_000_001_000, stale: true, value: 1, bounds: [] },
    ];
    const expected = bodies(new RemoteWriteEncoder(OPTIONS, 3e6), rowsOf(batch), 3e6);
    const legacy = encodeOtlp('metrics', 'protobuf', rowsOf(batch));
    const encoder = new RemoteWriteEncoder(OPTIONS, 3e6);
    const frames = queuedFrames(legacy, encoder).payload;
    expect(frames[0]).toBe(0);
    expect(requestBodies(frames, 3e6).map(snappyDecodeStrict)).toEqual(expected);
    const newer = encoder.encode(rowsOf(batch)).payload;
    expect(queuedFrames(newer, encoder).payload).toEqual(newer);
    expect(requestBodies(Buffer.concat([frames, newer]), 3e6).map(snappyDecodeStrict)).toEqual([Buffer.concat([...expected, ...expected])]);
    // Of an old payload cut short, what can be read is sent (as that otelgate did), and only that.
    const cut = read(requestBodies(queuedFrames(legacy.subarray(0, legacy.length - 3), encoder).payload, 3e6).map(snappyDecodeStrict));
    const whole = read(expected);
    expect(cut.length).toBeGreaterThan(0);
    expect(cut.length).toBeLessThan(whole.length);
    for (const series of cut) expect(whole).toContainEqual(series);
    expect(() => requestBodies(legacy, 3e6)).toThrow('not made of frames');
    expect(() => requestBodies(frames.subarray(0, frames.length - 1), 3e6)).toThrow('ends inside a frame');
    expect(() => requestBodies(Buffer.from([0, 0x80]), 3e6)).toThrow('ends inside its length');
  });

  it('after letting go of what it kept, gives attribute keys and values new ids, never those of before', () => {
    // Kept past its bound after the first batch: the second starts anew, where "a" of before and
    // "z" of now would both be id 1 if an id of before were used again.
    const gauge = (attributes: [string, AnyValue][]): PointSpec => ({ resource: 3, metric: 0, attributes, ms: 1_790_000_000_000, stale: false, value: 1, bounds: [] });
    const kept = new RemoteWriteEncoder(OPTIONS, 3e6, 1);
    bodies(kept, rowsOf([gauge([['a', 'x']])]), 3e6);
    const second = rowsOf([gauge([['a', 'z']]), gauge([['z', 'z']])]);
    const series = read(bodies(kept, second, 3e6));
    expect(series.map((s) => s.labels)).toEqual([
      { __name__: 'queue_depth', a: 'z', cluster: 'eu-1' },
      { __name__: 'queue_depth', z: 'z', cluster: 'eu-1' },
    ]);
  });

  it('joins queued payloads into one request, their series in queue order', () => {
    const encoder = new RemoteWriteEncoder(OPTIONS, 3_000_000);
    const spec = (ms: number): PointSpec => ({ resource: 0, metric: 0, attributes: [['route', '/a']], ms, stale: false, value: 1, bounds: [] });
    const first = encoder.encode(rowsOf([spec(1_790_000_000_000)])).payload;
    const second = encoder.encode(rowsOf([spec(1_790_000_001_000)])).payload;
    const joined = requestBodies(Buffer.concat([first, second]), 3_000_000);
    expect(joined.length).toBe(1);
    expect(snappyDecodeStrict(joined[0] as Buffer)).toEqual(Buffer.concat([...bodies(new RemoteWriteEncoder(OPTIONS, 3e6), rowsOf([spec(1_790_000_000_000)]), 3e6), ...bodies(new RemoteWriteEncoder(OPTIONS, 3e6), rowsOf([spec(1_790_000_001_000)]), 3e6)]));
    expect(requestBodies(Buffer.concat([first, second]), snappyDecodeStrict(requestBodies(first, 3e6)[0] as Buffer).length).length).toBe(2);
  });
});
