// Settings of the ingest receiver, named after the Collector's OTLP/HTTP receiver (confighttp) where it has them.
import Type, { type Static } from 'typebox';

export const ingestSchema = Type.Object(
  {
    endpoint: Type.String({ default: 'localhost:4318', description: 'host:port to listen on; localhost by default, as the Collector. ":4318" or "0.0.0.0:4318" listens on every interface.' }),
    auth: Type.Object(
      { authenticator: Type.String({ minLength: 1, description: 'The id of the authenticator extension (apikeyauth) that resolves each request to a project.' }) },
      { additionalProperties: false },
    ),
    max_request_body_size: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: 'Cap on a decompressed request body, in bytes; over it the body is discarded whole. Default: SERVICE_INGEST_MAX_DECOMPRESSED_BYTES, else 32 MiB.',
      }),
    ),
    max_records_per_request: Type.Integer({
      minimum: 1,
      default: 500000,
      description:
        'Records (log records, spans, data points) one request may carry. It bounds the memory a small body can grow into when decoded; a body with more is discarded whole, like one over the size cap.',
    }),
    compression_algorithms: Type.Array(Type.Enum(['gzip', 'deflate', 'zstd']), {
      default: ['gzip', 'deflate'],
      description: 'Content-Encodings accepted; any other is answered 415 naming these.',
    }),
    protobuf_enabled: Type.Optional(
      Type.Boolean({ description: 'Accept OTLP protobuf bodies; when false they are answered 415. Default: SERVICE_OTLP_PROTOBUF, else true.' }),
    ),
    cors: Type.Optional(
      Type.Object(
        {
          allowed_origins: Type.Array(Type.String(), { default: [], description: 'Origins allowed to send from a browser, e.g. https://app.example.com or https://*.example.com; "*" for any. Empty: CORS off.' }),
          allowed_headers: Type.Array(Type.String(), {
            default: [],
            description: 'Request headers allowed besides Accept, Content-Type, Content-Encoding, X-Requested-With, Authorization and X-Service-Key; "*" for any.',
          }),
          max_age: Type.Integer({ minimum: 0, default: 0, description: 'Seconds a browser may cache a preflight answer; 0 sends no Access-Control-Max-Age.' }),
        },
        { additionalProperties: false },
      ),
    ),
    tls: Type.Optional(
      Type.Object(
        {
          cert_file: Type.String({ minLength: 1, description: 'PEM certificate (chain) to serve HTTPS with.' }),
          key_file: Type.String({ minLength: 1, description: 'PEM private key of the certificate.' }),
        },
        { additionalProperties: false },
      ),
    ),
    read_api: Type.Object(
      {
        enabled: Type.Boolean({ default: true, description: 'Serve GET /api/v1/query/{logs,spans,metrics}: the stored rows of the key\'s project (docs/read-api.md).' }),
        store: Type.Optional(Type.String({ minLength: 1, description: 'The id of the store exporter to read. Default: the only store exporter of the config.' })),
      },
      { additionalProperties: false, default: {} },
    ),
    ui: Type.Object(
      {
        enabled: Type.Boolean({
          default: true,
          description:
            'Serve the viewer, web pages to browse the stored logs, traces, metrics and errors of a read key\'s project, under /ui/ on this listener (docs/viewer.md). Only where read_api is enabled: the viewer reads through it.',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    standard_paths: Type.Boolean({ default: true, description: 'Also serve /v1/logs, /v1/traces and /v1/metrics, where OTel SDKs send by default.' }),
    max_connections: Type.Integer({
      minimum: 1,
      default: 2048,
      description: 'Open connections served at once; a request on a connection beyond this is answered 503 with Retry-After and the connection closed.',
    }),
    max_in_flight_bytes: Type.Integer({
      minimum: 1,
      default: 268435456,
      description: 'Decompressed body bytes that requests under way may hold at once (default 256 MiB); a request that would go beyond is answered 503 with Retry-After.',
    }),
    include_metadata: Type.Boolean({
      default: false,
      description:
        'Keep the request headers with each batch (the Collector\'s include_metadata), for exporters that route or template headers by them. The headers that carry the API key, Cookie and Proxy-Authorization are never kept.',
    }),
    read_header_timeout: Type.String({ format: 'duration', default: '10s', description: 'Time a client has to send the request headers.' }),
    read_timeout: Type.String({ format: 'duration', default: '60s', description: 'Time a client has to send a whole request, body included.' }),
    idle_timeout: Type.String({ format: 'duration', default: '60s', description: 'How long an idle keep-alive connection stays open.' }),
  },
  { additionalProperties: false },
);

export type IngestConfig = Static<typeof ingestSchema>;

export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

/** The cap in force: the setting, else the environment variable of the interface contract, else 32 MiB. */
export function maxBodyBytes(config: IngestConfig, env: NodeJS.ProcessEnv = process.env): number {
  if (config.max_request_body_size !== undefined) return config.max_request_body_size;
  const fromEnv = Number(env['SERVICE_INGEST_MAX_DECOMPRESSED_BYTES']);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : DEFAULT_MAX_BODY_BYTES;
}

export function protobufEnabled(config: IngestConfig, env: NodeJS.ProcessEnv = process.env): boolean {
  if (config.protobuf_enabled !== undefined) return config.protobuf_enabled;
  return env['SERVICE_OTLP_PROTOBUF']?.trim().toLowerCase() !== 'false';
}
