// The loki exporter: log records as Loki streams, pushed to /loki/api/v1/push as snappy protobuf
// (or JSON), behind the durable sending queue of the exporter helper.
import type { LogRow } from '../../model/logs.js';
import type { ExporterFactory } from '../../runtime/component.js';
import { deliver } from '../helper/deliver.js';
import type { HttpSender } from '../helper/http-sender.js';
import { remoteExporter } from '../helper/queued-exporter.js';
import { snappyBlock } from '../helper/snappy.js';
import { retryPolicy } from '../helper/retry-settings.js';
import { tenancy } from '../helper/tenancy.js';
import { lokiSchema, pushUrl, validateLoki } from './config.js';
import { mergePushes, readPushes } from './queued.js';
import { jsonPush, pushRequest } from './push.js';
import { refusalReason } from './refusal.js';
import { StreamBuilder } from './streams.js';

export const lokiExporterFactory: ExporterFactory<typeof lokiSchema> = {
  kind: 'exporter',
  type: 'loki',
  description: 'Pushes log records to Loki (/loki/api/v1/push) as labelled streams, snappy protobuf or JSON.',
  stability: { logs: 'alpha' },
  schema: lokiSchema,
  validate: validateLoki,
  create(config, ctx) {
    const policy = retryPolicy(config.retry_on_failure);
    const tenants = tenancy(config);
    const builder = new StreamBuilder(config);
    const url = pushUrl(config.endpoint as string);
    const protobuf = config.encoding === 'proto';
    const refused = ctx.telemetry.enabled('basic')
      ? ctx.telemetry.meter('otelgate/exporter').createCounter('otelgate_exporter_loki_refused_log_records', {
          description: 'Log records of pushes Loki refused for good (400), by the reason its message names first',
        })
      : undefined;
    let sender: HttpSender | undefined;
    return remoteExporter({
      ctx,
      queueId: ctx.id,
      queue: config.sending_queue,
      partitionBy: tenants.partitionBy,
      retryPauseMs: Math.max(policy.maxIntervalMs, 1000),
      // Pushes are made once, from the rows the receiver decoded, and queued as PushRequests:
      // decoding OTLP again at every push cost a third of forwarding's CPU.
      encode: (batch) => pushRequest(builder.streams(batch.rows as readonly LogRow[], batch.receivedUnixNano)),
      merge: mergePushes,
      async start() {
        // Loaded here, as otlp_http loads it: only a config with a remote exporter pays for undici.
        const { createHttpSender } = await import('../helper/http-sender.js');
        sender = createHttpSender(config);
      },
      async push(out, signal, recovered) {
        if (sender === undefined) throw new Error('loki pushed before start');
        const request = { url, headers: tenants.headers(out), ...(protobuf ? { body: snappyBlock(out.payload), contentType: 'application/x-protobuf' } : { body: jsonPush(readPushes([out.payload])), contentType: 'application/json' }) };
        const result = await deliver(sender, request, policy, {
          signal,
          recovered,
          onRetry: (event) => ctx.logger.info({ project: out.project, attempt: event.attempt, retry_in_ms: event.delayMs, message: event.outcome.message }, 'Exporting failed; will retry'),
        });
        if (result.kind === 'permanent') refused?.add(out.items, { exporter: ctx.id, reason: refusalReason(result.outcome.backendMessage ?? result.outcome.message) });
        return result;
      },
      async shutdown() {
        await sender?.close();
        sender = undefined;
      },
    });
  },
};
