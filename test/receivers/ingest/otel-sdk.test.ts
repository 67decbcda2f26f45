// Real clients: the official OpenTelemetry JS OTLP exporters, JSON and protobuf, pointed at the
// ingest receiver with the key in their headers. The same telemetry sent both ways must become
// the very same rows, field by field.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OTLPLogExporter as LogsJson } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as LogsProto } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPMetricExporter as MetricsJson } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as MetricsProto } from '@opentelemetry/exporter-metrics-otlp-proto';
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

describe('the official OpenTelemetry JS exporters', () => {
  it('logs: JSON and protobuf exports become identical rows', async () => {
    const records = await sdkLogRecords();
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
  });

  it('traces: JSON and protobuf exports become identical rows', async () => {
    const { spans, parent } = await sdkSpans();
    expect(spans).toHaveLength(2);

    const [fromJson, fromProto] = await bothWays(spans, new TracesJson({ url: `${url}/v1/traces`, headers }), new TracesProto({ url: `${url}/api/v1/traces`, headers }));
    expect(fromJson.rows).toHaveLength(2);
    expect(canonicalRows(fromProto.rows)).toBe(canonicalRows(fromJson.rows));
    expect(fromProto.rows).toEqual(fromJson.rows);
    const rows = fromJson.signal === 'traces' ? fromJson.rows : [];
    const select = rows.find((r) => r.name === 'SELECT orders');
    expect(select).toMatchObject({ kind: 3, statusCode: 2, statusMessage: 'deadlock', parentSpanId: parent.spanId, traceId: parent.traceId });
    expect(select?.links.map((l) => l.spanId)).toEqual([parent.spanId]);
  });

  it('metrics: JSON and protobuf exports become identical rows, one per data point', async () => {
    const resourceMetrics = await sdkMetrics();

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
  });
});
