// OTLP/gRPC: the three Export methods on a grpc-js server, the messages taken as bytes and read by
// the same protobuf decoder as OTLP/HTTP (intake.ts). The key is checked on the call's metadata,
// before its message is read; the answers are OTLP's (partial success in the response,
// UNAVAILABLE with RetryInfo for "retry later").
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import type { Http2Session, Http2Server, Settings } from 'node:http2';
import type * as Grpc from '@grpc/grpc-js';
import type { Logger } from 'pino';
import type { Principal } from '../../auth/authenticator.js';
import { durationMs } from '../../config/duration.js';
import type { Signal } from '../../model/signal.js';
import { exportMethod } from '../../otlp/grpc-export.js';
import { exportResponse } from '../../otlp/response.js';
import { RecordBudget } from '../../otlp/result.js';
import { grpcCode, statusProtobuf } from '../../otlp/status.js';
import type { ComponentContext, ConsumeContext, Consumer } from '../../runtime/component.js';
import { parseEndpoint } from '../../runtime/listen.js';
import type { ByteBudget } from '../helper/budget.js';
import { deliver, ROW_COST, type IntakeOptions } from '../helper/intake.js';
import { decodeOtlpBody, otlpSkippedMessage } from '../helper/otlp-protocol.js';
import { clientInfo } from '../helper/metadata.js';
import type { GrpcConfig } from './config.js';

const MIB = 1024 * 1024;
/** HTTP/2 flow-control window of each call and of each connection (see widenWindows). */
export const FLOW_CONTROL_WINDOW = 4 * MIB;
const DEFAULT_MAX_STREAMS = 100;
const RETRY_AFTER_SECONDS = 5;
const DROP_LOG_INTERVAL_MS = 60_000;
const PRINCIPAL = 'otelgate.principal';
export const UNAUTHENTICATED_MESSAGE = 'API key invalid.';
const UNAVAILABLE_MESSAGE = 'otelgate cannot take this now; retry later.';

export interface GrpcReceiverOptions extends IntakeOptions {
  config: GrpcConfig;
  ctx: ComponentContext;
  next: Partial<Record<Signal, Consumer>>;
  /** Who sent a call, from its metadata as headers; undefined: UNAUTHENTICATED. */
  authenticate: (headers: IncomingHttpHeaders) => Principal | undefined;
  budget: ByteBudget;
  maxRecords: number;
}

export interface GrpcReceiver {
  start(): Promise<void>;
  shutdown(): Promise<void>;
}

/** The metadata a key can come in, as HTTP headers: the authenticator reads those. */
function keyHeaders(metadata: Grpc.Metadata): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  const [authorization] = metadata.get('authorization');
  if (typeof authorization === 'string') headers.authorization = authorization;
  const [serviceKey] = metadata.get('x-service-key');
  if (typeof serviceKey === 'string') headers['x-service-key'] = serviceKey;
  return headers;
}

/** Text metadata by name, for include_metadata (binary `-bin` entries are not kept). */
function textMetadata(metadata: Grpc.Metadata): Record<string, string[]> {
  const out: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const [name, values] of Object.entries(metadata.toJSON())) {
    const texts = values.filter((value): value is string => typeof value === 'string');
    if (texts.length > 0) out[name] = texts;
  }
  return out;
}

function serverOptions(config: GrpcConfig): Grpc.ServerOptions {
  const { server_parameters: parameters } = config.keepalive;
  const options: Grpc.ServerOptions = {
    'grpc.max_receive_message_length': (config.max_recv_msg_size_mib || 4) * MIB,
    'grpc.max_concurrent_streams': config.max_concurrent_streams || DEFAULT_MAX_STREAMS,
    'grpc.keepalive_time_ms': durationMs(parameters.time),
    'grpc.keepalive_timeout_ms': durationMs(parameters.timeout),
  };
  if (parameters.max_connection_idle !== undefined) options['grpc.max_connection_idle_ms'] = durationMs(parameters.max_connection_idle);
  if (parameters.max_connection_age !== undefined) options['grpc.max_connection_age_ms'] = durationMs(parameters.max_connection_age);
  if (parameters.max_connection_age_grace !== undefined) options['grpc.max_connection_age_grace_ms'] = durationMs(parameters.max_connection_age_grace);
  return options;
}

