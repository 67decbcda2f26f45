// One ingest request: route → authenticate (before the body is read) → negotiate → read with a
// cap → decode → hand to the pipelines → answer with counts. A bad payload never gets a 4xx.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Authenticator, Principal } from '../../auth/authenticator.js';
import { errorMessage, isRetryable } from '../../errors.js';
import { batchOf } from '../../model/batch.js';
import type { Signal } from '../../model/signal.js';
import { decodeOtlp, type Encoding } from '../../otlp/decode.js';
import { exportResponse } from '../../otlp/response.js';
import { OutOfBudget, RecordBudget, type Decoded } from '../../otlp/result.js';
import type { ConsumeContext, Consumer } from '../../runtime/component.js';
import { decodeSimpleLogs } from '../../simple/decode.js';
import { readBody, type BodyResult, type ContentEncoding } from './body.js';
import { clientInfo } from './metadata.js';
import type { ByteBudget } from './budget.js';
import type { Cors } from './cors.js';
import type { SignalCounters } from '../../telemetry/counters.js';
import type { Counter } from '@opentelemetry/api';
import { MESSAGES, send, sendJson, sendMessage, sendUnavailable } from './respond.js';
import { READ_PREFIX } from './read.js';
import type { Route } from './routes.js';

export interface HandlerOptions {
  routes: Map<string, Route>;
  next: Partial<Record<Signal, Consumer>>;
  authenticator: () => Authenticator;
  maxBodyBytes: number;
  maxRecords: number;
  budget: ByteBudget;
  /** Whether this request came on a connection beyond max_connections. */
  overConnectionLimit: (req: IncomingMessage) => boolean;
  cors: Cors | undefined;
  /** The read API (GET /api/v1/query/...), when it is on. */
  read: ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | undefined;
  /** Own metrics, when enabled: records accepted and refused (the Collector's), and skipped as unreadable. */
  counts: { accepted: SignalCounters; refused: SignalCounters; skipped: Counter; attributes: Record<string, string> } | undefined;
  encodings: readonly ContentEncoding[];
  protobufEnabled: boolean;
  /** Keep the request headers with each batch (include_metadata). */
  includeMetadata: boolean;
  logger: Logger;
}

/**
 * Bytes of the in-flight budget a decoded row holds: an empty log row measured about 400 bytes of
 * heap (objects, attribute map, bigints). Rows count against the budget as they are decoded.
 */
export const ROW_COST = 400;

/** A request authenticated and read, to be decoded, handed on and answered. */
interface Incoming {
  route: Route;
  consumer: Consumer;
  ctx: ConsumeContext;
  principal: Principal;
  /** The encoding its Content-Type names, if any. */
  requested: Encoding | undefined;
  read: Exclude<BodyResult, { kind: 'aborted' } | { kind: 'busy' }>;
  /** When it was taken (receivedUnixNano). */
  arrival: bigint;
  records: RecordBudget;
}

/** What the answer needs of a decoded body, its rows aside. */
type DecodeFacts = Omit<Decoded<Signal>, 'rows'>;

/** A body decoded and its rows handed on: `consumed` is the pipeline's answer (undefined: no rows). */
interface Handed {
  encoding: Encoding | undefined;
  facts: DecodeFacts;
  rows: number;
  consumed: Promise<void> | undefined;
}

const SKIPPED_PHRASE: Record<Signal, string> = {
  logs: 'some log records could not be parsed and were skipped',
  traces: 'some spans could not be parsed and were skipped',
  metrics: 'some data points could not be stored and were skipped',
};

function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** OTLP JSON starts with `{` (after white space); anything else is taken for protobuf. */
function sniff(body: Buffer): Encoding {
  for (const byte of body) {
    if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0xef || byte === 0xbb || byte === 0xbf) continue;
    return byte === 0x7b ? 'json' : 'protobuf';
  }
  return 'json';
}

