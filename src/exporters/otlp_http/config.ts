// Settings of the otlp_http exporter: the Collector's otlphttp exporter (confighttp client
// settings, per-signal endpoints, encoding, retry_on_failure, sending_queue), and tenancy.
import Type, { type Static } from 'typebox';
import type { SettingsProblem } from '../../runtime/component.js';
import { httpClientProperties, validateHttpClient } from '../helper/http-settings.js';
import { sendingQueueSchema, validateSendingQueue } from '../helper/queue-settings.js';
import { retryOnFailureSchema, validateRetryOnFailure } from '../helper/retry-settings.js';
import { tenancyProperties, validateTenancy } from '../helper/tenancy.js';

const signalEndpoint = (signal: string, path: string) =>
  Type.Optional(Type.String({ minLength: 1, description: `URL the ${signal} go to, used as written; default: endpoint + ${path}.` }));

export const otlpHttpSchema = Type.Object(
  {
    ...httpClientProperties({ timeout: '30s', compression: 'gzip' }),
    logs_endpoint: signalEndpoint('logs', '/v1/logs'),
    traces_endpoint: signalEndpoint('traces', '/v1/traces'),
    metrics_endpoint: signalEndpoint('metrics', '/v1/metrics'),
    profiles_endpoint: Type.Optional(Type.String({ minLength: 1, description: 'Accepted so that Collector configs load; otelgate carries no profiles, so it has no effect.' })),
    encoding: Type.Enum(['proto', 'json'], { default: 'proto', description: 'OTLP protobuf (proto) or OTLP JSON (json) request bodies.' }),
    ...tenancyProperties,
    retry_on_failure: retryOnFailureSchema,
    sending_queue: sendingQueueSchema,
  },
  { additionalProperties: false },
);

export type OtlpHttpConfig = Static<typeof otlpHttpSchema>;

export function validateOtlpHttp(config: OtlpHttpConfig): SettingsProblem[] {
  const problems = [...validateHttpClient(config), ...validateRetryOnFailure(config.retry_on_failure), ...validateSendingQueue(config.sending_queue), ...validateTenancy(config)];
  const signals = [config.logs_endpoint, config.traces_endpoint, config.metrics_endpoint];
  if (config.endpoint === undefined && signals.every((s) => s === undefined)) {
    problems.push({ path: [], message: 'set endpoint (e.g. http://tempo:4318), or logs_endpoint, traces_endpoint and metrics_endpoint for the signals it sends' });
  }
  for (const [name, value] of [['logs_endpoint', config.logs_endpoint], ['traces_endpoint', config.traces_endpoint], ['metrics_endpoint', config.metrics_endpoint]] as const) {
    if (value === undefined) continue;
    try {
      const url = new URL(value);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') problems.push({ path: [name], message: `must start with http:// or https:// (got ${url.protocol}//)` });
    } catch {
      problems.push({ path: [name], message: `"${value}" is not a URL; write it as http://host:port/v1/...` });
    }
  }
  return problems;
}
