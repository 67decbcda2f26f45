// otelgate → prometheusremotewrite → a real Prometheus (Debian's 2.42, remote-write receiver on),
// queried back through its HTTP API: OTLP metrics of every type from the OpenTelemetry JS SDK's
// metric exporter (shop) and from a hand-built body (blog), with the series names, labels and
// values Prometheus users expect. Prometheus ignores the tenant header; a recording stand-in
// beside it shows each project's requests carrying its own.
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, type Backend } from '../../helpers/backend.js';
import { FAST_RETRY, forwardingHead } from '../../helpers/forwarder.js';
import { startGateway, type Gateway } from '../../helpers/gateway.js';
import { Prometheus, prometheusAvailable, type PromSample } from '../../helpers/prometheus.js';
import { remoteWriteWire, REMOTE_WRITE_PATH, type SeriesRecord } from '../../helpers/remote-write.js';
import { waitUntil } from '../../helpers/wait.js';

const available = prometheusAvailable();

let prometheus: Prometheus;
let recorder: Backend<SeriesRecord>;
let gateway: Gateway;

beforeAll(async () => {
  if (!available) return;
  prometheus = await Prometheus.start();
  recorder = await startBackend(remoteWriteWire);
  gateway = await startGateway({
    projects: ['shop', 'blog'],
    config: (keysFile) => `${forwardingHead(keysFile)}
exporters:
  prometheusremotewrite:
    endpoint: ${prometheus.remoteWriteUrl}
    tenant: {header: X-Scope-OrgID}
    ${FAST_RETRY}
    sending_queue: {storage: file_storage}
  prometheusremotewrite/recorder:
    endpoint: ${recorder.url}${REMOTE_WRITE_PATH}
    tenant: {header: X-Scope-OrgID}
    ${FAST_RETRY}
    sending_queue: {storage: file_storage}
service:
  extensions: [apikeyauth, file_storage]
  pipelines:
    metrics: {receivers: [ingest], exporters: [prometheusremotewrite, prometheusremotewrite/recorder]}
`,
  });
}, 60_000);

afterAll(async () => {
  await gateway?.stop();
  await recorder?.stop();
  await prometheus?.stop();
});

class ManualReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** Every metric type the JS SDK makes, exported once with its OTLP protobuf exporter as project shop. */
async function sdkExport(): Promise<void> {
  const reader = new ManualReader();
  const provider = new MeterProvider({
    resource: resourceFromAttributes({ 'service.name': 'checkout', 'service.namespace': 'shop', 'service.instance.id': 'pod-1', 'host.name': 'web-1' }),
    readers: [reader],
  });
  const meter = provider.getMeter('shop.meter');
  meter.createCounter('orders', { unit: '{order}' }).add(3, { region: 'eu' });
  meter.createUpDownCounter('connections.open').add(-2);
  const duration = meter.createHistogram('http.server.duration', { unit: 'ms', advice: { explicitBucketBoundaries: [5, 10, 25] } });
  for (const ms of [3, 7, 30]) duration.record(ms, { route: '/pay' });
  meter.createGauge('queue.depth').record(21.5);
  const { resourceMetrics } = await reader.collect();
  const exporter = new OTLPMetricExporter({ url: `${gateway.url}/v1/metrics`, headers: { Authorization: `Bearer ${gateway.keys['shop'] as string}` } });
  const code = await new Promise<number>((resolve) => exporter.export(resourceMetrics as ResourceMetrics, (result) => resolve(result.code)));
  expect(code).toBe(0);
  await provider.shutdown();
}