/** The parts of a grpc-js 1.14 Server that hold its HTTP/2 settings and servers; not its public API. */
interface ServerInternals {
  commonServerOptions?: { settings?: Settings };
  http2Servers?: Map<Http2Server, unknown>;
}

/**
 * grpc-js serves with HTTP/2's initial windows of 64 KiB, per call and per connection, and has no
 * setting for them (grpc/grpc-node#3058 adds one): a client sending 250 KB messages then waits for
 * a WINDOW_UPDATE every 64 KiB. With 4 MiB windows (a whole message of the default size limit in
 * flight at once), OTLP logs over gRPC went from 66 % to 70-81 % of the same load over HTTP
 * (bench, `nop grpc`, medians of several runs). The windows are set on the server's internals:
 * before bindAsync for the SETTINGS it advertises, after it for each connection's window. Should a
 * grpc-js release move them, gRPC works as before with the small windows (the stream-bound test
 * checks the advertised window).
 */
function widenWindows(server: Grpc.Server, phase: 'before bind' | 'after bind'): void {
  const internals = server as unknown as ServerInternals;
  if (phase === 'before bind') {
    if (internals.commonServerOptions !== undefined) internals.commonServerOptions.settings = { ...internals.commonServerOptions.settings, initialWindowSize: FLOW_CONTROL_WINDOW };
    return;
  }
  for (const http2Server of internals.http2Servers?.keys() ?? []) {
    http2Server.on('session', (session: Http2Session) => session.setLocalWindowSize(FLOW_CONTROL_WINDOW));
  }
}

/**
 * grpc-js has no bound on connections; the HTTP/2 servers it listens with are Node's, whose
 * maxConnections closes a connection beyond it as it opens. Dropped connections are logged at most
 * once a minute.
 */
function capConnections(server: Grpc.Server, max: number, logger: Logger): void {
  let loggedAt = Number.NEGATIVE_INFINITY;
  for (const http2Server of (server as unknown as ServerInternals).http2Servers?.keys() ?? []) {
    http2Server.maxConnections = max;
    http2Server.on('drop', () => {
      if (Date.now() - loggedAt < DROP_LOG_INTERVAL_MS) return;
      loggedAt = Date.now();
      logger.warn({ max_connections: max }, 'A gRPC connection beyond max_connections was closed as it opened');
    });
  }
}

