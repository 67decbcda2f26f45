// The otlp receiver: the Collector's, OTLP over gRPC (protocols.grpc) and HTTP (protocols.http).
// The HTTP side is the ingest receiver's handler with the Collector's paths and OTLP's error
// bodies; both sides decode with the same hand-written readers into the same rows.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { isAuthenticator, type Authenticator, type Principal } from '../../auth/authenticator.js';
import type { Signal } from '../../model/signal.js';
import { grpcCodeOf, statusBody, type Status } from '../../otlp/status.js';
import type { Component, ComponentContext, Consumer, ReceiverFactory, SettingsProblem } from '../../runtime/component.js';
import { parseEndpoint } from '../../runtime/listen.js';
import { ByteBudget } from '../helper/budget.js';
import { cors } from '../helper/cors.js';
import { httpHandler } from '../helper/http-handler.js';
import { httpServer } from '../helper/http-server.js';
import { intakeCounts, ROW_COST } from '../helper/intake.js';
import { namedEncoding, otlpProtocol } from '../helper/otlp-protocol.js';
import { send, type Answers } from '../helper/send.js';
import { grpcReceiver, UNAUTHENTICATED_MESSAGE } from './grpc.js';
import { otlpSchema, urlPath, type HttpConfig, type OtlpConfig } from './config.js';

const METER = 'otelgate/receiver/otlp';
const UNAVAILABLE_MESSAGE = 'otelgate cannot take this now; retry later.';

/** OTLP/HTTP's error answer: a Status in the request's encoding (JSON when it names none), as the Collector's errorHandler. */
function sendStatus(req: IncomingMessage, res: ServerResponse, httpStatus: number, status: Status, headers: Record<string, string> = {}): void {
  const { contentType, body } = statusBody(status, namedEncoding(req) ?? 'json');
  send(res, httpStatus, contentType, body, headers);
}

const otlpAnswers: Answers = {
  refuse: (req, res, httpStatus, message, headers) => sendStatus(req, res, httpStatus, { code: grpcCodeOf(httpStatus), message }, headers),
  unauthorized: (req, res) => sendStatus(req, res, 401, { code: grpcCodeOf(401), message: UNAUTHENTICATED_MESSAGE }, { Connection: 'close' }),
  unavailable: (req, res, headers = {}) => sendStatus(req, res, 503, { code: grpcCodeOf(503), message: UNAVAILABLE_MESSAGE, retryAfterSeconds: 5 }, { 'Retry-After': '5', ...headers }),
};

function pathsOf(http: HttpConfig): [string, Signal][] {
  return [
    [urlPath(http.traces_url_path), 'traces'],
    [urlPath(http.metrics_url_path), 'metrics'],
    [urlPath(http.logs_url_path), 'logs'],
  ];
}

/** Who sent a request: the key's project through the authenticator, or `project` for a protocol without one. */
function authentication(ctx: ComponentContext, authenticatorId: string | undefined, project: string): { start(): void; authenticate(headers: IncomingHttpHeaders): Principal | undefined } {
  if (authenticatorId === undefined) {
    const anonymous: Principal = { project, keyId: '' };
    return { start: () => {}, authenticate: () => anonymous };
  }
  let authenticator: Authenticator | undefined;
  return {
    start() {
      const extension = ctx.host.extension(authenticatorId);
      if (!isAuthenticator(extension)) throw new Error(`auth.authenticator "${authenticatorId}" is not a started authenticator extension; add it to extensions and service.extensions`);
      authenticator = extension;
    },
    authenticate: (headers) => (authenticator as Authenticator).authenticate(headers, 'ingest'),
  };
}

