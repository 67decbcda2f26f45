// One request over HTTP: route (across the receiver's protocols) → authenticate (before the body
// is read) → negotiate → read with a cap → decode and hand on (intake.ts) → the protocol's answer.
// A bad payload never gets a 4xx: its unreadable records are skipped and counted in a 2xx.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { KEY_HEADERS, type Principal } from '../../auth/authenticator.js';
import { RecordBudget } from '../../otlp/result.js';
import type { Signal } from '../../model/signal.js';
import type { ConsumeContext, Consumer } from '../../runtime/component.js';
import { readBody, type ContentEncoding } from './body.js';
import type { ByteBudget } from './budget.js';
import type { Cors } from './cors.js';
import { deliver, ROW_COST, type IntakeOptions, type ReadOutcome } from './intake.js';
import { clientInfo } from './metadata.js';
import type { Protocol, Route } from './protocol.js';
import type { Answers } from './send.js';

export interface HandlerOptions extends IntakeOptions {
  /** The protocols spoken, asked in order for a path's route. */
  protocols: readonly Protocol[];
  next: Partial<Record<Signal, Consumer>>;
  /**
   * Who presents `key`, or, without one, the key in the request's headers (Authorization,
   * X-Service-Key); undefined: answered 401.
   */
  authenticate: (req: IncomingMessage, key: string | undefined) => Principal | undefined;
  answers: Answers;
  maxBodyBytes: number;
  maxRecords: number;
  budget: ByteBudget;
  cors: Cors | undefined;
  /** Paths served by GET beside the protocols' (the ingest receiver's read API and viewer), first match wins. */
  gets: readonly GetRoute[];
  encodings: readonly ContentEncoding[];
  /** Keep the request headers with each batch (include_metadata). */
  includeMetadata: boolean;
}

/**
 * The paths under `prefix`, which ends with '/', and the path without that '/' (the viewer answers
 * /ui with a redirect to /ui/), answered by `handle` whatever the method: it says which it serves.
 */
export interface GetRoute {
  prefix: string;
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  /**
   * Whether the receiver's `cors` setting applies: the read API may be read from a page of another
   * origin; the viewer's own pages are only ever loaded from this one.
   */
  cors: boolean;
}

function getRouteOf(gets: readonly GetRoute[], path: string): GetRoute | undefined {
  for (const get of gets) if (path.startsWith(get.prefix) || path === get.prefix.slice(0, -1)) return get;
  return undefined;
}

/** Whether the request carries a key in a header the authenticator reads. */
function presentsKey(req: IncomingMessage): boolean {
  for (const name of KEY_HEADERS) if (req.headers[name] !== undefined) return true;
  return false;
}

function routeOf(protocols: readonly Protocol[], path: string): Route | undefined {
  for (const protocol of protocols) {
    const route = protocol.route(path);
    if (route !== undefined) return route;
  }
  return undefined;
}

export function httpHandler(options: HandlerOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { protocols, next, maxBodyBytes, answers } = options;
  const receiverEncodings = new Set<string>(['identity', ...options.encodings]);
  const shown = protocols.flatMap((protocol) => protocol.paths).join(', ');

  return async (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const getting = getRouteOf(options.gets, path);
    const route = getting === undefined ? routeOf(protocols, path) : undefined;
    if ((route !== undefined || getting?.cors === true) && options.cors !== undefined) {
      if (options.cors.preflight(req, res, getting === undefined ? 'POST' : 'GET')) return;
      options.cors.decorate(req, res);
    }
    if (getting !== undefined) {
      await getting.handle(req, res);
      return;
    }
    if (route === undefined) {
      answers.refuse(req, res, 404, `Not found. otelgate receives POST ${shown}.`);
      return;
    }
    if (req.method !== 'POST') {
      answers.refuse(req, res, 405, `Method ${req.method ?? ''} is not allowed here; use POST.`, { Allow: 'POST' });
      return;
    }
    const signal = route.signals.find((s) => next[s] !== undefined);
    if (signal === undefined) {
      answers.refuse(req, res, 404, `No ${route.signals.join(' or ')} pipeline uses this receiver.`);
      return;
    }
    const presented = route.key?.(req);
    let principal = options.authenticate(req, presented);
    // A key only the body names (a Sentry envelope's dsn) is looked at after the body is read, for
    // a request that presents none otherwise: one that presents a key we do not know is refused here.
    if (principal === undefined && (route.keyInBody === undefined || presented !== undefined || presentsKey(req))) {
      // The body is never read, let alone inflated, for a caller we do not know.
      answers.unauthorized(req, res);
      return;
    }
    const contentEncoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase() || 'identity';
    const allowed = route.encodings === undefined ? receiverEncodings : new Set<string>(['identity', ...route.encodings]);
    if (!allowed.has(contentEncoding)) {
      answers.refuse(req, res, 415, `Unsupported Content-Encoding "${contentEncoding}". Supported: ${[...allowed].filter((e) => e !== 'identity').join(', ')} (or none).`, { Connection: 'close' });
      return;
    }
    const refusal = route.refuse?.(req);
    if (refusal !== undefined) {
      answers.refuse(req, res, refusal.status, refusal.message, refusal.headers);
      return;
    }

    const arrival = BigInt(Date.now()) * 1_000_000n;
    const read = await readBody(req, contentEncoding as ContentEncoding, maxBodyBytes, options.budget);
    if (read.kind === 'aborted') return;
    if (read.kind === 'busy') {
      answers.unavailable(req, res, { Connection: 'close' });
      return;
    }
    try {
      if (principal === undefined) {
        const key = read.kind === 'ok' ? route.keyInBody?.(read.body) : undefined;
        principal = key === undefined ? undefined : options.authenticate(req, key);
        if (principal === undefined) {
          answers.unauthorized(req, res);
          return;
        }
      }
      await answer(options, req, res, route, signal, principal, read, arrival);
    } finally {
      if (read.kind === 'ok') options.budget.give(read.body.length);
    }
  };
}

/** Decodes and hands on a body read whole (or over its cap, or corrupt), and answers as its protocol does. */
async function answer(options: HandlerOptions, req: IncomingMessage, res: ServerResponse, route: Route, signal: Signal, principal: Principal, read: ReadOutcome, arrival: bigint): Promise<void> {
  const { next, answers } = options;
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
    const keepsSource = (s: Signal): boolean => next[s]?.sendsProtobuf === true;
    const outcome = await deliver(options, { decode: () => route.decode(read, { req, arrival, records, keepsSource }), signal, consumers: next, ctx, principal, arrival });
    if (outcome.kind === 'busy') {
      answers.unavailable(req, res, { Connection: 'close' });
      return;
    }
    if (outcome.kind === 'unavailable') {
      options.logger.warn({ err: outcome.reason, signal: outcome.signal, key_id: principal.keyId }, 'Pipeline refused a batch; answered 503');
      answers.unavailable(req, res);
      return;
    }
    route.answer(req, res, { body: outcome.body, rows: outcome.rows, rejected: outcome.rejected, tooLarge: read.kind === 'too_large' ? options.maxBodyBytes : undefined });
  } finally {
    res.off('close', onClose);
    records.release();
  }
}