/** Why a body was discarded whole, if it was: it ran into a limit, whatever it held, and nothing of it was kept. */
function discardedWhole(decoded: DecodeFacts, tooLarge: number | undefined): string | undefined {
  if (tooLarge !== undefined) return `the request body exceeds the ${tooLarge}-byte limit on decompressed bodies and was discarded whole`;
  if (decoded.tooMany !== undefined) return `the request holds more than ${decoded.tooMany} records, the most one request may carry, and was discarded whole`;
  return undefined;
}

/** The answer's message when records were skipped: the limit a discarded body ran into, else what records need. */
function skippedMessage(route: Route, decoded: DecodeFacts, rejected: number, tooLarge: number | undefined): string {
  const simple = route.format === 'simple';
  const whole = discardedWhole(decoded, tooLarge);
  if (whole !== undefined) return simple ? `${whole.charAt(0).toUpperCase()}${whole.slice(1)}.` : whole;
  const unreadable = decoded.unreadable === undefined ? '' : `; part of the body could not be read (${decoded.unreadable})`;
  if (simple) return `${rejected} record${rejected === 1 ? ' was' : 's were'} skipped: each needs a "message" (or "body"), and the body must be JSON${unreadable}.`;
  return `${SKIPPED_PHRASE[route.signal]} (${rejected})${unreadable}`;
}

