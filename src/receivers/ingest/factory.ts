// The ingest receiver: the HTTP endpoints of the interface contract on one listener.
import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { Socket } from 'node:net';
import { isAuthenticator, type Authenticator } from '../../auth/authenticator.js';
import { durationMs } from '../../config/duration.js';
import { isReader, type Reader } from '../../query/reader.js';
import type { Host, ReceiverFactory } from '../../runtime/component.js';
import { createServer } from '../../runtime/http.js';
import { listen } from '../../runtime/listen.js';
import type { ContentEncoding } from './body.js';
import { ByteBudget } from './budget.js';
import { cors } from './cors.js';
import { signalCounters } from '../../telemetry/counters.js';
import { ingestSchema, maxBodyBytes, parseEndpoint, protobufEnabled } from './config.js';
import { ingestHandler, ROW_COST } from './handler.js';
import { sendUnavailable } from './respond.js';
import { readHandler } from './read.js';
import { routeTable } from './routes.js';

/** The store the read API reads: the one named by read_api.store, else the config's only store. */
function findReader(host: Host, id: string | undefined): Reader | undefined {
  const exporters = host.exporters();
  if (id !== undefined) {
    const named = exporters.get(id);
    if (named === undefined) throw new Error(`read_api.store "${id}" is not an exporter of this config; name a store exporter, or leave read_api.store out`);
    if (!isReader(named)) throw new Error(`read_api.store "${id}" is not a store exporter: the read API reads only the embedded store`);
    return named;
  }
  const readers = [...exporters].filter(([, exporter]) => isReader(exporter));
  if (readers.length > 1) {
    throw new Error(`the config has several store exporters (${readers.map(([name]) => name).join(', ')}); name the one the read API reads with read_api.store, or set read_api.enabled: false`);
  }
  return readers[0]?.[1] as Reader | undefined;
}

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);

