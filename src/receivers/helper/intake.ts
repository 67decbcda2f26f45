// What every receiver does with a body once it has it, whatever carried it (HTTP, gRPC): decode it
// into rows within the request's record budget, hand them to the pipeline as one batch, wait for
// the pipeline's answer and count the outcome. The transport only turns the outcome into its answer.
import type { Counter, Meter } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { Principal } from '../../auth/authenticator.js';
import { errorMessage, isRetryable } from '../../errors.js';
import { batchOf } from '../../model/batch.js';
import type { Signal } from '../../model/signal.js';
import { decodeOtlp, type Encoding } from '../../otlp/decode.js';
import { OutOfBudget, type Decoded, type RecordBudget } from '../../otlp/result.js';
import type { ConsumeContext, Consumer } from '../../runtime/component.js';
import { decodeSimpleLogs } from '../../simple/decode.js';
import { signalCounters, type SignalCounters } from '../../telemetry/counters.js';

/** What a body is: OTLP (JSON or protobuf) of a signal, or the simple JSON logs of the ingest interface. */
export type BodyFormat = { format: 'otlp'; signal: Signal } | { format: 'simple'; signal: 'logs' };

/** A body as the transport could read it: whole, or why not (too large, or corrupt in its compression). */
export type ReadOutcome = { kind: 'ok'; body: Buffer } | { kind: 'too_large' } | { kind: 'corrupt'; reason: string };

/**
 * Bytes of the in-flight budget a decoded row holds: an empty log row measured about 400 bytes of
 * heap (objects, attribute map, bigints). Rows count against the budget as they are decoded.
 */
export const ROW_COST = 400;

/** Own metrics, when enabled: records accepted and refused (the Collector's), and skipped as unreadable. */
export interface IntakeCounts {
  accepted: SignalCounters;
  refused: SignalCounters;
  skipped: Counter;
  attributes: Record<string, string>;
}

export function intakeCounts(meter: Meter, attributes: Record<string, string>): IntakeCounts {
  return {
    accepted: signalCounters(meter, 'otelcol_receiver_accepted', 'Records handed to the pipelines'),
    refused: signalCounters(meter, 'otelcol_receiver_refused', 'Records the pipelines refused (answered retry later)'),
    skipped: meter.createCounter('otelgate_receiver_skipped_records', { description: 'Records that could not be read or mapped, skipped and counted in the answer' }),
    attributes,
  };
}

export interface IntakeOptions {
  protobufEnabled: boolean;
  counts: IntakeCounts | undefined;
  logger: Logger;
}

/** A request authenticated and read, to be decoded and handed on. */
export interface Delivery {
  route: BodyFormat;
  consumer: Consumer;
  ctx: ConsumeContext;
  principal: Principal;
  /** The encoding the request names (its Content-Type), if any: else it is told by the body's first byte. */
  requested: Encoding | undefined;
  read: ReadOutcome;
  /** When it was taken (receivedUnixNano). */
  arrival: bigint;
  records: RecordBudget;
}

/** What the answer needs of a decoded body, its rows aside. */
export type DecodeFacts = Omit<Decoded<Signal>, 'rows'>;

/**
 * How a delivery ended. `busy`: the in-flight budget ran out while decoding; `unavailable`: the
 * pipeline refused the batch for now; both are answered "retry later". `done`: answered with
 * counts, `rejected` records refused for good (skipped as unreadable, or refused permanently).
 */
export type Outcome =
  | { kind: 'busy' }
  | { kind: 'unavailable'; reason: string }
  | { kind: 'done'; encoding: Encoding | undefined; facts: DecodeFacts; rows: number; rejected: number; tooLarge: boolean };

/** A body decoded and its rows handed on: `consumed` is the pipeline's answer (undefined: no rows). */
interface Handed {
  encoding: Encoding | undefined;
  facts: DecodeFacts;
  rows: number;
  consumed: Promise<void> | undefined;
}

/** OTLP JSON starts with `{` (after white space); anything else is taken for protobuf. */
function sniff(body: Buffer): Encoding {
  for (const byte of body) {
    if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0xef || byte === 0xbb || byte === 0xbf) continue;
    return byte === 0x7b ? 'json' : 'protobuf';
  }
  return 'json';
}

/**
 * Decodes the body and hands its rows to the pipeline, in a plain function: an async one would
 * hold the rows until the pipeline answers, and rows kept alive across a queue's disk write
 * survive the young generation's collections, which made them cost forwarding as much as
 * twice the collection time (rows in flight held 4 MB at each scavenge instead of 0.2 MB).
 */
function handOn(options: IntakeOptions, delivery: Delivery): Handed | 'busy' {
  const { route, consumer, ctx, principal, read, arrival, records } = delivery;
  let encoding = delivery.requested;
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
      options.logger.warn({ err: error, signal: route.signal }, 'Decoder failed on a body; counting it as unreadable');
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

/** Decodes, hands on, waits for the pipeline and counts. The caller still owns `records` and the body's bytes. */
export async function deliver(options: IntakeOptions, delivery: Delivery): Promise<Outcome> {
  const { route, read } = delivery;
  const handed = handOn(options, delivery);
  if (handed === 'busy') return { kind: 'busy' };
  const { encoding, facts, rows, consumed } = handed;

  let rejected = facts.skipped;
  const { counts } = options;
  if (facts.skipped > 0) counts?.skipped.add(facts.skipped, { ...counts.attributes, signal: route.signal });
  if (consumed !== undefined) {
    try {
      await consumed;
      counts?.accepted[route.signal].add(rows, counts.attributes);
    } catch (error) {
      counts?.refused[route.signal].add(rows, counts.attributes);
      if (isRetryable(error)) return { kind: 'unavailable', reason: errorMessage(error) };
      rejected += rows;
    }
  }
  return { kind: 'done', encoding, facts, rows, rejected, tooLarge: read.kind === 'too_large' };
}

const SKIPPED_PHRASE: Record<Signal, string> = {
  logs: 'some log records could not be parsed and were skipped',
  traces: 'some spans could not be parsed and were skipped',
  metrics: 'some data points could not be stored and were skipped',
};

/** Why a body was discarded whole, if it was: it ran into a limit, whatever it held, and nothing of it was kept. */
function discardedWhole(facts: DecodeFacts, tooLarge: number | undefined): string | undefined {
  if (tooLarge !== undefined) return `the request body exceeds the ${tooLarge}-byte limit on decompressed bodies and was discarded whole`;
  if (facts.tooMany !== undefined) return `the request holds more than ${facts.tooMany} records, the most one request may carry, and was discarded whole`;
  return undefined;
}

/**
 * The answer's message when records were rejected: the limit a discarded body ran into, else what
 * records need. `tooLarge` is the body cap when the body went over it.
 */
export function skippedMessage(route: BodyFormat, facts: DecodeFacts, rejected: number, tooLarge: number | undefined): string {
  const simple = route.format === 'simple';
  const whole = discardedWhole(facts, tooLarge);
  if (whole !== undefined) return simple ? `${whole.charAt(0).toUpperCase()}${whole.slice(1)}.` : whole;
  const unreadable = facts.unreadable === undefined ? '' : `; part of the body could not be read (${facts.unreadable})`;
  if (simple) return `${rejected} record${rejected === 1 ? ' was' : 's were'} skipped: each needs a "message" (or "body"), and the body must be JSON${unreadable}.`;
  return `${SKIPPED_PHRASE[route.signal]} (${rejected})${unreadable}`;
}