/** A summary, a delta sum and a gauge, by hand, as OTLP JSON, as project blog. */
async function handBuiltExport(): Promise<void> {
  const now = String(BigInt(Date.now()) * 1_000_000n);
  const body = {
    resourceMetrics: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'blog-api' } }] },
        scopeMetrics: [
          {
            metrics: [
              { name: 'rpc.latency', unit: 's', summary: { dataPoints: [{ timeUnixNano: now, count: '4', sum: 2.5, quantileValues: [{ quantile: 0.5, value: 0.4 }, { quantile: 0.99, value: 1.9 }] }] } },
              { name: 'posts.published', unit: '{post}', sum: { aggregationTemporality: 1, isMonotonic: true, dataPoints: [{ timeUnixNano: now, asInt: '5' }] } },
              { name: 'cache.ratio', unit: '1', gauge: { dataPoints: [{ timeUnixNano: now, asDouble: 0.75 }] } },
            ],
          },
        ],
      },
    ],
  };
  const response = await fetch(`${gateway.url}/v1/metrics`, { method: 'POST', headers: { Authorization: `Bearer ${gateway.keys['blog'] as string}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
}

/** The series of a query, as name and labels (Prometheus adds none) with the value. */
async function series(expression: string): Promise<[Record<string, string>, number][]> {
  const result: PromSample[] = await prometheus.query(expression);
  return result.map((s) => [s.metric, Number(s.value[1])] as [Record<string, string>, number]).sort((a, b) => JSON.stringify(a[0]).localeCompare(JSON.stringify(b[0])));
}

describe.runIf(available)('otelgate → prometheusremotewrite → Prometheus', () => {
  it('lands every metric type under the names, labels and values Prometheus users expect', async () => {
    await sdkExport();
    await handBuiltExport();
    const arrived = await waitUntil(async () => (await prometheus.query('rpc_latency_seconds_count')).length === 1 && (await prometheus.query('queue_depth')).length === 1, 30_000);
    if (!arrived) throw new Error(`the series did not arrive; Prometheus logged:\n${prometheus.log()}`);
    const shop = { job: 'shop/checkout', instance: 'pod-1' };
    expect(await series('orders_total')).toEqual([[{ __name__: 'orders_total', ...shop, region: 'eu' }, 3]]);
    expect(await series('connections_open')).toEqual([[{ __name__: 'connections_open', ...shop }, -2]]);
    expect(await series('queue_depth')).toEqual([[{ __name__: 'queue_depth', ...shop }, 21.5]]);
    const buckets = await series('http_server_duration_milliseconds_bucket');
    expect(buckets.map(([labels, value]) => [labels['le'], labels['route'], value]).sort()).toEqual([
      ['+Inf', '/pay', 3],
      ['10', '/pay', 2],
      ['25', '/pay', 2],
      ['5', '/pay', 1],
    ]);
    expect(await series('http_server_duration_milliseconds_sum')).toEqual([[{ __name__: 'http_server_duration_milliseconds_sum', ...shop, route: '/pay' }, 40]]);
    expect(await series('http_server_duration_milliseconds_count')).toEqual([[{ __name__: 'http_server_duration_milliseconds_count', ...shop, route: '/pay' }, 3]]);
    expect(await series('target_info')).toEqual([[{ __name__: 'target_info', ...shop, host_name: 'web-1' }, 1]]);
    // blog: a summary, a gauge of unit 1; its delta sum is left out, never sent as if cumulative.
    expect(await series('rpc_latency_seconds')).toEqual([
      [{ __name__: 'rpc_latency_seconds', job: 'blog-api', quantile: '0.5' }, 0.4],
      [{ __name__: 'rpc_latency_seconds', job: 'blog-api', quantile: '0.99' }, 1.9],
    ]);
    expect(await series('rpc_latency_seconds_sum')).toEqual([[{ __name__: 'rpc_latency_seconds_sum', job: 'blog-api' }, 2.5]]);
    expect(await series('rpc_latency_seconds_count')).toEqual([[{ __name__: 'rpc_latency_seconds_count', job: 'blog-api' }, 4]]);
    expect(await series('cache_ratio')).toEqual([[{ __name__: 'cache_ratio', job: 'blog-api' }, 0.75]]);
    expect(await series('{__name__=~"posts.*"}')).toEqual([]);
    const leftOut = await gateway.run.waitFor('left out');
    expect([leftOut['reason'], leftOut['data_points']]).toEqual(['delta_temporality', 1]);
  }, 60_000);

  it('sends each project\'s series as its own tenant, never two in one request', async () => {
    expect(await waitUntil(() => recorder.received.filter((r) => r.status === 204).length >= 2, 30_000)).toBe(true);
    const jobs = (tenant: string): string[] => [...new Set(recorder.received.filter((r) => r.headers['x-scope-orgid'] === tenant).flatMap((r) => r.rows.map((s) => s.labels['job'] ?? '')))];
    expect(jobs('shop')).toEqual(['shop/checkout']);
    expect(jobs('blog')).toEqual(['blog-api']);
    for (const request of recorder.received) {
      expect([request.headers['content-encoding'], request.headers['content-type'], request.headers['x-prometheus-remote-write-version']]).toEqual(['snappy', 'application/x-protobuf', '0.1.0']);
    }
  }, 60_000);
});
