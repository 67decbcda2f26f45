// OTLP data points as Prometheus series, read back from the remote-write body as Prometheus reads it.
import { describe, expect, it } from 'vitest';
import type { DataPointRow, Metric, MetricType } from '../../../src/model/metrics.js';
import type { Resource } from '../../../src/model/resource.js';
import { RemoteWriteEncoder, requestBodies } from '../../../src/exporters/prometheusremotewrite/encode.js';
import { formatFloat, type TranslateOptions } from '../../../src/exporters/prometheusremotewrite/translate.js';
import { snappyDecodeStrict } from '../../helpers/snappy-decode.js';
import { remoteWriteWire, type SeriesRecord } from '../../helpers/remote-write.js';
import { attrs, scope } from '../../helpers/rows.js';

const NOW_MS = 1_790_000_000_000;
const at = (ms: number): bigint => BigInt(ms) * 1_000_000n;
const res: Resource = { attributes: attrs({ 'service.name': 'checkout', 'service.namespace': 'shop', 'service.instance.id': 'pod-1', 'host.name': 'web-1' }), droppedAttributesCount: 0, schemaUrl: '' };
const metric = (name: string, type: MetricType, extra: Partial<Metric> = {}): Metric => ({ name, unit: '', type, isMonotonic: false, description: '', temporality: 0, metadata: attrs({}), ...extra });
const base = (m: Metric, ms = NOW_MS, attributes = attrs({ route: '/pay' })) => ({ resource: res, scope: scope(), metric: m, startTimeUnixNano: 0n, timeUnixNano: at(ms), attributes, flags: 0, exemplars: [] });

const OPTIONS: TranslateOptions = { namespace: '', addSuffixes: true, externalLabels: {}, resourceLabels: false, targetInfo: true };

/** The bodies as sent, read as Prometheus reads them; `bodies` decompressed by Go's rules. */
function translated(rows: readonly DataPointRow[], options: Partial<TranslateOptions> = {}, maxBytes = 3_000_000) {
  const { payload, dropped } = new RemoteWriteEncoder({ ...OPTIONS, ...options }, maxBytes).encode(rows);
  const sent = requestBodies(payload, maxBytes);
  const read = sent.flatMap((body) => remoteWriteWire.read('/api/v1/write', { 'content-encoding': 'snappy' }, body).rows as SeriesRecord[]);
  return { read, dropped, bodies: sent.map(snappyDecodeStrict) };
}

const named = (read: readonly SeriesRecord[], name: string) => read.filter((s) => s.labels['__name__'] === name);
/** A series without its label order, which a test of its own checks. */
const plain = (read: readonly SeriesRecord[]) => read.map(({ labels, samples }) => ({ labels, samples }));

