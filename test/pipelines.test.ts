// The shipped pipelines that forward (pipelines/gateway.yaml, pipelines/sidecar-prometheus.yaml)
// as a user runs them, but off the fixed ports and out of ./data, with stand-in backends that read
// what Tempo, Loki and Prometheus read: each signal reaches its backend as the project's tenant.
import { afterEach, describe, expect, it } from 'vitest';
import type { SpanRow } from '../src/model/traces.js';
import { startBackend, type Backend } from './helpers/backend.js';
import type { RunningCli } from './helpers/cli.js';
import { sendMetrics } from './helpers/forwarder.js';
import { lokiWire } from './helpers/loki.js';
import { otlpJsonToProtobuf } from './helpers/otlp.js';
import { runShipped } from './helpers/pipeline.js';
import { REMOTE_WRITE_PATH, remoteWriteWire } from './helpers/remote-write.js';
import { waitUntil } from './helpers/wait.js';

const running: RunningCli[] = [];
const backends: Pick<Backend<unknown>, 'stop'>[] = [];
afterEach(async () => {
  for (const run of running.splice(0)) await run.stop();
  for (const backend of backends.splice(0)) await backend.stop();
});

describe('pipelines/gateway.yaml', () => {
  it('sends traces to Tempo, logs to Loki and metrics to Prometheus, each as the project\'s tenant', async () => {
    const tempo = await startBackend();
    const loki = await startBackend(lokiWire);
    const mimir = await startBackend(remoteWriteWire);
    backends.push(tempo, loki, mimir);
    const gateway = await runShipped('gateway.yaml', { OTELGATE_TEMPO_ENDPOINT: tempo.url, OTELGATE_LOKI_ENDPOINT: loki.url, OTELGATE_PROMETHEUS_ENDPOINT: `${mimir.url}${REMOTE_WRITE_PATH}` }, running);
    const headers = { Authorization: `Bearer ${gateway.key}` };
    const log = await fetch(`${gateway.url}/api/v1/ingest`, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ message: 'to loki', service: 'web' }) });
    expect(log.status).toBe(202);
    const span = { resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'web' } }] }, scopeSpans: [{ spans: [{ traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b174', name: 'GET /', kind: 2, startTimeUnixNano: '1790000000000000000', endTimeUnixNano: '1790000000100000000' }] }] }] };
    const trace = await fetch(`${gateway.url}/v1/traces`, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/x-protobuf' }, body: otlpJsonToProtobuf('traces', span) });
    expect(trace.status).toBe(200);
    expect((await sendMetrics(gateway, ['to mimir'])).status).toBe(200);
    expect(await waitUntil(() => tempo.delivered('traces').length === 1 && loki.delivered('logs').length === 1 && mimir.delivered('metrics').some((s) => s.labels['m'] === 'to mimir'))).toBe(true);
    expect((tempo.delivered('traces')[0] as SpanRow).name).toBe('GET /');
    expect(loki.delivered('logs')[0]?.line).toBe('to loki');
    for (const backend of [tempo, loki, mimir] as Backend<unknown>[]) expect(new Set(backend.received.map((r) => r.headers['x-scope-orgid']))).toEqual(new Set(['default']));
  }, 60_000);
});

describe('pipelines/sidecar-prometheus.yaml', () => {
  it('stores metrics and sends them by remote write to OTELGATE_PROMETHEUS_ENDPOINT', async () => {
    const prometheus = await startBackend(remoteWriteWire);
    backends.push(prometheus);
    const sidecar = await runShipped('sidecar-prometheus.yaml', { OTELGATE_PROMETHEUS_ENDPOINT: `${prometheus.url}${REMOTE_WRITE_PATH}` }, running);
    expect((await sendMetrics(sidecar, ['stored and sent'])).status).toBe(200);
    expect(await waitUntil(() => prometheus.delivered('metrics').some((s) => s.labels['m'] === 'stored and sent'))).toBe(true);
    const read = await fetch(`${sidecar.url}/api/v1/query/metrics`, { headers: { Authorization: `Bearer ${sidecar.key}` } });
    expect(((await read.json()) as { rows: { metric_name: string }[] }).rows.map((r) => r.metric_name)).toEqual(['contract.gauge']);
  }, 60_000);
});
