// Real clients: the official OpenTelemetry JS OTLP exporters, JSON and protobuf, pointed at the
// ingest receiver with the key in their headers. The same telemetry sent both ways must become
// the very same rows, field by field.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { OTLPLogExporter as LogsJson } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as LogsProto } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPMetricExporter as MetricsJson } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as MetricsProto } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter as TracesJson } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as TracesProto } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
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

interface Exporter<T> {
  export(items: T, done: (result: { code: number; error?: Error }) => void): void;
  shutdown(): Promise<void>;
}

let service: Service;
let rec: Recorder;
let url: string;
const key = generateKey();
const headers = { Authorization: `Bearer ${key.key}` };

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'otelgate-sdk-'));
  writeKeysFile(join(dir, 'keys.yaml'), [{ id: key.id, project: 'sdk', sha256: key.sha256 }]);
  rec = recorder();
  const { logger, lines } = memoryLogger();
  service = new Service(
    configFrom(
      `
extensions: {apikeyauth: {keys_file: ${dir}/keys.yaml}}
receivers: {ingest: {endpoint: "127.0.0.1:0", auth: {authenticator: apikeyauth}}}
exporters: {capture: }
service:
  extensions: [apikeyauth]
  pipelines:
    logs: {receivers: [ingest], exporters: [capture]}
    traces: {receivers: [ingest], exporters: [capture]}
    metrics: {receivers: [ingest], exporters: [capture]}
`,
      builtinRegistry().register(captureExporter(rec)),
    ),
    logger,
  );
  await service.start();
  url = `http://${String(lines.find((l) => l['msg'] === 'Starting HTTP server')?.['endpoint'])}`;
});

afterAll(async () => {
  await service.shutdown();
});

function send<T>(exporter: Exporter<T>, items: T): Promise<void> {
  return new Promise((resolve, reject) => exporter.export(items, (result) => (result.code === 0 ? resolve() : reject(result.error ?? new Error('export failed')))));
}

/** Sends the same items through both exporters and returns the two batches otelgate passed on. */
async function bothWays<T>(items: T, json: Exporter<T>, proto: Exporter<T>): Promise<[Batch, Batch]> {
  rec.batches.clear();
  await send(json, items);
  const [fromJson] = rec.batches.get('capture') ?? [];
  rec.batches.clear();
  await send(proto, items);
  const [fromProto] = rec.batches.get('capture') ?? [];
  await Promise.all([json.shutdown(), proto.shutdown()]);
  if (fromJson === undefined || fromProto === undefined) throw new Error('a batch did not arrive');
  return [fromJson, fromProto];
}

const resource = resourceFromAttributes({ 'service.name': 'sdk-test', 'service.version': '1.2.3', 'project.id': 'not-this-one', 'host.cpus': 8, 'deployment.canary': true });

