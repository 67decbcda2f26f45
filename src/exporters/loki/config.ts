// Settings of the loki exporter: confighttp client settings, tenancy, retry_on_failure and
// sending_queue as otlp_http has them, and how records become Loki streams and lines.
import Type, { type Static } from 'typebox';
import type { SettingsProblem } from '../../runtime/component.js';
import { httpClientProperties, validateHttpClient } from '../helper/http-settings.js';
import { labelName } from '../helper/label-name.js';
import { sendingQueueSchema, validateSendingQueue } from '../helper/queue-settings.js';
import { retryOnFailureSchema, validateRetryOnFailure } from '../helper/retry-settings.js';
import { tenancyProperties, validateTenancy } from '../helper/tenancy.js';

const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** Loki's push path, added to an endpoint given without a path. */
export const PUSH_PATH = '/loki/api/v1/push';

export const DEFAULT_RESOURCE_LABELS = ['service.name', 'service.namespace', 'deployment.environment.name', 'k8s.namespace.name'];

const attributeLabels = (what: string, defaults: string[]) =>
  Type.Union(
    [
      Type.Array(Type.String({ minLength: 1 }), { description: `${what} names; each label is named after its attribute, by Loki's rule (service.name → service_name).` }),
      Type.Record(Type.String({ minLength: 1 }), Type.String(), { description: `${what} name → the label name to give it.` }),
    ],
    { default: defaults },
  );

export const lokiSchema = Type.Object(
  {
    ...httpClientProperties({ timeout: '30s', compression: 'none' }),
    encoding: Type.Enum(['proto', 'json'], { default: 'proto', description: 'proto: Loki\'s protobuf PushRequest, snappy-compressed; json: Loki\'s JSON push body.' }),
    format: Type.Enum(['raw', 'json', 'logfmt'], {
      default: 'raw',
      description: 'The line: raw, the body as text; json, the whole record as JSON; logfmt, the whole record as logfmt.',
    }),
    labels: Type.Object(
      {
        resource_attributes: attributeLabels('Resource attribute', DEFAULT_RESOURCE_LABELS),
        attributes: attributeLabels('Log record attribute', []),
        level: Type.Boolean({ default: false, description: 'Add a level label (trace, debug, info, warn, error, fatal or unknown) from the record\'s severity.' }),
      },
      { default: {}, additionalProperties: false, description: 'The stream labels. A record with none of them goes to {service_name="unknown_service"}, as Loki names it.' },
    ),
    structured_metadata: Type.Boolean({
      default: true,
      description: 'Send trace_id, span_id, severity, scope and every attribute not used as a label as structured metadata (Loki 3); false for Loki 2.',
    }),
    ...tenancyProperties,
    retry_on_failure: retryOnFailureSchema,
    sending_queue: sendingQueueSchema,
  },
  { additionalProperties: false },
);

export type LokiConfig = Static<typeof lokiSchema>;

export function validateLoki(config: LokiConfig): SettingsProblem[] {
  const problems = [...validateHttpClient(config), ...validateRetryOnFailure(config.retry_on_failure), ...validateSendingQueue(config.sending_queue), ...validateTenancy(config)];
  if (config.endpoint === undefined) problems.push({ path: [], message: `set endpoint: Loki's URL (http://loki:3100), or its push URL (http://loki:3100${PUSH_PATH})` });
  // Loki's push handler reads gzip and deflate bodies, not zstd (its protobuf is snappy already).
  if (config.compression === 'zstd') problems.push({ path: ['compression'], message: 'Loki does not read zstd request bodies: use none (the default; protobuf is snappy-compressed already) or gzip' });
  for (const setting of ['resource_attributes', 'attributes'] as const) {
    const labels = config.labels[setting];
    if (Array.isArray(labels)) continue;
    for (const [attribute, label] of Object.entries(labels)) {
      if (!LABEL_NAME.test(label)) problems.push({ path: ['labels', setting, attribute], message: `"${label}" is not a Loki label name (letters, digits and _, not starting with a digit): write ${labelName(label) || '_'}` });
    }
  }
  return problems;
}

/** The URL pushes go to: the endpoint as written, or with Loki's push path when it has none. */
export function pushUrl(endpoint: string): string {
  const url = new URL(endpoint);
  if (url.pathname !== '/' && url.pathname !== '') return endpoint;
  url.pathname = PUSH_PATH;
  return url.href;
}
