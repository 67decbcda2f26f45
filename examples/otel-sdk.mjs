// Sends a log record, a span and a metric to otelgate with the official OpenTelemetry JS SDK.
// Nothing here knows about otelgate: the exporters read the standard variables.
//
//   OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer otg_..." node examples/otel-sdk.mjs
//
// OTEL_EXPORTER_OTLP_ENDPOINT defaults to http://localhost:4318, where otelgate listens; the
// exporters append /v1/logs, /v1/traces and /v1/metrics, which otelgate serves. Swap the
// -otlp-proto exporters for the -otlp-http ones to send OTLP JSON instead of protobuf.
import { SeverityNumber } from '@opentelemetry/api-logs';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';

const resource = resourceFromAttributes({ 'service.name': 'otelgate-example' });

const loggerProvider = new LoggerProvider({ resource, processors: [new BatchLogRecordProcessor({ exporter: new OTLPLogExporter() })] });
const tracerProvider = new BasicTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
const meterProvider = new MeterProvider({
  resource,
  readers: [new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter(), exportIntervalMillis: 60_000 })],
});

const span = tracerProvider.getTracer('example').startSpan('checkout');
loggerProvider.getLogger('example').emit({ body: 'order placed', severityNumber: SeverityNumber.INFO, severityText: 'INFO', attributes: { 'order.id': 1001 } });
meterProvider.getMeter('example').createCounter('orders').add(1, { region: 'eu' });
span.end();

// Shutting down flushes every exporter.
await Promise.all([loggerProvider.shutdown(), tracerProvider.shutdown(), meterProvider.shutdown()]);
console.log('sent a log record, a span and a metric');