export function grpcReceiver(options: GrpcReceiverOptions): GrpcReceiver {
  const { config, ctx, next, budget } = options;
  const inflight = new Set<Promise<void>>();
  let server: Grpc.Server | undefined;

  return {
    async start() {
      // Loaded only for a config that serves gRPC: grpc-js is a large module.
      const grpc = await import('@grpc/grpc-js');
      const retryLater = (): Partial<Grpc.StatusObject> => {
        const trailers = new grpc.Metadata();
        trailers.set('grpc-status-details-bin', statusProtobuf({ code: grpcCode('UNAVAILABLE'), message: UNAVAILABLE_MESSAGE, retryAfterSeconds: RETRY_AFTER_SECONDS }));
        return { code: grpc.status.UNAVAILABLE, details: UNAVAILABLE_MESSAGE, metadata: trailers };
      };
      // The key is checked as the call's metadata arrives: the message of a caller we do not know
      // is never decompressed or decoded.
      const authenticating: Grpc.ServerInterceptor = (_method, call) =>
        new grpc.ServerInterceptingCall(call, {
          start(begin) {
            begin({
              onReceiveMetadata(metadata, pass) {
                const principal = options.authenticate(keyHeaders(metadata));
                if (principal === undefined) {
                  call.sendStatus({ code: grpc.status.UNAUTHENTICATED, details: UNAUTHENTICATED_MESSAGE });
                  return;
                }
                metadata.setOpaque(PRINCIPAL, principal);
                pass(metadata);
              },
            });
          },
        });
      server = new grpc.Server({ ...serverOptions(config), interceptors: [authenticating] });
      widenWindows(server, 'before bind');

      for (const signal of Object.keys(next) as Signal[]) {
        const consumer = next[signal] as Consumer;
        const keepsSource = (): boolean => consumer.sendsProtobuf === true;
        const handle = async (call: Grpc.ServerUnaryCall<Buffer, Buffer>): Promise<Partial<Grpc.StatusObject> | Buffer> => {
          const principal = call.metadata.getOpaque(PRINCIPAL) as Principal;
          const body = call.request;
          if (!budget.take(body.length)) return retryLater();
          const records = new RecordBudget(options.maxRecords, budget, ROW_COST);
          const gone = new AbortController();
          const onCancel = (): void => gone.abort();
          call.once('cancelled', onCancel);
          try {
            const client = clientInfo(principal, config.include_metadata ? textMetadata(call.metadata) : undefined);
            const consumeCtx: ConsumeContext = { signal: gone.signal, client };
            const arrival = BigInt(Date.now()) * 1_000_000n;
            const decode = () => decodeOtlpBody(signal, body, 'protobuf', true, { arrival, records, keepsSource });
            const outcome = await deliver(options, { decode, signal, consumers: next, ctx: consumeCtx, principal, arrival });
            if (outcome.kind === 'unavailable') options.logger.warn({ err: outcome.reason, signal, key_id: principal.keyId }, 'Pipeline refused a batch; answered UNAVAILABLE');
            if (outcome.kind !== 'done') return retryLater();
            const partial = outcome.rejected === 0 ? undefined : { rejected: outcome.rejected, errorMessage: otlpSkippedMessage(signal, { ...outcome, tooLarge: undefined }) };
            return exportResponse(signal, 'protobuf', partial).body as Buffer;
          } finally {
            call.off('cancelled', onCancel);
            records.release();
            budget.give(body.length);
          }
        };
        server.addService({ Export: exportMethod(signal) }, {
          Export: (call: Grpc.ServerUnaryCall<Buffer, Buffer>, callback: Grpc.sendUnaryData<Buffer>) => {
            const work = handle(call).then(
              (answer) => (Buffer.isBuffer(answer) ? callback(null, answer) : callback(answer)),
              (error: unknown) => {
                ctx.logger.error({ err: error }, 'Unexpected error while handling a gRPC call; answered UNAVAILABLE');
                callback(retryLater());
              },
            );
            inflight.add(work);
            void work.finally(() => inflight.delete(work));
          },
        });
      }

      const { host, port } = parseEndpoint(config.endpoint) as { host: string | undefined; port: number };
      const credentials =
        config.tls === undefined
          ? grpc.ServerCredentials.createInsecure()
          : grpc.ServerCredentials.createSsl(null, [{ cert_chain: readFileSync(config.tls.cert_file), private_key: readFileSync(config.tls.key_file) }], false);
      const address = host === undefined ? `0.0.0.0:${port}` : `${host.includes(':') ? `[${host}]` : host}:${port}`;
      const listening = server;
      const bound = await new Promise<number>((resolve, reject) => listening.bindAsync(address, credentials, (error, chosen) => (error === null ? resolve(chosen) : reject(error))));
      widenWindows(listening, 'after bind');
      capConnections(listening, config.max_connections, ctx.logger);
      const shownHost = host === undefined ? '0.0.0.0' : host.includes(':') ? `[${host}]` : host;
      ctx.logger.info({ endpoint: `${shownHost}:${bound}`, tls: config.tls !== undefined }, 'Starting GRPC server');
    },
    async shutdown() {
      const running = server;
      if (running === undefined) return;
      // Stop taking calls, let those under way reach the pipelines, then cut the connections that
      // remain (a client that opened a call and never sent its message would hold shutdown forever).
      const drained = new Promise<void>((resolve) => running.tryShutdown(() => resolve()));
      await Promise.allSettled([...inflight]);
      running.forceShutdown();
      await drained;
    },
  };
}
