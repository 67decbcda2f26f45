// The otlp_http exporter (also `otlphttp`, the Collector's older name): OTLP over HTTP to Tempo,
// Loki 3's /otlp, Mimir, a Collector or another otelgate, behind the durable sending queue.
import { ConfigError } from '../../errors.js';
import type { Signal } from '../../model/signal.js';
import { decodeOtlp } from '../../otlp/decode.js';
import { encodeOtlp } from '../../otlp/encode.js';
import type { ComponentContext, ExporterFactory } from '../../runtime/component.js';
import { joinUrl } from '../helper/http-settings.js';
import { httpExporter } from '../helper/http-exporter.js';
import type { Outgoing } from '../helper/queued-exporter.js';
import { otlpHttpSchema, validateOtlpHttp, type OtlpHttpConfig } from './config.js';

const PATHS: Record<Signal, string> = { logs: '/v1/logs', traces: '/v1/traces', metrics: '/v1/metrics' };

/** The URL a signal goes to: its own endpoint as written, else the endpoint with the signal's path, as the Collector does. */
export function signalUrl(config: OtlpHttpConfig, signal: Signal): string | undefined {
  const own = { logs: config.logs_endpoint, traces: config.traces_endpoint, metrics: config.metrics_endpoint }[signal];
  if (own !== undefined) return own;
  return config.endpoint === undefined ? undefined : joinUrl(config.endpoint, PATHS[signal]);
}

function body(config: OtlpHttpConfig, out: Outgoing): { body: Uint8Array; contentType: string } {
  if (config.encoding === 'proto') return { body: out.payload, contentType: 'application/x-protobuf' };
  const rows = decodeOtlp(out.signal, 'protobuf', Buffer.from(out.payload.buffer, out.payload.byteOffset, out.payload.byteLength)).rows;
  return { body: encodeOtlp(out.signal, 'json', rows), contentType: 'application/json' };
}

function checkUrls(config: OtlpHttpConfig, ctx: ComponentContext): void {
  const missing = ctx.signals.filter((signal) => signalUrl(config, signal) === undefined);
  if (missing.length === 0) return;
  throw new ConfigError(
    missing.map((signal) => ({ severity: 'error' as const, path: `exporters.${ctx.id}`, message: `a ${signal} pipeline uses this exporter, but it has no endpoint for ${signal}: set endpoint or ${signal}_endpoint` })),
  );
}

export const otlpHttpExporterFactory: ExporterFactory<typeof otlpHttpSchema> = {
  kind: 'exporter',
  type: 'otlp_http',
  description: 'Sends OTLP over HTTP (protobuf or JSON) to an OTLP endpoint: Tempo, Loki, Mimir, a Collector, another otelgate.',
  stability: { logs: 'alpha', traces: 'alpha', metrics: 'alpha' },
  schema: otlpHttpSchema,
  validate: validateOtlpHttp,
  create(config, ctx) {
    return httpExporter({
      ctx,
      config,
      queueId: ctx.id.replace(/^otlphttp(?=\/|$)/, 'otlp_http'),
      check: () => checkUrls(config, ctx),
      push: (out, send) => send({ url: signalUrl(config, out.signal) as string, ...body(config, out) }),
    });
  },
};

/** The Collector's older spelling, kept so that its configs load unchanged. */
export const otlphttpExporterFactory: ExporterFactory<typeof otlpHttpSchema> = {
  ...otlpHttpExporterFactory,
  type: 'otlphttp',
  description: 'otlp_http under the Collector\'s older name, so that its configs load unchanged.',
};
