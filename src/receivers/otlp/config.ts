// Settings of the otlp receiver: the Collector's (protocols.grpc is configgrpc's server, protocols.http
// confighttp's), with their names and defaults, and the few otelgate adds (project, and the bounds
// on what requests under way may hold), which the README lists apart.
import Type, { type Static } from 'typebox';

const auth = Type.Optional(
  Type.Object(
    {
      authenticator: Type.String({ minLength: 1, description: 'The id of the authenticator extension (apikeyauth) that resolves each request\'s key to a project. Without auth, every request goes to `project`.' }),
    },
    { additionalProperties: false },
  ),
);

const serverTls = Type.Optional(
  Type.Object(
    {
      cert_file: Type.String({ minLength: 1, description: 'PEM certificate (chain) to serve TLS with.' }),
      key_file: Type.String({ minLength: 1, description: 'PEM private key of the certificate.' }),
    },
    { additionalProperties: false },
  ),
);

const includeMetadata = Type.Boolean({
  default: false,
  description: 'Keep the request\'s headers (gRPC: its metadata) with each batch, for exporters that route or template headers by them. Those that carry the API key, Cookie and Proxy-Authorization are never kept.',
});

const duration = (fallback: string, description: string) => Type.String({ format: 'duration', default: fallback, description });

export const grpcSchema = Type.Object(
  {
    endpoint: Type.String({ default: 'localhost:4317', description: 'host:port to listen on; localhost by default, as the Collector. ":4317" listens on every interface.' }),
    transport: Type.Enum(['tcp'], { default: 'tcp', description: 'Only tcp.' }),
    tls: serverTls,
    max_recv_msg_size_mib: Type.Integer({ minimum: 0, default: 0, description: 'Largest message taken, in MiB, after decompression; larger ones are answered RESOURCE_EXHAUSTED. 0: gRPC\'s default, 4 MiB.' }),
    max_concurrent_streams: Type.Integer({
      minimum: 0,
      default: 0,
      description: 'Calls one connection may have open at once (HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS). 0: 100. (The Collector\'s 0 is unlimited; otelgate bounds it.)',
    }),
    max_connections: Type.Integer({
      minimum: 1,
      default: 2048,
      description: 'otelgate: open connections served at once; one beyond is closed as it opens, and its client connects again later. (The Collector has no such bound.)',
    }),
    read_buffer_size: Type.Integer({ minimum: 0, default: 524288, description: 'Accepted for the Collector\'s configs; no effect in otelgate (Node sizes its socket buffers itself).' }),
    write_buffer_size: Type.Integer({ minimum: 0, default: 0, description: 'Accepted for the Collector\'s configs; no effect in otelgate.' }),
    keepalive: Type.Object(
      {
        server_parameters: Type.Object(
          {
            max_connection_idle: Type.Optional(Type.String({ format: 'duration', description: 'Close a connection without calls for this long. Default: never.' })),
            max_connection_age: Type.Optional(Type.String({ format: 'duration', description: 'Close a connection this old (after its calls, within max_connection_age_grace). Default: never.' })),
            max_connection_age_grace: Type.Optional(Type.String({ format: 'duration', description: 'Time the calls of a connection closed for its age have to finish. Default: forever.' })),
            time: duration('2h', 'Ping a client after this long without activity, to see that it is still there.'),
            timeout: duration('20s', 'Close the connection when a ping is not answered within this.'),
          },
          { additionalProperties: false, default: {} },
        ),
        enforcement_policy: Type.Object(
          {
            min_time: duration('5m', 'Accepted for the Collector\'s configs; grpc-js does not police how often clients ping.'),
            permit_without_stream: Type.Boolean({ default: false, description: 'Accepted for the Collector\'s configs; grpc-js does not police client pings.' }),
          },
          { additionalProperties: false, default: {} },
        ),
      },
      { additionalProperties: false, default: {} },
    ),
    include_metadata: includeMetadata,
    auth,
  },
  { additionalProperties: false },
);

