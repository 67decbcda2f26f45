// A remote exporter that speaks HTTP, whole: its sending queue, the one HTTP client made from its
// confighttp settings at start (and closed at shutdown), tenancy headers on every request, and
// retries under retry_on_failure. An exporter gives its encoding and its requests; otlp_http, loki
// and prometheusremotewrite are each that much.
import type { Batch } from '../../model/batch.js';
import type { ComponentContext, Exporter } from '../../runtime/component.js';
import { deliver } from './deliver.js';
import { pushRetryOptions, retryPauseMs } from './push-retry.js';
import type { HttpRequest, HttpSender } from './http-sender.js';
import type { HttpClientConfig } from './http-settings.js';
import type { SendingQueueConfig } from './queue-settings.js';
import { remoteExporter, type Outgoing } from './queued-exporter.js';
import type { RetryResult } from './retry.js';
import { retryPolicy, type RetryOnFailureConfig } from './retry-settings.js';
import { tenancy, type TenancyConfig } from './tenancy.js';

export type HttpExporterConfig = HttpClientConfig & TenancyConfig & { retry_on_failure: RetryOnFailureConfig; sending_queue: SendingQueueConfig };

export interface HttpExporterSpec {
  ctx: ComponentContext;
  config: HttpExporterConfig;
  /** Names the queue directories; default the exporter's id. */
  queueId?: string;
  /** RemoteExporterSpec.encode and merge: what the queue holds, when not OTLP protobuf. */
  encode?(batch: Batch): Uint8Array;
  merge?(payloads: readonly Uint8Array[]): Uint8Array;
  /** Checks at start, against the pipelines the exporter is in; throws a ConfigError. */
  check?(): void;
  /**
   * One queued push: the exporter sends its requests with `send` (tenancy headers added, then the
   * request's own; retried as retry_on_failure says) and says what the push came to.
   */
  push(out: Outgoing, send: (request: HttpRequest) => Promise<RetryResult>): Promise<RetryResult>;
}

export function httpExporter(spec: HttpExporterSpec): Exporter {
  const { ctx, config } = spec;
  const policy = retryPolicy(config.retry_on_failure);
  const tenants = tenancy(config);
  let sender: HttpSender | undefined;
  return remoteExporter({
    ctx,
    queueId: spec.queueId ?? ctx.id,
    queue: config.sending_queue,
    partitionBy: tenants.partitionBy,
    retryPauseMs: retryPauseMs(policy),
    ...(spec.encode === undefined ? {} : { encode: spec.encode }),
    ...(spec.merge === undefined ? {} : { merge: spec.merge }),
    async start() {
      spec.check?.();
      // Loaded here, not with the components: undici brings Node's own copy of it along (15 MB of
      // RSS, src/runtime/http.ts), which only a config with a remote exporter should pay for.
      const { createHttpSender } = await import('./http-sender.js');
      sender = createHttpSender(config);
    },
    push(out, signal, recovered) {
      const running = sender;
      if (running === undefined) throw new Error(`${ctx.id} pushed before start`);
      const tenantHeaders = tenants.headers(out);
      const send = (request: HttpRequest): Promise<RetryResult> =>
        deliver(running, { ...request, headers: { ...tenantHeaders, ...request.headers } }, policy, pushRetryOptions(ctx, out, signal, recovered));
      return spec.push(out, send);
    },
    async shutdown() {
      await sender?.close();
      sender = undefined;
    },
  });
}
