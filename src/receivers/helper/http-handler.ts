// One export request over HTTP: route → authenticate (before the body is read) → negotiate → read
// with a cap → decode and hand on (intake.ts) → answer with counts. A bad payload never gets a 4xx:
// its unreadable records are skipped and counted in a 200 (partial success).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Principal } from '../../auth/authenticator.js';
import type { Encoding } from '../../otlp/decode.js';
import { exportResponse } from '../../otlp/response.js';
import { RecordBudget } from '../../otlp/result.js';
import type { Signal } from '../../model/signal.js';
import type { ConsumeContext, Consumer } from '../../runtime/component.js';
import { readBody, type ContentEncoding } from './body.js';
import type { ByteBudget } from './budget.js';
import type { Cors } from './cors.js';
import { deliver, ROW_COST, skippedMessage, type BodyFormat, type IntakeOptions } from './intake.js';
import { clientInfo } from './metadata.js';
import { send, type Answers } from './send.js';

export interface HandlerOptions extends IntakeOptions {
  /** Path → what is posted to it. */
  routes: ReadonlyMap<string, BodyFormat>;
  next: Partial<Record<Signal, Consumer>>;
  /** Who sent the request, from its headers alone; undefined: answered 401. */
  authenticate: (req: IncomingMessage) => Principal | undefined;
  answers: Answers;
  maxBodyBytes: number;
  maxRecords: number;
  budget: ByteBudget;
  cors: Cors | undefined;
  /** Requests under a path prefix served by GET (the ingest receiver's read API), when there are any. */
  reads: { prefix: string; handle: (req: IncomingMessage, res: ServerResponse) => Promise<void> } | undefined;
  encodings: readonly ContentEncoding[];
  /** Keep the request headers with each batch (include_metadata). */
  includeMetadata: boolean;
}

const PROTOBUF_OFF = 'Only the OTLP JSON encoding is supported here: send OTLP JSON with Content-Type: application/json.';

function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** The encoding a Content-Type names; undefined for any other (the body's first byte tells). */
export function namedEncoding(req: IncomingMessage): Encoding | undefined {
  const type = mediaType(req);
  if (type === 'application/json') return 'json';
  if (type === 'application/x-protobuf' || type === 'application/protobuf') return 'protobuf';
  return undefined;
}

export function httpHandler(options: HandlerOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { routes, next, maxBodyBytes, answers } = options;
  const supported = options.encodings.join(', ');
  const allowed = new Set<string>(['identity', ...options.encodings]);
  const reads = options.reads;

  return async (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const route = routes.get(path);
    const reading = reads !== undefined && path.startsWith(reads.prefix) ? reads.handle : undefined;
    if ((route !== undefined || reading !== undefined) && options.cors !== undefined) {
      if (options.cors.preflight(req, res, reading === undefined ? 'POST' : 'GET')) return;
      options.cors.decorate(req, res);
    }
    if (reading !== undefined) {
      await reading(req, res);
      return;
    }
    if (route === undefined) {
      answers.refuse(req, res, 404, `Not found. otelgate receives POST ${[...routes.keys()].join(', ')}.`);
      return;
    }
    if (req.method !== 'POST') {
      answers.refuse(req, res, 405, `Method ${req.method ?? ''} is not allowed here; use POST.`, { Allow: 'POST' });
      return;
    }
    const consumer = next[route.signal];
    if (consumer === undefined) {
      answers.refuse(req, res, 404, `No ${route.signal} pipeline uses this receiver.`);
      return;
    }
    const principal = options.authenticate(req);
    if (principal === undefined) {
      // The body is never read, let alone inflated, for a caller we do not know.
      answers.unauthorized(req, res);
      return;
    }
    const contentEncoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase() || 'identity';
    if (!allowed.has(contentEncoding)) {
      answers.refuse(req, res, 415, `Unsupported Content-Encoding "${contentEncoding}". Supported: ${supported} (or none).`, { Connection: 'close' });
      return;
    }
    const requested = route.format === 'otlp' ? namedEncoding(req) : undefined;
    if (requested === 'protobuf' && !options.protobufEnabled) {
      answers.refuse(req, res, 415, PROTOBUF_OFF, { Connection: 'close' });
      return;
    }

    const arrival = BigInt(Date.now()) * 1_000_000n;
    const read = await readBody(req, contentEncoding as ContentEncoding, maxBodyBytes, options.budget);
    if (read.kind === 'aborted') return;
    if (read.kind === 'busy') {
      answers.unavailable(req, res, { Connection: 'close' });
      return;
    }
    const records = new RecordBudget(options.maxRecords, options.budget, ROW_COST);
    // A client that goes away before its answer no longer waits for it: whatever only waits (for
    // room in a queue) stops; whatever is already written stays.
    const gone = new AbortController();
    const onClose = (): void => {
      if (!res.writableEnded) gone.abort();
    };
    res.once('close', onClose);
    // A client that went away while its body was read is gone already; 'close' has been and gone.
    if (res.destroyed) gone.abort();
    const ctx: ConsumeContext = { signal: gone.signal, client: clientInfo(principal, options.includeMetadata ? req.headersDistinct : undefined) };
    try {
      const outcome = await deliver(options, { route, consumer, ctx, principal, requested, read, arrival, records });
      if (outcome.kind === 'busy') {
        answers.unavailable(req, res, { Connection: 'close' });
        return;
      }
      if (outcome.kind === 'unavailable') {
        options.logger.warn({ err: outcome.reason, signal: route.signal, key_id: principal.keyId }, 'Pipeline refused a batch; answered 503');
        answers.unavailable(req, res);
        return;
      }
      const { facts, rows, rejected } = outcome;
      const tooLarge = outcome.tooLarge ? maxBodyBytes : undefined;
      if (route.format === 'simple') {
        const accepted = rows + facts.skipped - rejected;
        const body: Record<string, unknown> = { accepted, skipped: rejected };
        if (rejected > 0) body['message'] = skippedMessage(route, facts, rejected, tooLarge);
        send(res, 202, 'application/json', JSON.stringify(body));
        return;
      }
      const partial = rejected === 0 ? undefined : { rejected, errorMessage: skippedMessage(route, facts, rejected, tooLarge) };
      const response = exportResponse(route.signal, outcome.encoding as Encoding, partial);
      send(res, 200, response.contentType, response.body);
    } finally {
      res.off('close', onClose);
      records.release();
      if (read.kind === 'ok') options.budget.give(read.body.length);
    }
  };
}
