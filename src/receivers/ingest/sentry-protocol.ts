// What Sentry SDKs send, as a protocol (../helper/protocol.ts): envelopes to /api/<digits>/envelope/
// and single events to the older /api/<digits>/store/, with or without the trailing slash. The
// number is a Sentry project id, ignored: the project comes from the key alone, as everywhere. The
// key comes as the SDKs send it: the X-Sentry-Auth header (or Authorization: Sentry …), the
// sentry_key query parameter, the envelope header's dsn, or the interface's own headers.
import type { IncomingMessage } from 'node:http';
import { decodeSentryEnvelope, decodeSentryStore, envelopeDsnKey, type SentryDecoded } from '../../sentry/decode.js';
import { unreadBody, type BodyRows, type Protocol, type Route } from '../helper/protocol.js';
import { sendJson } from './respond.js';

const PATH = /^\/api\/\d+\/(envelope|store)\/?$/;

/** The sentry_key of a Sentry auth header: `Sentry sentry_key=KEY, sentry_version=7, …`, fields in any order, values maybe quoted. */
export function sentryAuthKey(header: string): string | undefined {
  const fields = header.replace(/^\s*Sentry\s+/i, '');
  for (const field of fields.split(',')) {
    const at = field.indexOf('=');
    if (at === -1 || field.slice(0, at).trim().toLowerCase() !== 'sentry_key') continue;
    const value = field.slice(at + 1).trim().replace(/^"(.*)"$/, '$1');
    return value === '' ? undefined : value;
  }
  return undefined;
}

function presentedKey(req: IncomingMessage): string | undefined {
  const header = req.headers['x-sentry-auth'];
  if (typeof header === 'string') return sentryAuthKey(header);
  const authorization = req.headers.authorization;
  if (authorization !== undefined && /^\s*Sentry\s/i.test(authorization)) return sentryAuthKey(authorization);
  const query = (req.url ?? '').indexOf('?');
  if (query === -1) return undefined;
  const key = new URLSearchParams((req.url ?? '').slice(query + 1)).get('sentry_key');
  return key === null || key === '' ? undefined : key;
}

const rowsOf = (decoded: SentryDecoded): BodyRows => ({
  rows: { logs: decoded.logs, traces: decoded.spans },
  skipped: decoded.skipped,
  unreadable: decoded.unreadable,
  eventId: decoded.eventId,
  ignored: decoded.ignored,
});

function sentryRoute(envelope: boolean): Route {
  return {
    signals: ['logs', 'traces'],
    key: presentedKey,
    keyInBody: envelope ? envelopeDsnKey : undefined,
    encodings: ['gzip', 'deflate', 'br', 'zstd'],
    decode(read, input) {
      if (read.kind !== 'ok') return unreadBody(read);
      return rowsOf((envelope ? decodeSentryEnvelope : decodeSentryStore)(read.body, input.arrival, input.records));
    },
    // The SDKs read the event id back; a mangled body is skips, answered 200 all the same.
    answer: (_req, res, done) => sendJson(res, 200, done.body.eventId === undefined ? {} : { id: done.body.eventId }),
  };
}

const ENVELOPE = sentryRoute(true);
const STORE = sentryRoute(false);

export const sentryProtocol: Protocol = {
  route(path) {
    const match = PATH.exec(path);
    if (match === null) return undefined;
    return match[1] === 'envelope' ? ENVELOPE : STORE;
  },
  paths: ['/api/<project id>/envelope/', '/api/<project id>/store/'],
};
