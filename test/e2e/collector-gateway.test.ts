// A Collector gateway config as its users write it (testdata/collector/gateway.yaml: the otlp
// receiver with both protocols, memory_limiter, batch, the otlp exporter to Tempo with
// tls.insecure, otlphttp to Mimir and Loki, debug, health_check, file_storage) validates and runs
// unchanged; a second --config only points its addresses at loopback: its listeners on free
// ports, its backends at servers of the test (a gRPC one reading OTLP as Tempo does, and OTLP/HTTP
// ones). The official OTel JS exporters send to it over gRPC and HTTP, and every record arrives.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server, ServerCredentials } from '@grpc/grpc-js';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-grpc';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpanRow } from '../../src/model/traces.js';
import { decodeOtlp } from '../../src/otlp/decode.js';
import { startBackend, type Backend } from '../helpers/backend.js';
import { runCli, RunningCli } from '../helpers/cli.js';
import { waitUntil } from '../helpers/wait.js';

const GATEWAY = 'testdata/collector/gateway.yaml';
const resource = resourceFromAttributes({ 'service.name': 'checkout' });

/** Tempo's side of OTLP/gRPC: the traces service, each message read into rows. */
async function startTempo(): Promise<{ port: number; spans: SpanRow[]; stop(): Promise<void> }> {
  const spans: SpanRow[] = [];
  const server = new Server();
  const same = (bytes: Buffer): Buffer => bytes;
  server.addService(
    { Export: { path: '/opentelemetry.proto.collector.trace.v1.TraceService/Export', requestStream: false, responseStream: false, requestSerialize: same, requestDeserialize: same, responseSerialize: same, responseDeserialize: same } },
    {
      Export: (call: { request: Buffer }, done: (error: null, response: Buffer) => void) => {
        spans.push(...decodeOtlp('traces', 'protobuf', call.request).rows);
        done(null, Buffer.alloc(0));
      },
    },
  );
  const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) => (error === null ? resolve(bound) : reject(error))));
  return { port, spans, stop: () => new Promise((resolve) => server.tryShutdown(() => resolve())) };
}

let tempo: Awaited<ReturnType<typeof startTempo>>;
let mimir: Backend;
let loki: Backend;
let gateway: RunningCli;
let grpcUrl = '';
let httpUrl = '';
let override = '';

beforeAll(async () => {
  tempo = await startTempo();
  mimir = await startBackend();
  loki = await startBackend();
  const dir = mkdtempSync(join(tmpdir(), 'otelgate-gateway-'));
  override = join(dir, 'loopback.yaml');
  writeFileSync(
    override,
    `extensions: {health_check: {endpoint: "127.0.0.1:0"}, file_storage: {directory: ${join(dir, 'queue')}}}
receivers: {otlp: {protocols: {grpc: {endpoint: "127.0.0.1:0"}, http: {endpoint: "127.0.0.1:0"}}}}
exporters:
  otlp/tempo: {endpoint: "127.0.0.1:${tempo.port}"}
  otlphttp/mimir: {endpoint: "${mimir.url}"}
  otlphttp/loki: {endpoint: "${loki.url}"}
`,
  );
  gateway = new RunningCli(['--config', GATEWAY, '--config', override]);
  grpcUrl = `http://${String((await gateway.waitFor('Starting GRPC server'))['endpoint'])}`;
  await gateway.waitFor('Everything is ready');
  httpUrl = `http://${String(gateway.lines.find((l) => l.msg === 'Starting HTTP server' && l['name'] === 'otlp')?.['endpoint'])}`;
});

afterAll(async () => {
  await gateway?.stop();
  await tempo?.stop();
  await mimir?.stop();
  await loki?.stop();
});

describe('a Collector gateway config, unchanged', () => {
  it('validates, saying where batching goes', () => {
    const result = runCli(['validate', '--config', GATEWAY]);
    expect(result.status).toBe(0);
    expect(result.stderr).toContain('processors.batch: otelgate batches in the sending queue, after the data is on disk: exporters "otlp/tempo", "otlphttp/mimir", "otlphttp/loki" get sending_queue.batch {min_size: 8192, max_size: 10000, flush_timeout: 200ms}');
  });

  it('takes traces and metrics over gRPC and logs over HTTP, and delivers them to Tempo, Mimir and Loki', async () => {
    const spans = new InMemorySpanExporter();
    const tracing = new BasicTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(spans)] });
    for (const name of ['GET /cart', 'POST /pay', 'GET /done']) tracing.getTracer('shop').startSpan(name).end();
    await new Promise<void>((resolve, reject) => new OTLPTraceExporter({ url: grpcUrl }).export(spans.getFinishedSpans(), (r) => (r.code === 0 ? resolve() : reject(r.error))));

    class Reader extends MetricReader {
      protected override async onForceFlush(): Promise<void> {}
      protected override async onShutdown(): Promise<void> {}
    }
    const reader = new Reader();
    const metering = new MeterProvider({ resource, readers: [reader] });
    metering.getMeter('shop').createCounter('orders').add(2, { region: 'eu' });
    const { resourceMetrics } = await reader.collect();
    await new Promise<void>((resolve, reject) => new OTLPMetricExporter({ url: grpcUrl }).export(resourceMetrics, (r) => (r.code === 0 ? resolve() : reject(r.error))));

    const logs = new InMemoryLogRecordExporter();
    const logging = new LoggerProvider({ resource, processors: [new SimpleLogRecordProcessor({ exporter: logs })] });
    logging.getLogger('shop').emit({ body: 'paid', severityNumber: SeverityNumber.INFO });
    logging.getLogger('shop').emit({ body: 'shipped', severityNumber: SeverityNumber.INFO });
    await new Promise<void>((resolve, reject) => new OTLPLogExporter({ url: `${httpUrl}/v1/logs` }).export(logs.getFinishedLogRecords(), (r) => (r.code === 0 ? resolve() : reject(r.error))));

    expect(await waitUntil(() => tempo.spans.length === 3 && mimir.delivered('metrics').length === 1 && loki.delivered('logs').length === 2)).toBe(true);
    expect(tempo.spans.map((s) => s.name).sort()).toEqual(['GET /cart', 'GET /done', 'POST /pay']);
    expect(new Set(mimir.received.map((r) => r.path))).toEqual(new Set(['/v1/metrics']));
    expect(new Set(loki.received.map((r) => r.path))).toEqual(new Set(['/v1/logs']));
    // The debug exporter of the traces pipeline printed them too.
    expect(gateway.lines.some((l) => l.msg === 'Traces' && l['spans'] === 3)).toBe(true);
  });
});
