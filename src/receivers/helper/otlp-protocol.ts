// OTLP/HTTP as a protocol (protocol.ts): one exact path per signal, a body in JSON or protobuf as its
// Content-Type says (or its first byte, when it says neither), answered with the export response
// in the request's encoding, partial success naming what was rejected.
import type { IncomingMessage } from 'node:http';
import type { Signal } from '../../model/signal.js';
import { decodeOtlp, type Encoding } from '../../otlp/decode.js';
import { exportResponse } from '../../otlp/response.js';
import { mediaType } from '../../runtime/http.js';
import { discardedWhole, exactPaths, unreadBody, type BodyRows, type DecodeInput, type Done, type Protocol, type Route } from './protocol.js';
import { send } from './send.js';

const PROTOBUF_OFF = 'Only the OTLP JSON encoding is supported here: send OTLP JSON with Content-Type: application/json.';

const SKIPPED_PHRASE: Record<Signal, string> = {
  logs: 'some log records could not be parsed and were skipped',
  traces: 'some spans could not be parsed and were skipped',
  metrics: 'some data points could not be stored and were skipped',
};

/** The encoding a Content-Type names; undefined for any other (the body's first byte tells). */
export function namedEncoding(req: IncomingMessage): Encoding | undefined {
  const type = mediaType(req.headers['content-type']);
  if (type === 'application/json') return 'json';
  if (type === 'application/x-protobuf' || type === 'application/protobuf') return 'protobuf';
  return undefined;
}

/** OTLP JSON starts with `{` (after white space); anything else is taken for protobuf. */
function sniff(body: Buffer): Encoding {
  for (const byte of body) {
    if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0xef || byte === 0xbb || byte === 0xbf) continue;
    return byte === 0x7b ? 'json' : 'protobuf';
  }
  return 'json';
}

/** The partial-success message of an OTLP answer that rejected records: the limit a discarded body ran into, else what was skipped. */
export function otlpSkippedMessage(signal: Signal, done: Done): string {
  const whole = discardedWhole(done);
  if (whole !== undefined) return whole;
  const unreadable = done.body.unreadable === undefined ? '' : `; part of the body could not be read (${done.body.unreadable})`;
  return `${SKIPPED_PHRASE[signal]} (${done.rejected})${unreadable}`;
}

/** A body of `signal` in `encoding` (or the one its first byte suggests), read the other way when the guess reads nothing. */
export function decodeOtlpBody(signal: Signal, body: Buffer, requested: Encoding | undefined, protobufEnabled: boolean, input: Omit<DecodeInput, 'req'>): BodyRows {
  const keepSource = input.keepsSource(signal);
  let encoding = requested ?? sniff(body);
  if (encoding === 'protobuf' && !protobufEnabled) encoding = 'json';
  let decoded = decodeOtlp(signal, encoding, body, input.records, { keepSource });
  // A guess can be wrong (a protobuf body may begin with the byte of '{'): an unlabelled body that
  // could not be read at all one way is read the other way.
  if (requested === undefined && decoded.rows.length === 0 && decoded.unreadable !== undefined && protobufEnabled) {
    const other: Encoding = encoding === 'json' ? 'protobuf' : 'json';
    input.records.release();
    const retried = decodeOtlp(signal, other, body, input.records, { keepSource });
    if (retried.unreadable === undefined) [decoded, encoding] = [retried, other];
  }
  const { rows, ...facts } = decoded;
  return { ...facts, rows: { [signal]: rows }, encoding };
}

function otlpRoute(signal: Signal, protobufEnabled: boolean): Route {
  return {
    signals: [signal],
    refuse: (req) => (namedEncoding(req) === 'protobuf' && !protobufEnabled ? { status: 415, message: PROTOBUF_OFF, headers: { Connection: 'close' } } : undefined),
    decode(read, input) {
      const requested = namedEncoding(input.req);
      if (read.kind !== 'ok') return { ...unreadBody(read), encoding: requested ?? 'json' };
      return decodeOtlpBody(signal, read.body, requested, protobufEnabled, input);
    },
    answer(_req, res, done) {
      const partial = done.rejected === 0 ? undefined : { rejected: done.rejected, errorMessage: otlpSkippedMessage(signal, done) };
      const response = exportResponse(signal, done.body.encoding ?? 'json', partial);
      send(res, 200, response.contentType, response.body);
    },
  };
}

/** OTLP/HTTP on the given paths (path → signal). */
export function otlpProtocol(paths: readonly (readonly [string, Signal])[], protobufEnabled: boolean): Protocol {
  return exactPaths(new Map(paths.map(([path, signal]) => [path, otlpRoute(signal, protobufEnabled)])));
}
