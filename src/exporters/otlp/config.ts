// Settings of the otlp exporter: the Collector's otlp exporter (OTLP over gRPC: configgrpc's client
// settings, timeout, retry_on_failure, sending_queue), and tenancy as otlp_http has it.
import Type, { type Static } from 'typebox';
import type { SettingsProblem } from '../../runtime/component.js';
import { headerPairs, headersSchema } from '../helper/http-settings.js';
import { sendingQueueSchema, validateSendingQueue } from '../helper/queue-settings.js';
import { retryOnFailureSchema, validateRetryOnFailure } from '../helper/retry-settings.js';
import { tenancyProperties, validateTenancy } from '../helper/tenancy.js';
import { tlsClientSchema, validateTlsClient } from '../helper/tls-settings.js';

export const otlpGrpcSchema = Type.Object(
  {
    endpoint: Type.String({
      minLength: 1,
      description: 'host:port of the gRPC backend (Tempo, a Collector or an otelgate on 4317). As in the Collector, http:// before it turns TLS off and https:// on; otherwise tls.insecure decides.',
    }),
    tls: tlsClientSchema,
    headers: headersSchema,
    compression: Type.Enum(['gzip', 'none'], { default: 'gzip', description: 'Compression of each message: gzip (the Collector\'s default) or none.' }),
    timeout: Type.String({ format: 'duration', default: '5s', description: 'Deadline of one attempt; "0" for none.' }),
    balancer_name: Type.Enum(['round_robin', 'pick_first'], { default: 'round_robin', description: 'How calls spread over the addresses the endpoint\'s name resolves to.' }),
    authority: Type.Optional(Type.String({ minLength: 1, description: 'The :authority of every call, instead of the endpoint.' })),
    keepalive: Type.Optional(
      Type.Object(
        {
          time: Type.String({ format: 'duration', default: '0s', description: 'Ping the backend after this long without activity; 0: never.' }),
          timeout: Type.String({ format: 'duration', default: '20s', description: 'Close the connection when a ping is not answered within this.' }),
          permit_without_stream: Type.Boolean({ default: false, description: 'Ping also while no call is under way.' }),
        },
        { additionalProperties: false },
      ),
    ),
    wait_for_ready: Type.Boolean({ default: false, description: 'Accepted for the Collector\'s configs; calls fail fast on a backend that is down and are retried by retry_on_failure.' }),
    read_buffer_size: Type.Integer({ minimum: 0, default: 0, description: 'Accepted for the Collector\'s configs; no effect.' }),
    write_buffer_size: Type.Integer({ minimum: 0, default: 524288, description: 'Accepted for the Collector\'s configs; no effect.' }),
    ...tenancyProperties,
    retry_on_failure: retryOnFailureSchema,
    sending_queue: sendingQueueSchema,
  },
  { additionalProperties: false },
);

export type OtlpGrpcConfig = Static<typeof otlpGrpcSchema>;

/** gRPC metadata keys: lower-case letters, digits, `-`, `_` and `.` (grpc-js lower-cases them); `-bin` keys carry bytes, which a config cannot write. */
const METADATA_KEY = /^[0-9a-z_.-]+$/;

/** The endpoint as the Collector reads it: `http://` means plaintext, `https://` TLS, neither leaves it to tls.insecure. */
export function parseGrpcEndpoint(endpoint: string): { target: string; tls: boolean | undefined } | undefined {
  const scheme = /^(https?):\/\//.exec(endpoint);
  const target = scheme === null ? endpoint : endpoint.slice(scheme[0].length).replace(/\/$/, '');
  if (!/^(?:\[[^\]]+\]|[^:/[\]\s]+):\d{1,5}$/.test(target)) return undefined;
  return { target, tls: scheme === null ? undefined : scheme[1] === 'https' };
}

export function validateOtlpGrpc(config: OtlpGrpcConfig): SettingsProblem[] {
  const problems = [...validateRetryOnFailure(config.retry_on_failure), ...validateSendingQueue(config.sending_queue), ...validateTenancy(config), ...validateTlsClient(config.tls)];
  if (parseGrpcEndpoint(config.endpoint) === undefined) {
    problems.push({ path: ['endpoint'], message: `"${config.endpoint}" is not host:port; write it as tempo:4317 (or http://tempo:4317 for plaintext, https://tempo:4317 for TLS)` });
  }
  if (config.tls.min_version !== '1.2' || config.tls.max_version !== undefined) {
    problems.push({ path: ['tls', config.tls.max_version === undefined ? 'min_version' : 'max_version'], message: 'TLS versions cannot be chosen for gRPC in otelgate (grpc-js takes Node\'s defaults: 1.2 and up); remove it' });
  }
  const seen = new Set<string>();
  headerPairs(config.headers).forEach(([name], index) => {
    const key = name.toLowerCase();
    const path = Array.isArray(config.headers) ? ['headers', index] : ['headers', name];
    if (!METADATA_KEY.test(key) || key.endsWith('-bin')) problems.push({ path, message: `"${name}" is not a gRPC metadata key: letters, digits, "-", "_" and "." only, not ending in -bin` });
    if (seen.has(key)) problems.push({ path, message: `the header "${name}" is given twice (metadata keys are case-insensitive)` });
    seen.add(key);
  });
  return problems;
}
