// What every receiver does with a body once it has it, whatever carried it (HTTP, gRPC) and
// whatever protocol it speaks: decode it into rows within the request's record budget, hand each
// signal's rows to its pipeline as one batch, wait for the pipelines' answers and count the
// outcome. The transport and the protocol only turn the outcome into their answer.
import type { Counter, Meter } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { Principal } from '../../auth/authenticator.js';
import { errorMessage, isRetryable } from '../../errors.js';
import { batchOf } from '../../model/batch.js';
import { SIGNALS, type Signal } from '../../model/signal.js';
import { OutOfBudget, TooManyRecords } from '../../otlp/result.js';
import type { ConsumeContext, Consumer } from '../../runtime/component.js';
import { signalCounters, type SignalCounters } from '../../telemetry/counters.js';
import type { BodyRows } from './protocol.js';

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
  ignored: Counter;
  attributes: Record<string, string>;
}

export function intakeCounts(meter: Meter, attributes: Record<string, string>): IntakeCounts {
  return {
    accepted: signalCounters(meter, 'otelcol_receiver_accepted', 'Records handed to the pipelines', attributes),
    refused: signalCounters(meter, 'otelcol_receiver_refused', 'Records the pipelines refused (answered retry later)', attributes),
    skipped: meter.createCounter('otelgate_receiver_skipped_records', { description: 'Records that could not be read or mapped, skipped and counted in the answer' }),
    ignored: meter.createCounter('otelgate_receiver_ignored_items', { description: 'Items a protocol takes but does not store (a Sentry SDK\'s sessions, client reports, …), by type' }),
    attributes,
  };
}

export interface IntakeOptions {
  counts: IntakeCounts | undefined;
  logger: Logger;
}

/** A request authenticated and read, to be decoded and handed on. */
export interface Delivery {
  /** The body → rows, called once, by the plain function that hands them on (handOn). */
  decode: () => BodyRows;
  /** The signal that records skipped are counted under (own metrics). */
  signal: Signal;
  consumers: Partial<Record<Signal, Consumer>>;
  ctx: ConsumeContext;
  principal: Principal;
  /** When it was taken (receivedUnixNano). */
  arrival: bigint;
}

/**
 * How a delivery ended. `busy`: the in-flight budget ran out while decoding; `unavailable`: a
 * pipeline refused its batch for now; both are answered "retry later". `done`: answered with
 * counts, `rejected` records refused for good (skipped as unreadable, or refused permanently).
 */
export type Outcome =
  | { kind: 'busy' }
  | { kind: 'unavailable'; signal: Signal; reason: string }
  | { kind: 'done'; body: Omit<BodyRows, 'rows'>; rows: number; rejected: number };

/** A body decoded and its rows handed on: each signal's rows and the pipeline's answer. */
interface Handed {
  body: Omit<BodyRows, 'rows'>;
  consumed: { signal: Signal; rows: number; answer: Promise<void> }[];
}

/**
 * Decodes the body and hands its rows to the pipelines, in a plain function: an async one would
 * hold the rows until the pipeline answers, and rows kept alive across a queue's disk write
 * survive the young generation's collections, which made them cost forwarding as much as
 * twice the collection time (rows in flight held 4 MB at each scavenge instead of 0.2 MB).
 */
function handOn(options: IntakeOptions, delivery: Delivery): Handed | 'busy' {
  const { consumers, ctx, principal, arrival } = delivery;
  let decoded: BodyRows;
  try {
    decoded = delivery.decode();
  } catch (error) {
    if (error instanceof OutOfBudget) return 'busy';
    if (error instanceof TooManyRecords) decoded = { rows: {}, skipped: 1, unreadable: error.message, tooMany: error.limit };
    else {
      options.logger.warn({ err: error, signal: delivery.signal }, 'Decoder failed on a body; counting it as unreadable');
      decoded = { rows: {}, skipped: 1, unreadable: 'the body could not be decoded' };
    }
  }
  const { rows, ...body } = decoded;
  const consumed: Handed['consumed'] = [];
  for (const signal of SIGNALS) {
    const list = rows[signal];
    if (list === undefined || list.length === 0) continue;
    const consumer = consumers[signal];
    // A body of several signals (a Sentry envelope) may hold one that no pipeline of this receiver takes.
    if (consumer === undefined) {
      body.skipped += list.length;
      continue;
    }
    let answer: Promise<void>;
    try {
      // Exclusive: every decoder makes each row and its attributes map afresh (model/building.ts, the simple and Sentry readers).
      answer = consumer.consume(batchOf(signal, principal.project, arrival, list, true), ctx);
    } catch (error) {
      answer = Promise.reject(error);
    }
    consumed.push({ signal, rows: list.length, answer });
  }
  return { body, consumed };
}

/** Decodes, hands on, waits for the pipelines and counts. The caller still owns the record budget and the body's bytes. */
export async function deliver(options: IntakeOptions, delivery: Delivery): Promise<Outcome> {
  const handed = handOn(options, delivery);
  if (handed === 'busy') return { kind: 'busy' };
  const { body, consumed } = handed;
  const { counts } = options;
  if (body.skipped > 0) counts?.skipped.add(body.skipped, { ...counts.attributes, signal: delivery.signal });
  if (counts !== undefined && body.ignored !== undefined) for (const [type, n] of Object.entries(body.ignored)) counts.ignored.add(n, { ...counts.attributes, type });
  let rows = 0;
  let rejected = body.skipped;
  let retry: { signal: Signal; reason: string } | undefined;
  for (const { signal, rows: count, answer } of consumed) {
    try {
      await answer;
      counts?.accepted[signal].add(count);
      rows += count;
    } catch (error) {
      counts?.refused[signal].add(count);
      if (isRetryable(error)) retry ??= { signal, reason: errorMessage(error) };
      else rejected += count;
    }
  }
  if (retry !== undefined) return { kind: 'unavailable', ...retry };
  return { kind: 'done', body, rows, rejected };
}
