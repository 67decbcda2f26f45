// The read API on the ingest listener: GET /api/v1/query/{logs,spans,metrics} and the aggregate
// paths of the web viewer (log_counts, ...), authenticated by the same keys and answering only the
// key's project. Unlike ingest, a bad parameter is a 400 naming it: a read loses no data, and the
// caller needs to know what to fix.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Authenticator } from '../../auth/authenticator.js';
import { parseRead, QUERY_PATHS, QueryError, type ReadQuery } from '../../query/params.js';
import { ReadRefused, type Reader, type ReadResult } from '../../query/reader.js';
import { send } from '../helper/send.js';
import { MESSAGES, sendMessage } from './respond.js';
import { errorMessage } from '../../errors.js';

export const READ_PREFIX = '/api/v1/query/';

export interface ReadOptions {
  reader: () => Reader | undefined;
  authenticator: () => Authenticator;
  logger: Logger;
  /** Nanoseconds since the epoch: the aggregates' default `to`. The wall clock unless a test holds it. */
  now?: () => bigint;
}

const wallClock = (): bigint => BigInt(Date.now()) * 1_000_000n;

/** The members an aggregate's answer has before its rows: the range read, and the buckets' width where it has buckets. */
function head(query: ReadQuery): string {
  switch (query.kind) {
    case 'log_counts':
    case 'error_groups':
      return `"step_nano":"${query.step}","from":"${query.from}","to":"${query.to}",`;
    default:
      return '';
  }
}

export function readHandler(options: ReadOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://otelgate');
    const path = url.pathname.slice(READ_PREFIX.length);
    if (!QUERY_PATHS.includes(path)) {
      sendMessage(res, 404, `Not found. The read API serves GET ${QUERY_PATHS.map((name) => READ_PREFIX + name).join(', ')}.`);
      return;
    }
    if (req.method !== 'GET') {
      sendMessage(res, 405, `Method ${req.method ?? ''} is not allowed here; use GET.`, { Allow: 'GET' });
      return;
    }
    const reader = options.reader();
    if (reader === undefined) {
      sendMessage(res, 404, 'This otelgate keeps no data to read: the read API reads a store exporter, and none is configured for this receiver.');
      return;
    }
    // A key that may only send (one shipped in a browser bundle, say) reads nothing.
    const principal = options.authenticator().authenticate(req.headers, 'read');
    if (principal === undefined) {
      sendMessage(res, 401, MESSAGES.unauthorized);
      return;
    }
    let query: ReadQuery;
    let result: ReadResult;
    try {
      query = parseRead(path, url.searchParams, (options.now ?? wallClock)());
      result = await reader.read(principal.project, query);
    } catch (error) {
      if (error instanceof QueryError) {
        sendMessage(res, 400, error.message);
        return;
      }
      if (error instanceof ReadRefused) {
        sendMessage(res, 503, `The read was not answered: ${error.message}.`, error.retryable ? { 'Retry-After': '5' } : {});
        return;
      }
      options.logger.error({ err: errorMessage(error), key_id: principal.keyId }, 'The store could not be read');
      sendMessage(res, 503, 'The store is temporarily unavailable. Please retry.', { 'Retry-After': '5' });
      return;
    }
    const rows = result.rows.join(',');
    send(res, 200, 'application/json', result.truncated ? `{${head(query)}"rows":[${rows}],"truncated":true}` : `{${head(query)}"rows":[${rows}]}`);
  };
}