/** The Content-Encodings of confighttp that otelgate reads. */
export const HTTP_ENCODINGS = ['gzip', 'zstd', 'zlib', 'deflate'] as const;

export const httpSchema = Type.Object(
  {
    endpoint: Type.String({ default: 'localhost:4318', description: 'host:port to listen on; localhost by default, as the Collector. ":4318" listens on every interface.' }),
    tls: serverTls,
    cors: Type.Optional(
      Type.Object(
        {
          allowed_origins: Type.Array(Type.String(), { default: [], description: 'Origins allowed to send from a browser, e.g. https://*.example.com; "*" for any. Empty: CORS off.' }),
          allowed_headers: Type.Array(Type.String(), { default: [], description: 'Request headers allowed besides Accept, Content-Type, Content-Encoding, X-Requested-With and Authorization; "*" for any.' }),
          max_age: Type.Integer({ minimum: 0, default: 0, description: 'Seconds a browser may cache a preflight answer; 0 sends no Access-Control-Max-Age.' }),
        },
        { additionalProperties: false },
      ),
    ),
    include_metadata: includeMetadata,
    max_request_body_size: Type.Integer({ minimum: 1, default: 20971520, description: 'Cap on a request body after decompression, in bytes (default 20 MiB, as confighttp); a larger body is discarded whole and counted as rejected.' }),
    compression_algorithms: Type.Array(Type.Enum(HTTP_ENCODINGS), {
      default: [...HTTP_ENCODINGS],
      description: 'Content-Encodings accepted; any other is answered 415. confighttp also reads snappy and lz4, which otelgate does not.',
    }),
    traces_url_path: Type.String({ default: '/v1/traces', description: 'Path traces are posted to.' }),
    metrics_url_path: Type.String({ default: '/v1/metrics', description: 'Path metrics are posted to.' }),
    logs_url_path: Type.String({ default: '/v1/logs', description: 'Path logs are posted to.' }),
    max_connections: Type.Integer({ minimum: 1, default: 2048, description: 'otelgate: open connections served at once; a request on a connection beyond is answered 503 with Retry-After.' }),
    read_header_timeout: duration('10s', 'Time a client has to send the request headers. (The Collector\'s otlp receiver has none; otelgate bounds it.)'),
    read_timeout: duration('60s', 'Time a client has to send a whole request, body included.'),
    idle_timeout: duration('60s', 'How long an idle keep-alive connection stays open.'),
    write_timeout: Type.Optional(Type.String({ format: 'duration', description: 'Accepted for the Collector\'s configs; no effect (an answer is a few bytes).' })),
    auth,
  },
  { additionalProperties: false },
);

export const otlpSchema = Type.Object(
  {
    protocols: Type.Object(
      {
        grpc: Type.Optional(grpcSchema),
        http: Type.Optional(httpSchema),
      },
      { additionalProperties: false, default: {} },
    ),
    project: Type.String({ minLength: 1, default: 'default', description: 'otelgate: the project of every request when a protocol has no auth.authenticator.' }),
    max_records_per_request: Type.Integer({
      minimum: 1,
      default: 500000,
      description: 'otelgate: records (log records, spans, data points) one request may carry; a request with more is discarded whole and counted as rejected.',
    }),
    max_in_flight_bytes: Type.Integer({
      minimum: 1,
      default: 268435456,
      description: 'otelgate: bytes of bodies and decoded rows that requests under way (both protocols) may hold at once (default 256 MiB); a request that would go beyond is answered "retry later".',
    }),
  },
  { additionalProperties: false },
);

export type OtlpConfig = Static<typeof otlpSchema>;
export type GrpcConfig = Static<typeof grpcSchema>;
export type HttpConfig = Static<typeof httpSchema>;

/** The path a *_url_path names, as the Collector cleans it: a leading "/" added when missing. */
export function urlPath(path: string): string {
  return path.startsWith('/') ? path : `/${path}`;
}
