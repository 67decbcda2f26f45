// The loki exporter: log records as Loki streams, pushed to /loki/api/v1/push as snappy protobuf
// (or JSON), behind the durable sending queue of the exporter helper.
import type { LogRow } from '../../model/logs.js';
import type { ExporterFactory } from '../../runtime/component.js';
import { httpExporter } from '../helper/http-exporter.js';
import { lokiSchema, pushUrl, validateLoki } from './config.js';
import { PushEncoder } from './encode.js';
import { jsonPush } from './push.js';
import { mergePushes, protobufBody, pushRequestOf, readPushes } from './queued.js';
import { refusalReason } from './refusal.js';

export const lokiExporterFactory: ExporterFactory<typeof lokiSchema> = {
  kind: 'exporter',
  type: 'loki',
  description: 'Pushes log records to Loki (/loki/api/v1/push) as labelled streams, snappy protobuf or JSON.',
  stability: { logs: 'alpha' },
  schema: lokiSchema,
  validate: validateLoki,
  create(config, ctx) {
    const encoder = new PushEncoder(config);
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
      // Pushes are made once, from the rows the receiver decoded, and queued as the body Loki is
      // sent: decoding OTLP again at every push cost a third of forwarding's CPU, compressing a
      // PushRequest with snappyjs at every push a sixth.
      encode: (batch) => encoder.encode(batch.rows as readonly LogRow[], batch.receivedUnixNano),
      merge: (payloads) => mergePushes(payloads.map(pushRequestOf)),
      async push(out, send) {
        const body = protobuf ? protobufBody(out.payload) : jsonPush(readPushes([pushRequestOf(out.payload)]));
        const result = await send({ url, body, contentType: protobuf ? 'application/x-protobuf' : 'application/json' });
        if (result.kind === 'permanent') refused?.add(out.items, { exporter: ctx.id, reason: refusalReason(result.outcome.backendMessage ?? result.outcome.message) });
        return result;
      },
    });
  },
};
