// The ingest receiver: the HTTP endpoints of the interface contract on one listener.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isAuthenticator, type Authenticator } from '../../auth/authenticator.js';
import { durationMs } from '../../config/duration.js';
import type { ReceiverFactory } from '../../runtime/component.js';
import type { ContentEncoding } from './body.js';
import { ingestSchema, maxBodyBytes, parseEndpoint, protobufEnabled } from './config.js';
import { ingestHandler } from './handler.js';
import { sendUnavailable } from './respond.js';
import { routeTable } from './routes.js';

export const ingestReceiverFactory: ReceiverFactory<typeof ingestSchema> = {
  kind: 'receiver',
  type: 'ingest',
  description: 'The ingest interface over HTTP: OTLP/HTTP logs, traces and metrics (JSON and protobuf) and simple JSON logs, authenticated by API key.',
  stability: { logs: 'alpha', traces: 'alpha', metrics: 'alpha' },
  schema: ingestSchema,
  validate(config) {
    return parseEndpoint(config.endpoint) === undefined ? [{ path: ['endpoint'], message: `"${config.endpoint}" is not host:port, e.g. localhost:4318 or :4318` }] : [];
  },
  create(config, ctx, next) {
    const { host, port } = parseEndpoint(config.endpoint) as { host: string | undefined; port: number };
    let authenticator: Authenticator | undefined;
    const inflight = new Set<Promise<void>>();
    const handle = ingestHandler({
      routes: routeTable(config.standard_paths),
      next,
      authenticator: () => authenticator as Authenticator,
      maxBodyBytes: maxBodyBytes(config),
      encodings: config.compression_algorithms as ContentEncoding[],
      protobufEnabled: protobufEnabled(config),
      logger: ctx.logger,
    });
    const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
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
        server = createServer(
          {
            headersTimeout: durationMs(config.read_header_timeout),
            requestTimeout: Math.max(durationMs(config.read_timeout), durationMs(config.read_header_timeout)),
            keepAliveTimeout: durationMs(config.idle_timeout),
          },
          onRequest,
        );
        const listening = server;
        await new Promise<void>((resolve, reject) => {
          listening.once('error', reject);
          listening.listen(port, host, () => {
            listening.off('error', reject);
            resolve();
          });
        });
        const address = listening.address() as AddressInfo;
        const shown = address.family === 'IPv6' ? `[${address.address}]:${address.port}` : `${address.address}:${address.port}`;
        ctx.logger.info({ endpoint: shown }, 'Starting HTTP server');
      },
      async shutdown() {
        const closing = server;
        if (closing === undefined) return;
        // Stop accepting, let the requests under way finish (their batches reach the pipelines), then close.
        await new Promise<void>((resolve) => {
          closing.close(() => resolve());
          closing.closeIdleConnections();
        });
        await Promise.allSettled([...inflight]);
      },
    };
  },
};
