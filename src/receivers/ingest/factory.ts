// The ingest receiver: the HTTP endpoints of the interface contract on one listener.
import { isAuthenticator, type Authenticator } from '../../auth/authenticator.js';
import { isReader, type Reader } from '../../query/reader.js';
import type { Host, ReceiverFactory } from '../../runtime/component.js';
import { parseEndpoint } from '../../runtime/listen.js';
import type { ContentEncoding } from '../helper/body.js';
import { ByteBudget } from '../helper/budget.js';
import { cors } from '../helper/cors.js';
import { httpHandler, type GetRoute } from '../helper/http-handler.js';
import { httpServer } from '../helper/http-server.js';
import { intakeCounts, ROW_COST } from '../helper/intake.js';
import { ingestSchema, maxBodyBytes, protobufEnabled } from './config.js';
import { readHandler, READ_PREFIX } from './read.js';
import { ingestAnswers } from './respond.js';
import { ingestProtocols } from './routes.js';
import { loadUi, NOT_BUILT, UI_DIR, UI_PREFIX, uiHandler, type UiFiles } from './ui.js';

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

const METER = 'otelgate/receiver/ingest';

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
    const meter = ctx.telemetry.meter(METER);
    const counts = ctx.telemetry.enabled('basic') ? intakeCounts(meter, { receiver: ctx.id, transport: 'http' }) : undefined;
    const protocols = ingestProtocols(config.standard_paths, protobufEnabled(config));
    const servesUi = config.read_api.enabled && config.ui.enabled;
    let uiFiles: UiFiles | undefined;
    const gets: GetRoute[] = [];
    if (config.read_api.enabled) gets.push({ prefix: READ_PREFIX, handle: readHandler({ reader: () => reader, authenticator: () => authenticator as Authenticator, logger: ctx.logger }), cors: true });
    if (servesUi) gets.push({ prefix: UI_PREFIX, handle: uiHandler(() => uiFiles), cors: false });
    const handle = httpHandler({
      protocols,
      next,
      authenticate: (req, key) => (key === undefined ? (authenticator as Authenticator).authenticate(req.headers, 'ingest') : (authenticator as Authenticator).authenticateKey(key, 'ingest')),
      answers: ingestAnswers,
      maxBodyBytes: maxBodyBytes(config),
      maxRecords: config.max_records_per_request,
      budget: new ByteBudget(config.max_in_flight_bytes),
      cors: cors(config.cors),
      gets,
      counts,
      encodings: config.compression_algorithms as ContentEncoding[],
      includeMetadata: config.include_metadata,
      logger: ctx.logger,
    });
    const server = httpServer({
      settings: { ...config, host, port },
      ctx,
      meterName: METER,
      handle,
      routes: new Set(protocols.flatMap((protocol) => protocol.paths)),
      answers: ingestAnswers,
    });

    return {
      async start() {
        const extension = ctx.host.extension(config.auth.authenticator);
        if (!isAuthenticator(extension)) throw new Error(`auth.authenticator "${config.auth.authenticator}" is not a started authenticator extension; add it to extensions and service.extensions`);
        authenticator = extension;
        if (config.read_api.enabled) reader = findReader(ctx.host, config.read_api.store);
        if (servesUi) {
          uiFiles = loadUi(UI_DIR);
          if (uiFiles === undefined) ctx.logger.warn({ dir: UI_DIR }, `${NOT_BUILT} Until then /ui/ answers 404.`);
        }
        await server.start();
      },
      shutdown: () => server.shutdown(),
    };
  },
};
