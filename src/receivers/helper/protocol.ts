// A protocol a receiver speaks over HTTP: which paths are its, how a request presents its key, how a
// body becomes rows of one or more signals, and how it is answered. The handler (http-handler.ts)
// does what every protocol shares: routing across protocols, CORS, authentication before the body
// is read, content negotiation, reading the body within its caps, the hand-off to the pipelines.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RowOf } from '../../model/batch.js';
import type { Signal } from '../../model/signal.js';
import type { Encoding } from '../../otlp/decode.js';
import type { RecordBudget } from '../../otlp/result.js';
import type { ContentEncoding } from './body.js';
import type { ReadOutcome } from './intake.js';

export interface Protocol {
  /** The route a request path is in this protocol, or undefined when the path is not one of its. */
  route(path: string): Route | undefined;
  /** Its paths as a 404 lists them. */
  readonly paths: readonly string[];
}

/** Rows of each signal a body held, and what its reading tells the answer. */
export interface BodyRows {
  rows: { [S in Signal]?: RowOf<S>[] };
  /** Records that could not be read or mapped, plus 1 for a body (or part) too broken to count records in. */
  skipped: number;
  /** Why the body, or part of it, could not be read at all. */
  unreadable?: string | undefined;
  /** Set (to the limit) when the body held more records than one request may: discarded whole. */
  tooMany?: number | undefined;
  /** The encoding an OTLP body was read as: its answer is written in it. */
  encoding?: Encoding | undefined;
  /** The event id an error-reporting SDK is answered with. */
  eventId?: string | undefined;
  /** Items taken but not stored (a Sentry SDK's sessions, client reports, …), by type: counted in own metrics. */
  ignored?: Record<string, number> | undefined;
}

/** What decoding a body may use besides the body. */
export interface DecodeInput {
  req: IncomingMessage;
  /** When the request was taken (ns since the epoch). */
  arrival: bigint;
  /** Bounds the rows one body may become; throws DecodeAbort (TooManyRecords, OutOfBudget). */
  records: RecordBudget;
  /** Whether the consumer of `signal` sends OTLP protobuf on, so that a protobuf body is kept whole with its rows. */
  keepsSource(signal: Signal): boolean;
}

/** How a request was handled, for its answer: its rows taken, or refused for good. */
export interface Done {
  body: Omit<BodyRows, 'rows'>;
  /** Rows handed to the pipelines. */
  rows: number;
  /** Records refused for good: skipped as unreadable, or refused permanently by a pipeline. */
  rejected: number;
  /** The body cap, when the body went over it and was discarded whole. */
  tooLarge: number | undefined;
}

export interface Route {
  /** The signals its bodies may hold, each handed to its pipeline: with none of them in a pipeline, the path is 404. */
  readonly signals: readonly Signal[];
  /** The key a request presents in a way of this protocol's own (besides Authorization and X-Service-Key), from its headers and URL. */
  key?(req: IncomingMessage): string | undefined;
  /** The key a body names, for a request that presented none: read after the body, before any of it is decoded. */
  keyInBody?(body: Buffer): string | undefined;
  /** Content-Encodings taken besides identity; the receiver's compression_algorithms when not given. */
  readonly encodings?: readonly ContentEncoding[];
  /** Refuses a request before its body is read (a 415 for an encoding switched off): status, message and headers. */
  refuse?(req: IncomingMessage): { status: number; message: string; headers?: Record<string, string> } | undefined;
  /** The body's rows: throws only DecodeAbort. A body over the cap or corrupt in its compression comes as `read` says. */
  decode(read: ReadOutcome, input: DecodeInput): BodyRows;
  answer(req: IncomingMessage, res: ServerResponse, done: Done): void;
}

/** A protocol of exact paths, each one route. */
export function exactPaths(routes: ReadonlyMap<string, Route>): Protocol {
  return { route: (path) => routes.get(path), paths: [...routes.keys()] };
}

/** Why a body was discarded whole, if it was: it ran into a limit, whatever it held, and nothing of it was kept. */
export function discardedWhole(done: Done): string | undefined {
  if (done.tooLarge !== undefined) return `the request body exceeds the ${done.tooLarge}-byte limit on decompressed bodies and was discarded whole`;
  if (done.body.tooMany !== undefined) return `the request holds more than ${done.body.tooMany} records, the most one request may carry, and was discarded whole`;
  return undefined;
}

/** A body the transport could not read whole (over the cap, corrupt in its compression): one record skipped, and why. */
export function unreadBody(read: Exclude<ReadOutcome, { kind: 'ok' }>): BodyRows {
  return { rows: {}, skipped: 1, unreadable: read.kind === 'too_large' ? 'too large' : read.reason };
}