export const ingestReceiverFactory: ReceiverFactory<typeof ingestSchema> = {
  kind: 'receiver',
  type: 'ingest',
  description: 'The ingest interface over HTTP: OTLP/HTTP logs, traces and metrics (JSON and protobuf) and simple JSON logs, authenticated by API key.',
  stability: { logs: 'alpha', traces: 'alpha', metrics: 'alpha' },
  schema: ingestSchema,
  validate(config) {
    const problems = [];
    if (parseEndpoint(config.endpoint) === undefined) problems.push({ path: ['endpoint'], message: `"${config.endpoint}" is not host:port, e.g. localhost:4318 or :4318` });
    // One largest request (its body and its decoded rows) must fit the budget, or it would be refused with 503 forever.
    const largest = maxBodyBytes(config) + config.max_records_per_request * ROW_COST;
    if (config.max_in_flight_bytes < largest) {
      problems.push({
        path: ['max_in_flight_bytes'],
        message: `must hold at least one largest request: the body cap (${maxBodyBytes(config)}) plus max_records_per_request × ${ROW_COST} bytes of decoded rows = ${largest}`,
      });
    }
    return problems;
  },
  create(config, ctx, next) {
    const { host, port } = parseEndpoint(config.endpoint) as { host: string | undefined; port: number };
    let authenticator: Authenticator | undefined;
    let reader: Reader | undefined;
    const inflight = new Set<Promise<void>>();
    const meter = ctx.telemetry.meter('otelgate/receiver/ingest');
    const attributes = { receiver: ctx.id, transport: 'http' };
    const counts = ctx.telemetry.enabled('basic')
      ? {
          accepted: signalCounters(meter, 'otelcol_receiver_accepted', 'Records handed to the pipelines'),
          refused: signalCounters(meter, 'otelcol_receiver_refused', 'Records the pipelines refused (answered 503)'),
          skipped: meter.createCounter('otelgate_receiver_skipped_records', { description: 'Records that could not be read or mapped, skipped and counted in the answer' }),
          attributes,
        }
      : undefined;
    const duration = ctx.telemetry.enabled('normal') ? meter.createHistogram('http.server.request.duration', {
          unit: 's',
          description: 'Duration of ingest requests',
          // The semantic conventions' boundaries for this histogram; the SDK's defaults are sized for milliseconds.
          advice: { explicitBucketBoundaries: [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10] },
        }) : undefined;
    const routes = routeTable(config.standard_paths);
    let connections = 0;
    const overLimit = new WeakSet<Socket>();
    const handle = ingestHandler({
      routes,
      next,
      authenticator: () => authenticator as Authenticator,
      maxBodyBytes: maxBodyBytes(config),
      maxRecords: config.max_records_per_request,
      budget: new ByteBudget(config.max_in_flight_bytes),
      overConnectionLimit: (req) => overLimit.has(req.socket),
      cors: cors(config.cors),
      read: config.read_api.enabled ? readHandler({ reader: () => reader, authenticator: () => authenticator as Authenticator, logger: ctx.logger }) : undefined,
      counts,
      encodings: config.compression_algorithms as ContentEncoding[],
      protobufEnabled: protobufEnabled(config),
      includeMetadata: config.include_metadata,
      logger: ctx.logger,
    });
    const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
      if (duration !== undefined) {
        const started = performance.now();
        // Only bounded values become attributes: a known method or _OTHER, a known route or none.
        res.once('finish', () => {
          const path = (req.url ?? '/').split('?')[0] ?? '/';
          const method = KNOWN_METHODS.has(req.method ?? '') ? (req.method as string) : '_OTHER';
          const labels: Record<string, string | number> = { 'http.request.method': method, 'http.response.status_code': res.statusCode };
          if (routes.has(path)) labels['http.route'] = path;
          duration.record((performance.now() - started) / 1000, labels);
        });
      }
      const work = handle(req, res).catch((error: unknown) => {
        ctx.logger.error({ err: error }, 'Unexpected error while handling a request; answered 503');
        sendUnavailable(res);
      });
      inflight.add(work);
      void work.finally(() => inflight.delete(work));
    };
    let server: Server | undefined;

    return {
      async start() {
        const extension = ctx.host.extension(config.auth.authenticator);
        if (!isAuthenticator(extension)) throw new Error(`auth.authenticator "${config.auth.authenticator}" is not a started authenticator extension; add it to extensions and service.extensions`);
        authenticator = extension;
        if (config.read_api.enabled) reader = findReader(ctx.host, config.read_api.store);
        const options = {
          headersTimeout: durationMs(config.read_header_timeout),
          requestTimeout: Math.max(durationMs(config.read_timeout), durationMs(config.read_header_timeout)),
          keepAliveTimeout: durationMs(config.idle_timeout),
          // How often Node checks the two timeouts above; its default (30 s) would let them overrun.
          connectionsCheckingInterval: Math.min(1000, durationMs(config.read_header_timeout)),
        };
        server =
          config.tls === undefined
            ? createServer(options, onRequest)
            : createTlsServer({ ...options, cert: readFileSync(config.tls.cert_file), key: readFileSync(config.tls.key_file) }, onRequest);
        // Node answers an unknown Expect header 417 on its own; an ingest request is handled as any other.
        server.on('checkExpectation', onRequest);
        // For HTTPS, 'secureConnection' is where an HTTP connection begins; for HTTP, 'connection'.
        server.on(config.tls === undefined ? 'connection' : 'secureConnection', (socket: Socket) => {
          if (++connections > config.max_connections) overLimit.add(socket);
          socket.once('close', () => connections--);
        });
        // A client too slow with its headers or body is disconnected without an answer: Node's
        // own 408 is a 4xx, which clients take as "drop the data"; a closed connection they retry.
        server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
          if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || !socket.writable) {
            socket.destroy();
            return;
          }
          const status = error.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
          socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
        });
        const shown = await listen(server, port, host);
        ctx.logger.info({ endpoint: shown, tls: config.tls !== undefined }, 'Starting HTTP server');
      },
      async shutdown() {
        const listening = server;
        if (listening === undefined) return;
        // Stop accepting (Node also ends keep-alive connections as they fall idle), let the requests
        // under way finish so their batches reach the pipelines, then cut what remains: a client
        // halfway through its headers would otherwise hold shutdown until read_header_timeout.
        const closed = new Promise<void>((resolve) => listening.close(() => resolve()));
        listening.closeIdleConnections();
        await Promise.allSettled([...inflight]);
        listening.closeAllConnections();
        await closed;
      },
    };
  },
};