export function ingestHandler(options: HandlerOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { routes, next, maxBodyBytes, logger } = options;
  const supported = options.encodings.join(', ');
  const allowed = new Set<string>(['identity', ...options.encodings]);

  return async (req, res) => {
    if (options.overConnectionLimit(req)) {
      sendUnavailable(res, { Connection: 'close' });
      return;
    }
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const route = routes.get(path);
    const reading = options.read !== undefined && path.startsWith(READ_PREFIX) ? options.read : undefined;
    if ((route !== undefined || reading !== undefined) && options.cors !== undefined) {
      if (options.cors.preflight(req, res, reading === undefined ? 'POST' : 'GET')) return;
      options.cors.decorate(req, res);
    }
    if (reading !== undefined) {
      await reading(req, res);
      return;
    }
    if (route === undefined) {
      sendMessage(res, 404, `Not found. otelgate receives POST ${[...routes.keys()].join(', ')}.`);
      return;
    }
    if (req.method !== 'POST') {
      sendMessage(res, 405, `Method ${req.method ?? ''} is not allowed here; use POST.`, { Allow: 'POST' });
      return;
    }
    const consumer = next[route.signal];
    if (consumer === undefined) {
      sendMessage(res, 404, `No ${route.signal} pipeline uses this receiver.`);
      return;
    }
    const principal = options.authenticator().authenticate(req.headers);
    if (principal === undefined) {
      // The body is never read, let alone inflated, for a caller we do not know.
      sendMessage(res, 401, MESSAGES.unauthorized, { Connection: 'close' });
      return;
    }
    const contentEncoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase() || 'identity';
    if (!allowed.has(contentEncoding)) {
      sendMessage(res, 415, `Unsupported Content-Encoding "${contentEncoding}". Supported: ${supported} (or none).`, { Connection: 'close' });
      return;
    }
    let encoding: Encoding | undefined;
    if (route.format === 'otlp') {
      const type = mediaType(req);
      if (type === 'application/json') encoding = 'json';
      else if (type === 'application/x-protobuf' || type === 'application/protobuf') encoding = 'protobuf';
      if (encoding === 'protobuf' && !options.protobufEnabled) {
        sendMessage(res, 415, MESSAGES.protobufOff, { Connection: 'close' });
        return;
      }
    }

    const arrival = BigInt(Date.now()) * 1_000_000n;
    const read = await readBody(req, contentEncoding as ContentEncoding, maxBodyBytes, options.budget);
    if (read.kind === 'aborted') return;
    if (read.kind === 'busy') {
      sendUnavailable(res, { Connection: 'close' });
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
    const ctx: ConsumeContext = { signal: gone.signal, client: clientInfo(req, principal, options.includeMetadata) };
    try {
      await answer(res, { route, consumer, ctx, principal, requested: encoding, read, arrival, records });
    } finally {
      res.off('close', onClose);
      records.release();
      if (read.kind === 'ok') options.budget.give(read.body.length);
    }
  };

  /**
   * Decodes the body and hands its rows to the pipeline, in a plain function: an async one would
   * hold the rows until the pipeline answers, and rows kept alive across a queue's disk write
   * survive the young generation's collections, which made them cost forwarding as much as
   * twice the collection time (rows in flight held 4 MB at each scavenge instead of 0.2 MB).
   * 'busy': the in-flight budget ran out while decoding.
   */
  function handOn(request: Incoming): Handed | 'busy' {
    const { route, consumer, ctx, principal, read, arrival, records } = request;
    let encoding = request.requested;
    const sniffed = route.format === 'otlp' && encoding === undefined;
    if (sniffed) {
      encoding = read.kind === 'ok' ? sniff(read.body) : 'json';
      if (encoding === 'protobuf' && !options.protobufEnabled) encoding = 'json';
    }

    const keep = { keepSource: consumer.sendsProtobuf === true };
    let decoded: Decoded<Signal>;
    if (read.kind === 'too_large') decoded = { rows: [], skipped: 1, unreadable: 'too large' };
    else if (read.kind === 'corrupt') decoded = { rows: [], skipped: 1, unreadable: read.reason };
    else {
      try {
        decoded = route.format === 'simple' ? decodeSimpleLogs(read.body, arrival, records) : decodeOtlp(route.signal, encoding as Encoding, read.body, records, keep);
        // A guess can be wrong (a protobuf body may begin with the byte of '{'): an unlabelled body
        // that could not be read at all one way is read the other way.
        if (sniffed && decoded.rows.length === 0 && decoded.unreadable !== undefined && options.protobufEnabled) {
          const other: Encoding = encoding === 'json' ? 'protobuf' : 'json';
          records.release();
          const retried = decodeOtlp(route.signal, other, read.body, records, keep);
          if (retried.unreadable === undefined) [decoded, encoding] = [retried, other];
        }
      } catch (error) {
        if (error instanceof OutOfBudget) return 'busy';
        logger.warn({ err: error, signal: route.signal }, 'Decoder failed on a body; counting it as unreadable');
        decoded = { rows: [], skipped: 1, unreadable: 'the body could not be decoded' };
      }
    }
    const { rows, ...facts } = decoded;
    let consumed: Promise<void> | undefined;
    if (rows.length > 0) {
      try {
        consumed = consumer.consume(batchOf(route.signal, principal.project, arrival, rows), ctx);
      } catch (error) {
        consumed = Promise.reject(error);
      }
    }
    return { encoding, facts, rows: rows.length, consumed };
  }

  async function answer(res: ServerResponse, request: Incoming): Promise<void> {
    const { route, principal, read } = request;
    const handed = handOn(request);
    if (handed === 'busy') {
      sendUnavailable(res, { Connection: 'close' });
      return;
    }
    const { encoding, facts: decoded, rows, consumed } = handed;

    let rejected = decoded.skipped;
    const { counts } = options;
    if (decoded.skipped > 0) counts?.skipped.add(decoded.skipped, { ...counts.attributes, signal: route.signal });
    if (consumed !== undefined) {
      try {
        await consumed;
        counts?.accepted[route.signal].add(rows, counts.attributes);
      } catch (error) {
        counts?.refused[route.signal].add(rows, counts.attributes);
        if (isRetryable(error)) {
          logger.warn({ err: errorMessage(error), signal: route.signal, key_id: principal.keyId }, 'Pipeline refused a batch; answered 503');
          sendUnavailable(res);
          return;
        }
        rejected += rows;
      }
    }

    const tooLarge = read.kind === 'too_large' ? maxBodyBytes : undefined;
    if (route.format === 'simple') {
      const accepted = rows + decoded.skipped - rejected;
      const body: Record<string, unknown> = { accepted, skipped: rejected };
      if (rejected > 0) body['message'] = skippedMessage(route, decoded, rejected, tooLarge);
      sendJson(res, 202, body);
      return;
    }
    const partial = rejected === 0 ? undefined : { rejected, errorMessage: skippedMessage(route, decoded, rejected, tooLarge) };
    const response = exportResponse(route.signal, encoding as Encoding, partial);
    send(res, 200, response.contentType, response.body);
  }
}
