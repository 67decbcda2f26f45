// Real clients of the otlp receiver: the official OpenTelemetry JS OTLP exporters over gRPC, and
// over HTTP with protobuf and JSON. The same telemetry sent the three ways must become the very
// same rows. One receiver has no authenticator (every request is its `project`), the other
// resolves each call's key (gRPC metadata `authorization`) to the key's project.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Metadata } from '@grpc/grpc-js';
import { OTLPLogExporter as LogsGrpc } from '@opentelemetry/exporter-logs-otlp-grpc';
import { OTLPLogExporter as LogsJson } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as LogsProto } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPMetricExporter as MetricsGrpc } from '@opentelemetry/exporter-metrics-otlp-grpc';
import { OTLPMetricExporter as MetricsJson } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as MetricsProto } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter as TracesGrpc } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as TracesJson } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as TracesProto } from '@opentelemetry/exporter-trace-otlp-proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey } from '../../../src/auth/key.js';
import { writeKeysFile } from '../../../src/auth/keysfile.js';
import { builtinRegistry } from '../../../src/components.js';
import type { Batch } from '../../../src/model/batch.js';
import { Service } from '../../../src/runtime/service.js';
import { captureExporter, recorder, type Recorder } from '../../helpers/components.js';
import { configFrom } from '../../helpers/config.js';
import { memoryLogger } from '../../helpers/logger.js';
import { canonicalRows } from '../../helpers/otlp.js';
import { sdkLogRecords, sdkMetrics, sdkSpans } from '../../helpers/sdk-telemetry.js';

interface Exporter<T> {
  export(items: T, done: (result: { code: number; error?: Error }) => void): void;
  shutdown(): Promise<void>;
}

let service: Service;
let rec: Recorder;
/** The open receiver's gRPC and HTTP addresses, and the keyed one's. */
const open = { grpc: '', http: '' };
const keyed = { grpc: '', http: '' };
const key = generateKey();
/** The same project's key that may only read: refused on ingest as an unknown key is. */
const readOnly = generateKey();
const headers = { Authorization: `Bearer ${key.key}` };

function keyMetadata(): Metadata {
  const metadata = new Metadata();
  metadata.set('authorization', `Bearer ${key.key}`);
  return metadata;
}

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'otelgate-otlp-sdk-'));
  writeKeysFile(join(dir, 'keys.yaml'), [
    { id: key.id, project: 'sdk', sha256: key.sha256 },
    { id: readOnly.id, project: 'sdk', sha256: readOnly.sha256, scopes: ['read'] },
  ]);
  rec = recorder();
  const { logger, lines } = memoryLogger();
  service = new Service(
    configFrom(
      `
extensions: {apikeyauth: {keys_file: ${dir}/keys.yaml}}
receivers:
  otlp:
    project: anonymous
    protocols:
      grpc: {endpoint: "127.0.0.1:0"}
      http: {endpoint: "127.0.0.1:0"}
  otlp/keyed:
    protocols:
      grpc: {endpoint: "127.0.0.1:0", auth: {authenticator: apikeyauth}}
      http: {endpoint: "127.0.0.1:0", auth: {authenticator: apikeyauth}}
exporters: {capture: }
service:
  extensions: [apikeyauth]
  pipelines:
    logs: {receivers: [otlp, otlp/keyed], exporters: [capture]}
    traces: {receivers: [otlp, otlp/keyed], exporters: [capture]}
    metrics: {receivers: [otlp, otlp/keyed], exporters: [capture]}
`,
      builtinRegistry().register(captureExporter(rec)),
    ),
    logger,
  );
  await service.start();
  const endpoints = (msg: string): string[] => lines.filter((l) => l['msg'] === msg).map((l) => String(l['endpoint']));
  // Receivers start in the order of the config, each its HTTP side before its gRPC side.
  [open.http, keyed.http] = endpoints('Starting HTTP server').map((e) => `http://${e}`) as [string, string];
  [open.grpc, keyed.grpc] = endpoints('Starting GRPC server').map((e) => `http://${e}`) as [string, string];
});

afterAll(async () => {
  await service.shutdown();
});

function send<T>(exporter: Exporter<T>, items: T): Promise<void> {
  return new Promise((resolve, reject) => exporter.export(items, (result) => (result.code === 0 ? resolve() : reject(result.error ?? new Error('export failed')))));
}