describe('the official OpenTelemetry JS exporters', () => {
  it('logs: JSON and protobuf exports become identical rows', async () => {
    const memory = new InMemoryLogRecordExporter();
    const provider = new LoggerProvider({ resource, processors: [new SimpleLogRecordProcessor({ exporter: memory })] });
    const logger = provider.getLogger('checkout.logger', '4.5.6');
    logger.emit({ body: 'order placed', severityNumber: SeverityNumber.INFO, severityText: 'INFO', attributes: { 'order.id': 1001, amount: 12.5, paid: true, tags: ['a', 'b'] } });
    logger.emit({ body: { nested: { map: 1 } } as never, severityNumber: SeverityNumber.ERROR, eventName: 'payment.failed', attributes: { retries: 3 } });
    logger.emit({ body: 'no attributes' });
    await provider.forceFlush();
    const records = memory.getFinishedLogRecords();
    expect(records).toHaveLength(3);

    const [fromJson, fromProto] = await bothWays(records, new LogsJson({ url: `${url}/v1/logs`, headers }), new LogsProto({ url: `${url}/api/v1/logs`, headers }));
    expect(fromJson.project).toBe('sdk');
    expect(fromProto.project).toBe('sdk');
    expect(fromJson.rows).toHaveLength(3);
    expect(canonicalRows(fromProto.rows)).toBe(canonicalRows(fromJson.rows));
    expect(fromProto.rows).toEqual(fromJson.rows);
    const [first] = fromJson.signal === 'logs' ? fromJson.rows : [];
    expect(first).toMatchObject({ body: 'order placed', severityNumber: 9, severityText: 'INFO', scope: { name: 'checkout.logger', version: '4.5.6' } });
    expect({ ...first?.attributes }).toEqual({ 'order.id': 1001n, amount: 12.5, paid: true, tags: ['a', 'b'] });
    expect(first?.resource.attributes['project.id']).toBe('not-this-one');
    await provider.shutdown();
  });

  it('traces: JSON and protobuf exports become identical rows', async () => {
    const memory = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(memory)] });
    const tracer = provider.getTracer('checkout.tracer', '1.0.0');
    const parent = tracer.startSpan('POST /orders', { kind: SpanKind.SERVER, attributes: { 'http.response.status_code': 201 } });
    parent.addEvent('validated', { rules: 3 });
    parent.setStatus({ code: SpanStatusCode.OK });
    const { trace, context } = await import('@opentelemetry/api');
    const child = tracer.startSpan('SELECT orders', { kind: SpanKind.CLIENT, links: [{ context: parent.spanContext(), attributes: { why: 'batch' } }] }, trace.setSpan(context.active(), parent));
    child.setStatus({ code: SpanStatusCode.ERROR, message: 'deadlock' });
    child.end();
    parent.end();
    const spans = memory.getFinishedSpans();
    expect(spans).toHaveLength(2);

    const [fromJson, fromProto] = await bothWays(spans, new TracesJson({ url: `${url}/v1/traces`, headers }), new TracesProto({ url: `${url}/api/v1/traces`, headers }));
    expect(fromJson.rows).toHaveLength(2);
    expect(canonicalRows(fromProto.rows)).toBe(canonicalRows(fromJson.rows));
    expect(fromProto.rows).toEqual(fromJson.rows);
    const rows = fromJson.signal === 'traces' ? fromJson.rows : [];
    const select = rows.find((r) => r.name === 'SELECT orders');
    expect(select).toMatchObject({ kind: 3, statusCode: 2, statusMessage: 'deadlock', parentSpanId: parent.spanContext().spanId, traceId: parent.spanContext().traceId });
    expect(select?.links.map((l) => l.spanId)).toEqual([parent.spanContext().spanId]);
    await provider.shutdown();
  });

  it('metrics: JSON and protobuf exports become identical rows, one per data point', async () => {
    class Reader extends MetricReader {
      protected override async onForceFlush(): Promise<void> {}
      protected override async onShutdown(): Promise<void> {}
    }
    const reader = new Reader();
    const provider = new MeterProvider({ resource, readers: [reader] });
    const meter = provider.getMeter('checkout.meter');
    meter.createCounter('orders', { unit: '1', description: 'Orders placed' }).add(3, { region: 'eu' });
    meter.createUpDownCounter('queue.depth').add(-2);
    meter.createHistogram('latency', { unit: 'ms' }).record(42, { route: '/orders' });
    meter.createGauge('temperature').record(21.5);
    const { resourceMetrics } = await reader.collect();

    const [fromJson, fromProto] = await bothWays(
      resourceMetrics,
      new MetricsJson({ url: `${url}/v1/metrics`, headers }),
      new MetricsProto({ url: `${url}/api/v1/metrics`, headers }),
    );
    expect(fromJson.rows).toHaveLength(4);
    expect(canonicalRows(fromProto.rows)).toBe(canonicalRows(fromJson.rows));
    expect(fromProto.rows).toEqual(fromJson.rows);
    const rows = fromJson.signal === 'metrics' ? fromJson.rows : [];
    expect(rows.map((r) => [r.metric.name, r.metric.type, r.kind])).toEqual([
      ['orders', 'sum', 'number'],
      ['queue.depth', 'sum', 'number'],
      ['latency', 'histogram', 'histogram'],
      ['temperature', 'gauge', 'number'],
    ]);
    await provider.shutdown();
  });
});
