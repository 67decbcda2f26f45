// The otlp exporter: the Collector's, OTLP over gRPC to Tempo, a Collector or another otelgate,
// behind the durable sending queue. The queue holds OTLP protobuf, which is the gRPC message as it
// is: a push is one call of the signal's Export method.
import type { ExporterFactory } from '../../runtime/component.js';
import { pushRetryOptions, retryPauseMs } from '../helper/push-retry.js';
import { remoteExporter } from '../helper/queued-exporter.js';
import { retry } from '../helper/retry.js';
import { retryPolicy } from '../helper/retry-settings.js';
import { tenancy } from '../helper/tenancy.js';
import { otlpGrpcSchema, validateOtlpGrpc } from './config.js';
import type { GrpcSender } from './grpc-sender.js';

/** A little under gRPC's default limit on a received message (4 MiB), which Collectors and otelgate keep. */
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024 - 64 * 1024;

export const otlpExporterFactory: ExporterFactory<typeof otlpGrpcSchema> = {
  kind: 'exporter',
  type: 'otlp',
  description: 'Sends OTLP over gRPC to an OTLP endpoint: Tempo, a Collector, another otelgate.',
  stability: { logs: 'alpha', traces: 'alpha', metrics: 'alpha' },
  schema: otlpGrpcSchema,
  validate: validateOtlpGrpc,
  create(config, ctx) {
    const policy = retryPolicy(config.retry_on_failure);
    const tenants = tenancy(config);
    let sender: GrpcSender | undefined;
    return remoteExporter({
      ctx,
      queueId: ctx.id,
      queue: config.sending_queue,
      partitionBy: tenants.partitionBy,
      retryPauseMs: retryPauseMs(policy),
      maxBatchBytes: MAX_MESSAGE_BYTES,
      async start() {
        // Loaded here, not with the components: only a config that sends gRPC pays for grpc-js.
        const { createGrpcSender } = await import('./grpc-sender.js');
        sender = await createGrpcSender(config);
      },
      push(out, signal, recovered) {
        const running = sender;
        if (running === undefined) throw new Error(`${ctx.id} pushed before start`);
        const headers = tenants.headers(out);
        return retry(() => running.send(out.signal, out.payload, headers, signal), policy, pushRetryOptions(ctx, out, signal, recovered));
      },
      async shutdown() {
        sender?.close();
        sender = undefined;
      },
    });
  },
};