describe('OTLP metrics → Prometheus series', () => {
  it('writes a gauge as samples with the point\'s attributes, job and instance', () => {
    const { read } = translated([{ ...base(metric('queue.depth', 'gauge', { unit: '{job}' })), kind: 'number', value: 7 }]);
    expect(plain(named(read, 'queue_depth'))).toEqual([{ labels: { __name__: 'queue_depth', instance: 'pod-1', job: 'shop/checkout', route: '/pay' }, samples: [{ value: 7, timestampMs: NOW_MS }] }]);
  });

  it('writes a monotonic cumulative sum as a counter with _total, an int64 as its number, and a non-monotonic one as a gauge', () => {
    const counter = metric('http.requests', 'sum', { temporality: 2, isMonotonic: true });
    const updown = metric('connections.open', 'sum', { temporality: 2 });
    const { read } = translated([
      { ...base(counter), kind: 'number', value: 1234n },
      { ...base(updown), kind: 'number', value: -3n },
    ]);
    expect(named(read, 'http_requests_total').map((s) => s.samples)).toEqual([[{ value: 1234, timestampMs: NOW_MS }]]);
    expect(named(read, 'connections_open').map((s) => s.samples)).toEqual([[{ value: -3, timestampMs: NOW_MS }]]);
  });

  it('writes a histogram as cumulative buckets with +Inf, _sum and _count', () => {
    const h = metric('http.duration', 'histogram', { temporality: 2, unit: 'ms' });
    const { read } = translated([{ ...base(h), kind: 'histogram', count: 10, sum: 123.5, min: undefined, max: undefined, bucketCounts: [1, 2, 3, 4, 0], explicitBounds: [0.25, 5, 10, 50] }]);
    const buckets = named(read, 'http_duration_milliseconds_bucket').map((s) => [s.labels['le'], s.samples[0]?.value]);
    expect(buckets).toEqual([
      ['0.25', 1],
      ['5', 3],
      ['10', 6],
      ['50', 10],
      ['+Inf', 10],
    ]);
    expect(named(read, 'http_duration_milliseconds_sum').map((s) => s.samples[0]?.value)).toEqual([123.5]);
    expect(named(read, 'http_duration_milliseconds_count').map((s) => s.samples[0]?.value)).toEqual([10]);
  });

  it('writes a summary as quantiles, _sum and _count', () => {
    const s = metric('rpc.latency', 'summary', { unit: 's' });
    const { read } = translated([{ ...base(s), kind: 'summary', count: 4, sum: 2.5, quantiles: [{ quantile: 0.5, value: 0.4 }, { quantile: 0.99, value: 1.9 }] }]);
    expect(named(read, 'rpc_latency_seconds').map((x) => [x.labels['quantile'], x.samples[0]?.value])).toEqual([
      ['0.5', 0.4],
      ['0.99', 1.9],
    ]);
    expect(named(read, 'rpc_latency_seconds_sum').map((x) => x.samples[0]?.value)).toEqual([2.5]);
    expect(named(read, 'rpc_latency_seconds_count').map((x) => x.samples[0]?.value)).toEqual([4]);
  });

  it('writes target_info with job, instance and the other resource attributes, at the resource\'s latest point', () => {
    const g = metric('g', 'gauge');
    const { read } = translated([
      { ...base(g, NOW_MS - 1000), kind: 'number', value: 1 },
      { ...base(g, NOW_MS), kind: 'number', value: 2 },
    ]);
    expect(plain(named(read, 'target_info'))).toEqual([{ labels: { __name__: 'target_info', host_name: 'web-1', instance: 'pod-1', job: 'shop/checkout' }, samples: [{ value: 1, timestampMs: NOW_MS }] }]);
    expect(named(translated([{ ...base(g), kind: 'number', value: 1 }], { targetInfo: false }).read, 'target_info')).toEqual([]);
  });

  it('writes every series\' labels sorted by name, as remote write requires, __name__, le and resource labels among them', () => {
    const h = metric('latency', 'histogram', { temporality: 2 });
    const { read } = translated([{ ...base(h, NOW_MS, attrs({ zone: 'z', Upper: 'u', alpha: 'a', le: 'theirs' })), kind: 'histogram', count: 1, sum: 1, min: undefined, max: undefined, bucketCounts: [1, 0], explicitBounds: [5] }]);
    expect(read.length).toBe(5);
    for (const series of read) expect(series.order).toEqual([...series.order].sort());
    expect(named(read, 'latency_bucket')[0]?.order).toEqual(['Upper', '__name__', 'alpha', 'instance', 'job', 'le', 'zone']);
    expect(named(read, 'latency_bucket').map((s) => s.labels['le'])).toEqual(['5', '+Inf']);
    expect(named(read, 'latency_sum')[0]?.labels['le']).toBe('theirs');
  });

  it('puts the samples of a series in time order', () => {
    const g = metric('g', 'gauge');
    const { read } = translated([3, 1, 2].map((i) => ({ ...base(g, NOW_MS + i), kind: 'number' as const, value: i })));
    expect(named(read, 'g').map((s) => s.samples.map((x) => x.value))).toEqual([[1, 2, 3]]);
  });

  it('drops delta and unspecified temporality and exponential histograms, and counts them by reason', () => {
    const delta = metric('d', 'sum', { temporality: 1, isMonotonic: true });
    const unspecified = metric('u', 'histogram');
    const exp = metric('e', 'exponential_histogram', { temporality: 2 });
    const { read, dropped } = translated([
      { ...base(delta), kind: 'number', value: 1 },
      { ...base(delta), kind: 'number', value: 2 },
      { ...base(unspecified), kind: 'histogram', count: 1, sum: 1, min: undefined, max: undefined, bucketCounts: [1], explicitBounds: [] },
      { ...base(exp), kind: 'exponential_histogram', count: 1, sum: 1, min: undefined, max: undefined, scale: 0, zeroCount: 0, zeroThreshold: 0, positive: { offset: 0, bucketCounts: [1] }, negative: { offset: 0, bucketCounts: [] } },
    ]);
    expect(read).toEqual([]);
    expect(Object.fromEntries(dropped)).toEqual({ delta_temporality: 2, unspecified_temporality: 1, exponential_histogram: 1 });
  });

  it('adds external labels where no label of that name is, every resource attribute with resource_to_telemetry_conversion, and joins colliding names with ; in the order of their keys', () => {
    const g = metric('g', 'gauge');
    const { read } = translated([{ ...base(g, NOW_MS, attrs({ 'a.b': 'one', a_b: 'two', cluster: 'mine' })), kind: 'number', value: 1 }], { externalLabels: { cluster: 'eu-1', region: 'west' }, resourceLabels: true });
    expect(named(read, 'g')[0]?.labels).toEqual({ __name__: 'g', a_b: 'one;two', cluster: 'mine', region: 'west', host_name: 'web-1', instance: 'pod-1', job: 'shop/checkout', service_instance_id: 'pod-1', service_name: 'checkout', service_namespace: 'shop' });
  });

  it('writes a point without a recorded value as Prometheus\'s staleness marker', () => {
    const g = metric('g', 'gauge');
    const { bodies } = translated([{ ...base(g), flags: 1, kind: 'number', value: 0 }], { targetInfo: false });
    expect(Buffer.concat(bodies).includes(Buffer.from('020000000000f07f', 'hex'))).toBe(true);
  });

  it('splits requests at max_batch_size_bytes, never within a series', () => {
    const g = metric('g', 'gauge');
    const rows = Array.from({ length: 50 }, (_, i) => ({ ...base(g, NOW_MS, attrs({ i: String(i) })), kind: 'number' as const, value: i }));
    const { read, bodies } = translated(rows, { targetInfo: false }, 500);
    expect(bodies.length).toBeGreaterThan(1);
    for (const body of bodies) expect(body.length).toBeLessThanOrEqual(500);
    expect(read.map((s) => s.labels['i']).sort()).toEqual(rows.map((_, i) => String(i)).sort());
  });

  it('formats le and quantile as Prometheus does', () => {
    expect([0.5, 10, 1e21, 1e-7, 1.5e-7, -2.5e22, Infinity, 0.1 + 0.2].map(formatFloat)).toEqual(['0.5', '10', '1000000000000000000000', '0.0000001', '0.00000015', '-25000000000000000000000', '+Inf', '0.30000000000000004']);
  });
});
