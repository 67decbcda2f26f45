// A receiver's HTTP(S) listener, as confighttp's server: the timeouts a slow client runs into, a
// cap on open connections, the request-duration metric, and a shutdown that lets the requests
// under way finish. What a request means is the handler's business.
import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { Socket } from 'node:net';
import { durationMs } from '../../config/duration.js';
import type { ComponentContext } from '../../runtime/component.js';
import { createServer } from '../../runtime/http.js';
import { listen } from '../../runtime/listen.js';
import type { Answers } from './send.js';

export interface HttpServerSettings {
  host: string | undefined;
  port: number;
  tls?: { cert_file: string; key_file: string } | undefined;
  read_header_timeout: string;
  read_timeout: string;
  idle_timeout: string;
  max_connections: number;
}

export interface HttpServerOptions {
  settings: HttpServerSettings;
  ctx: ComponentContext;
  /** The receiver's own meter scope, e.g. otelgate/receiver/ingest. */
  meterName: string;
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  /** Paths that are routes, the only values http.route may take. */
  routes: ReadonlySet<string>;
  answers: Pick<Answers, 'unavailable'>;
}

export interface HttpServer {
  start(): Promise<void>;
  shutdown(): Promise<void>;
}

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);

export function httpServer(options: HttpServerOptions): HttpServer {
  const { settings, ctx, handle, routes, answers } = options;
  const inflight = new Set<Promise<void>>();
  const duration = ctx.telemetry.enabled('normal')
    ? ctx.telemetry.meter(options.meterName).createHistogram('http.server.request.duration', {
        unit: 's',
        description: 'Duration of ingest requests',
        // The semantic conventions' boundaries for this histogram; the SDK's defaults are sized for milliseconds.
        advice: { explicitBucketBoundaries: [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10] },
      })
    : undefined;
  let connections = 0;
  const overLimit = new WeakSet<Socket>();

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
    if (overLimit.has(req.socket)) {
      answers.unavailable(req, res, { Connection: 'close' });
      return;
    }
    const work = handle(req, res).catch((error: unknown) => {
      ctx.logger.error({ err: error }, 'Unexpected error while handling a request; answered 503');
      answers.unavailable(req, res);
    });
    inflight.add(work);
    void work.finally(() => inflight.delete(work));
  };
  let server: Server | undefined;

  return {
    async start() {
      const timeouts = {
        headersTimeout: durationMs(settings.read_header_timeout),
        requestTimeout: Math.max(durationMs(settings.read_timeout), durationMs(settings.read_header_timeout)),
        keepAliveTimeout: durationMs(settings.idle_timeout),
        // How often Node checks the two timeouts above; its default (30 s) would let them overrun.
        connectionsCheckingInterval: Math.min(1000, durationMs(settings.read_header_timeout)),
      };
      const tls = settings.tls;
      server =
        tls === undefined
          ? createServer(timeouts, onRequest)
          : createTlsServer({ ...timeouts, cert: readFileSync(tls.cert_file), key: readFileSync(tls.key_file) }, onRequest);
      // Node answers an unknown Expect header 417 on its own; an export request is handled as any other.
      server.on('checkExpectation', onRequest);
      // For HTTPS, 'secureConnection' is where an HTTP connection begins; for HTTP, 'connection'.
      server.on(tls === undefined ? 'connection' : 'secureConnection', (socket: Socket) => {
        if (++connections > settings.max_connections) overLimit.add(socket);
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
      const shown = await listen(server, settings.port, settings.host);
      ctx.logger.info({ endpoint: shown, tls: tls !== undefined }, 'Starting HTTP server');
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
}