/** Sends the same items through each exporter in turn and returns the batches otelgate passed on, in order. */
async function eachWay<T>(items: T, exporters: Exporter<T>[]): Promise<Batch[]> {
  const batches: Batch[] = [];
  for (const exporter of exporters) {
    rec.batches.clear();
    await send(exporter, items);
    const arrived = rec.batches.get('capture') ?? [];
    expect(arrived).toHaveLength(1);
    batches.push(arrived[0] as Batch);
    await exporter.shutdown();
  }
  return batches;
}

function expectSameRows(batches: Batch[], count: number): void {
  const [first, ...others] = batches as [Batch, ...Batch[]];
  expect(first.rows).toHaveLength(count);
  for (const other of others) {
    expect(canonicalRows(other.rows)).toBe(canonicalRows(first.rows));
    expect(other.rows).toEqual(first.rows);
  }
}

describe('the otlp receiver and the official OpenTelemetry JS exporters', () => {
  it('logs: gRPC, HTTP protobuf and HTTP JSON exports become identical rows of the receiver\'s project', async () => {
    const records = await sdkLogRecords();
    expect(records).toHaveLength(3);

    const batches = await eachWay(records, [new LogsGrpc({ url: open.grpc }), new LogsProto({ url: `${open.http}/v1/logs` }), new LogsJson({ url: `${open.http}/v1/logs` })]);
    expect(batches.map((b) => b.project)).toEqual(['anonymous', 'anonymous', 'anonymous']);
    expectSameRows(batches, 3);
    const [first] = batches[0]?.signal === 'logs' ? batches[0].rows : [];
    expect(first).toMatchObject({ body: 'order placed', severityNumber: 9, severityText: 'INFO', scope: { name: 'checkout.logger', version: '4.5.6' } });
    expect({ ...first?.attributes }).toEqual({ 'order.id': 1001n, amount: 12.5, paid: true, tags: ['a', 'b'] });
  });

  it('traces: the three ways become identical rows, and a key resolves to its project', async () => {
    const { spans, parent } = await sdkSpans();
    expect(spans).toHaveLength(2);

    const batches = await eachWay(spans, [
      new TracesGrpc({ url: keyed.grpc, metadata: keyMetadata() }),
      new TracesProto({ url: `${keyed.http}/v1/traces`, headers }),
      new TracesJson({ url: `${keyed.http}/v1/traces`, headers }),
      new TracesGrpc({ url: open.grpc }),
    ]);
    expect(batches.map((b) => b.project)).toEqual(['sdk', 'sdk', 'sdk', 'anonymous']);
    expectSameRows(batches, 2);
    const rows = batches[0]?.signal === 'traces' ? batches[0].rows : [];
    const select = rows.find((r) => r.name === 'SELECT orders');
    expect(select).toMatchObject({ kind: 3, statusCode: 2, statusMessage: 'deadlock', parentSpanId: parent.spanId, traceId: parent.traceId });
  });

  it('metrics: the three ways become identical rows, one per data point', async () => {
    const resourceMetrics = await sdkMetrics();

    const batches = await eachWay(resourceMetrics, [
      new MetricsGrpc({ url: keyed.grpc, metadata: keyMetadata() }),
      new MetricsProto({ url: `${open.http}/v1/metrics` }),
      new MetricsJson({ url: `${open.http}/v1/metrics` }),
    ]);
    expect(batches.map((b) => b.project)).toEqual(['sdk', 'anonymous', 'anonymous']);
    expectSameRows(batches, 4);
    const rows = batches[0]?.signal === 'metrics' ? batches[0].rows : [];
    expect(rows.map((r) => [r.metric.name, r.metric.type, r.kind])).toEqual([
      ['orders', 'sum', 'number'],
      ['queue.depth', 'sum', 'number'],
      ['latency', 'histogram', 'histogram'],
      ['temperature', 'gauge', 'number'],
    ]);
  });

  it.each([
    ['without a key', undefined],
    ['with a key that may only read', readOnly.key],
  ])('refuses a gRPC call %s with UNAUTHENTICATED, and passes nothing on', async (_what, presented) => {
    rec.batches.clear();
    const metadata = new Metadata();
    if (presented !== undefined) metadata.set('authorization', `Bearer ${presented}`);
    const exporter = new TracesGrpc({ url: keyed.grpc, metadata });
    const error = await send(exporter, []).then(
      () => undefined,
      (e: unknown) => e as { code?: number; message?: string },
    );
    await exporter.shutdown();
    expect(error?.code).toBe(16);
    expect(error?.message).toContain('API key invalid.');
    expect(rec.batches.size).toBe(0);
  });
});