export const otlpReceiverFactory: ReceiverFactory<typeof otlpSchema> = {
  kind: 'receiver',
  type: 'otlp',
  description: 'OTLP over gRPC and HTTP (protobuf and JSON), as the Collector\'s otlp receiver; with an authenticator, each key\'s project, else one project.',
  stability: { logs: 'alpha', traces: 'alpha', metrics: 'alpha' },
  schema: otlpSchema,
  validate(config: OtlpConfig) {
    const problems: SettingsProblem[] = [];
    const { grpc, http } = config.protocols;
    if (grpc === undefined && http === undefined) {
      problems.push({ path: ['protocols'], message: 'must specify at least one protocol when using the OTLP receiver: add grpc: and/or http: under protocols' });
    }
    for (const [name, protocol] of [['grpc', grpc], ['http', http]] as const) {
      if (protocol !== undefined && parseEndpoint(protocol.endpoint) === undefined) {
        problems.push({ path: ['protocols', name, 'endpoint'], message: `"${protocol.endpoint}" is not host:port, e.g. localhost:${name === 'grpc' ? 4317 : 4318} or :${name === 'grpc' ? 4317 : 4318}` });
      }
    }
    if (http !== undefined) {
      const paths = [http.traces_url_path, http.metrics_url_path, http.logs_url_path].map(urlPath);
      if (new Set(paths).size < paths.length) problems.push({ path: ['protocols', 'http'], message: 'traces_url_path, metrics_url_path and logs_url_path must be three different paths' });
    }
    // One largest request of each protocol (its body and its decoded rows) must fit the budget, or it would be refused for ever.
    const rows = config.max_records_per_request * ROW_COST;
    const largest: [string, number][] = [];
    if (http !== undefined) largest.push(['protocols.http.max_request_body_size', http.max_request_body_size]);
    if (grpc !== undefined) largest.push(['protocols.grpc.max_recv_msg_size_mib', (grpc.max_recv_msg_size_mib || 4) * 1024 * 1024]);
    for (const [setting, bytes] of largest) {
      if (config.max_in_flight_bytes < bytes + rows) {
        problems.push({
          path: ['max_in_flight_bytes'],
          message: `must hold at least one largest request: ${setting} (${bytes} bytes) plus max_records_per_request × ${ROW_COST} bytes of decoded rows = ${bytes + rows}`,
        });
      }
    }
    return problems;
  },
  create(config, ctx, next: Partial<Record<Signal, Consumer>>) {
    const { grpc, http } = config.protocols;
    const budget = new ByteBudget(config.max_in_flight_bytes);
    const counts = ctx.telemetry.enabled('basic') ? intakeCounts(ctx.telemetry.meter(METER), { receiver: ctx.id }) : undefined;
    const parts: Component[] = [];
    const auths: { start(): void }[] = [];
    if (http !== undefined) {
      const auth = authentication(ctx, http.auth?.authenticator, config.project);
      auths.push(auth);
      const { host, port } = parseEndpoint(http.endpoint) as { host: string | undefined; port: number };
      const paths = pathsOf(http);
      const handle = httpHandler({
        protocols: [otlpProtocol(paths, true)],
        next,
        // The Collector's OTLP/HTTP takes the key from the headers only.
        authenticate: (req) => auth.authenticate(req.headers),
        answers: otlpAnswers,
        maxBodyBytes: http.max_request_body_size,
        maxRecords: config.max_records_per_request,
        budget,
        cors: cors(http.cors),
        gets: [],
        counts: counts && { ...counts, attributes: { ...counts.attributes, transport: 'http' } },
        encodings: [...new Set(http.compression_algorithms)],
        includeMetadata: http.include_metadata,
        logger: ctx.logger,
      });
      parts.push(
        httpServer({
          settings: { ...http, host, port },
          ctx,
          meterName: METER,
          handle,
          routes: new Set(paths.map(([path]) => path)),
          answers: otlpAnswers,
        }),
      );
    }
    if (grpc !== undefined) {
      const auth = authentication(ctx, grpc.auth?.authenticator, config.project);
      auths.push(auth);
      parts.push(
        grpcReceiver({
          config: grpc,
          ctx,
          next,
          authenticate: auth.authenticate,
          budget,
          maxRecords: config.max_records_per_request,
          counts: counts && { ...counts, attributes: { ...counts.attributes, transport: 'grpc' } },
          logger: ctx.logger,
        }),
      );
    }
    return {
      async start() {
        for (const auth of auths) auth.start();
        for (const part of parts) await part.start();
      },
      async shutdown() {
        await Promise.all(parts.map((part) => part.shutdown()));
      },
    };
  },
};
