// Settings of the prometheusremotewrite exporter: the Collector's (endpoint, namespace,
// external_labels, add_metric_suffixes, resource_to_telemetry_conversion, target_info,
// max_batch_size_bytes, confighttp client settings, retry_on_failure), with otelgate's sending
// queue and tenancy.
import Type, { type Static } from 'typebox';
import type { SettingsProblem } from '../../runtime/component.js';
import { httpClientProperties, validateHttpClient } from '../helper/http-settings.js';
import { sendingQueueSchema, validateSendingQueue, type SendingQueueConfig } from '../helper/queue-settings.js';
import { retryOnFailureSchema, validateRetryOnFailure } from '../helper/retry-settings.js';
import { tenancyProperties, validateTenancy } from '../helper/tenancy.js';

const enabled = (value: boolean, description: string) => Type.Object({ enabled: Type.Boolean({ default: value, description }) }, { default: {}, additionalProperties: false });

export const prometheusRemoteWriteSchema = Type.Object(
  {
    ...httpClientProperties({ timeout: '5s', compression: 'none' }),
    namespace: Type.String({ default: '', description: 'Prefix of every metric name, with "_" after it.' }),
    external_labels: Type.Record(Type.String({ minLength: 1 }), Type.String(), { default: {}, description: 'Labels added to every series that has no label of that name.' }),
    add_metric_suffixes: Type.Boolean({ default: true, description: 'Unit and type suffixes on metric names (_seconds, _bytes, _total, _ratio); false keeps the name as it is but for characters Prometheus forbids.' }),
    resource_to_telemetry_conversion: enabled(false, 'Every resource attribute as a label of every series, besides target_info.'),
    target_info: enabled(true, 'A target_info series per resource with its attributes other than service.name, service.namespace and service.instance.id.'),
    max_batch_size_bytes: Type.Integer({ minimum: 1, default: 3_000_000, description: 'Bytes of a request body at most, before snappy; a larger push is split into several requests.' }),
    ...tenancyProperties,
    retry_on_failure: retryOnFailureSchema,
    sending_queue: sendingQueueSchema,
    remote_write_queue: Type.Optional(
      Type.Object(
        {
          enabled: Type.Optional(Type.Boolean({ description: 'sending_queue.enabled' })),
          queue_size: Type.Optional(Type.Integer({ minimum: 1, description: 'sending_queue.queue_size' })),
          num_consumers: Type.Optional(Type.Integer({ minimum: 1, description: 'sending_queue.num_consumers' })),
        },
        { additionalProperties: false, description: 'The Collector\'s queue settings of this exporter, accepted so that its configs load: what they set is set in sending_queue, which stays on disk unless its storage says otherwise.' },
      ),
    ),
  },
  { additionalProperties: false },
);

export type PrometheusRemoteWriteConfig = Static<typeof prometheusRemoteWriteSchema>;

const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

export function validatePrometheusRemoteWrite(config: PrometheusRemoteWriteConfig): SettingsProblem[] {
  const problems = [...validateHttpClient(config), ...validateRetryOnFailure(config.retry_on_failure), ...validateSendingQueue(effectiveQueue(config)), ...validateTenancy(config)];
  if (config.endpoint === undefined) problems.push({ path: [], message: 'set endpoint: the remote-write URL (http://prometheus:9090/api/v1/write, http://mimir:8080/api/v1/push)' });
  if (config.compression !== 'none') problems.push({ path: ['compression'], message: 'remote-write bodies are snappy-compressed, as the protocol requires: remove compression' });
  if (config.namespace !== '' && !LABEL_NAME.test(config.namespace)) problems.push({ path: ['namespace'], message: `"${config.namespace}" is not a metric name prefix Prometheus takes (letters, digits and _, not starting with a digit)` });
  for (const name of Object.keys(config.external_labels)) {
    if (!LABEL_NAME.test(name) || name.startsWith('__')) problems.push({ path: ['external_labels', name], message: `"${name}" is not a label name Prometheus takes (letters, digits and _, not starting with a digit or __)` });
  }
  return problems;
}

/** sending_queue with what a Collector config's remote_write_queue sets over it. */
export function effectiveQueue(config: PrometheusRemoteWriteConfig): SendingQueueConfig {
  const legacy = config.remote_write_queue;
  if (legacy === undefined) return config.sending_queue;
  return {
    ...config.sending_queue,
    ...(legacy.enabled === undefined ? {} : { enabled: legacy.enabled }),
    ...(legacy.queue_size === undefined ? {} : { queue_size: legacy.queue_size }),
    ...(legacy.num_consumers === undefined ? {} : { num_consumers: legacy.num_consumers }),
  };
}
