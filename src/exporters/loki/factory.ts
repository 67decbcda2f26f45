// The loki exporter: log records as Loki streams, pushed to /loki/api/v1/push as snappy protobuf
// (or JSON), behind the durable sending queue of the exporter helper.
import type { LogRow } from '../../model/logs.js';
import type { ExporterFactory } from '../../runtime/component.js';
import { httpExporter } from '../helper/http-exporter.js';
import { snappyBlock } from '../helper/snappy.js';
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
    const builder = new StreamBuilder(config);
    const url = pushUrl(config.endpoint as string);
    const protobuf = config.encoding === 'proto';
    const refused = ctx.telemetry.enabled('basic')
      ? ctx.telemetry.meter('otelgate/exporter').createCounter('otelgate_exporter_loki_refused_log_records', {
          description: 'Log records of pushes Loki refused for good (400), by the reason its message names first',
        })
      : undefined;
    return httpExporter({
      ctx,
      config,
      // Pushes are made once, from the rows the receiver decoded, and queued as PushRequests:
      // decoding OTLP again at every push cost a third of forwarding's CPU.
      encode: (batch) => pushRequest(builder.streams(batch.rows as readonly LogRow[], batch.receivedUnixNano)),
      merge: mergePushes,
      async push(out, send) {
        const result = await send({ url, ...(protobuf ? { body: snappyBlock(out.payload), contentType: 'application/x-protobuf' } : { body: jsonPush(readPushes([out.payload])), contentType: 'application/json' }) });
        if (result.kind === 'permanent') refused?.add(out.items, { exporter: ctx.id, reason: refusalReason(result.outcome.backendMessage ?? result.outcome.message) });
        return result;
      },
    });
  },
};
