// The prometheusremotewrite exporter: OTLP metrics as Prometheus series, sent by remote write 1.0
// (snappy protobuf WriteRequests) to Prometheus, Mimir, Cortex or Thanos, behind the durable
// sending queue of the exporter helper.
import type { DataPointRow } from '../../model/metrics.js';
import type { ExporterFactory } from '../../runtime/component.js';
import { httpExporter } from '../helper/http-exporter.js';
import type { RetryResult } from '../helper/retry.js';
import { effectiveQueue, prometheusRemoteWriteSchema, validatePrometheusRemoteWrite } from './config.js';
import { queuedFrames, RemoteWriteEncoder, requestBodies, type Encoded } from './encode.js';
import type { DropReason } from './translate.js';

/** The headers remote write 1.0 requires, over any configured: the protocol's, not the user's. */
const PROTOCOL_HEADERS = { 'content-encoding': 'snappy', 'x-prometheus-remote-write-version': '0.1.0' };

/** What a push that needed no request came to: every point was left out (and counted). */
const NOTHING_TO_SEND: RetryResult = { kind: 'success', outcome: { kind: 'success', status: 204 }, attempts: 0 };

export const prometheusRemoteWriteExporterFactory: ExporterFactory<typeof prometheusRemoteWriteSchema> = {
  kind: 'exporter',
  type: 'prometheusremotewrite',
  description: 'Sends metrics to Prometheus, Mimir, Cortex or Thanos by remote write 1.0, translated as the Collector translates them.',
  stability: { metrics: 'alpha' },
  schema: prometheusRemoteWriteSchema,
  validate: validatePrometheusRemoteWrite,
  create(config, ctx) {
    const encoder = new RemoteWriteEncoder(
      {
        namespace: config.namespace,
        addSuffixes: config.add_metric_suffixes,
        externalLabels: config.external_labels,
        resourceLabels: config.resource_to_telemetry_conversion.enabled,
        targetInfo: config.target_info.enabled,
      },
      config.max_batch_size_bytes,
    );
    const url = config.endpoint as string;
    const droppedCounter = ctx.telemetry.enabled('basic')
      ? ctx.telemetry.meter('otelgate/exporter').createCounter('otelgate_exporter_prometheusremotewrite_dropped_data_points', {
          description: 'Data points remote write 1.0 cannot carry as they are, left out, by reason',
        })
      : undefined;
    const warned = new Set<DropReason>();
    const counted = ({ payload, dropped }: Encoded): Buffer => {
      for (const [reason, points] of dropped) {
        droppedCounter?.add(points, { exporter: ctx.id, reason });
        if (warned.has(reason)) continue;
        warned.add(reason);
        ctx.logger.warn({ reason, data_points: points }, 'Data points that remote write cannot carry are left out (counted in otelgate_exporter_prometheusremotewrite_dropped_data_points; logged once per reason)');
      }
      return payload;
    };
    const frames = (payload: Uint8Array): Uint8Array => counted(queuedFrames(payload, encoder));
    return httpExporter({
      ctx,
      config: { ...config, sending_queue: effectiveQueue(config) },
      // Translated and compressed as the batch is queued: the queue holds the requests' Snappy blocks.
      encode: (batch) => counted(encoder.encode(batch.rows as readonly DataPointRow[])),
      merge: (payloads) => Buffer.concat(payloads.map(frames)),
      async push(out, send) {
        let result: RetryResult = NOTHING_TO_SEND;
        let refused: RetryResult | undefined;
        // In order, each with its retries. Once one can't be delivered yet the push goes back to the
        // queue whole: what went before is sent again, which Prometheus takes as the same samples.
        for (const body of requestBodies(frames(out.payload), config.max_batch_size_bytes)) {
          result = await send({ url, body, contentType: 'application/x-protobuf', headers: PROTOCOL_HEADERS });
          if (result.kind === 'permanent') refused ??= result;
          else if (result.kind !== 'success') return result;
        }
        return refused ?? result;
      },
    });
  },
};
