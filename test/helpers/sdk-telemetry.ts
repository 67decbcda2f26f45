// The telemetry the receivers' SDK tests send: made by the official OpenTelemetry JS SDK, so
// that what reaches otelgate is what an instrumented app exports, and the same in each test.
import { context, SpanKind, SpanStatusCode, trace, type SpanContext } from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor, type ReadableLogRecord } from '@opentelemetry/sdk-logs';
import { MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';

export const SDK_RESOURCE = resourceFromAttributes({ 'service.name': 'sdk-test', 'service.version': '1.2.3', 'project.id': 'not-this-one', 'host.cpus': 8, 'deployment.canary': true });

/** Three log records: attributes of every kind and a scope with a version; a map body and an event name; a bare one. */
export async function sdkLogRecords(): Promise<ReadableLogRecord[]> {
  const memory = new InMemoryLogRecordExporter();
  const provider = new LoggerProvider({ resource: SDK_RESOURCE, processors: [new SimpleLogRecordProcessor({ exporter: memory })] });
  const logger = provider.getLogger('checkout.logger', '4.5.6');
  logger.emit({ body: 'order placed', severityNumber: SeverityNumber.INFO, severityText: 'INFO', attributes: { 'order.id': 1001, amount: 12.5, paid: true, tags: ['a', 'b'] } });
  logger.emit({ body: { nested: { map: 1 } } as never, severityNumber: SeverityNumber.ERROR, eventName: 'payment.failed', attributes: { retries: 3 } });
  logger.emit({ body: 'no attributes' });
  await provider.forceFlush();
  const records = memory.getFinishedLogRecords();
  await provider.shutdown();
  return records;
}

/** Two spans: a server span with an event, and its client child, in error, linked to it. */
export async function sdkSpans(): Promise<{ spans: ReadableSpan[]; parent: SpanContext }> {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ resource: SDK_RESOURCE, spanProcessors: [new SimpleSpanProcessor(memory)] });
  const tracer = provider.getTracer('checkout.tracer', '1.0.0');
  const parent = tracer.startSpan('POST /orders', { kind: SpanKind.SERVER, attributes: { 'http.response.status_code': 201 } });
  parent.addEvent('validated', { rules: 3 });
  parent.setStatus({ code: SpanStatusCode.OK });
  const child = tracer.startSpan('SELECT orders', { kind: SpanKind.CLIENT, links: [{ context: parent.spanContext(), attributes: { why: 'batch' } }] }, trace.setSpan(context.active(), parent));
  child.setStatus({ code: SpanStatusCode.ERROR, message: 'deadlock' });
  child.end();
  parent.end();
  const spans = memory.getFinishedSpans();
  await provider.shutdown();
  return { spans, parent: parent.spanContext() };
}

/** One collection of four instruments: a counter, an up-down counter, a histogram and a gauge. */
export async function sdkMetrics(): Promise<ResourceMetrics> {
  class Reader extends MetricReader {
    protected override async onForceFlush(): Promise<void> {}
    protected override async onShutdown(): Promise<void> {}
  }
  const reader = new Reader();
  const provider = new MeterProvider({ resource: SDK_RESOURCE, readers: [reader] });
  const meter = provider.getMeter('checkout.meter');
  meter.createCounter('orders', { unit: '1', description: 'Orders placed' }).add(3, { region: 'eu' });
  meter.createUpDownCounter('queue.depth').add(-2);
  meter.createHistogram('latency', { unit: 'ms' }).record(42, { route: '/orders' });
  meter.createGauge('temperature').record(21.5);
  const { resourceMetrics } = await reader.collect();
  await provider.shutdown();
  return resourceMetrics;
}
