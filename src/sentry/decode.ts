// What a Sentry SDK posts → OTel log and span rows: an envelope (`/api/<id>/envelope/`) or, from
// older SDKs, one event (`/api/<id>/store/`). The mapping is docs/sentry.md's.
import type { RecordBudget } from '../otlp/result.js';
import { DecodeContext, sdkOf, type SentryDecoded } from './context.js';
import { readEnvelopeHeader, readItems } from './envelope.js';
import { eventToLog } from './event.js';
import { eventId } from './ids.js';
import { isObject, parseJson } from './json.js';
import { logItem } from './log.js';
import { spanItem } from './span.js';
import { transactionToSpans } from './transaction.js';

export type { SentryDecoded } from './context.js';
export { envelopeDsnKey } from './envelope.js';

/**
 * The item types Sentry knows that otelgate accepts without storing, counted under their names;
 * any other type is counted as `unknown`, so that what a client writes there cannot grow the
 * names otelgate's metrics count under.
 */
const IGNORED_TYPES = new Set([
  'attachment',
  'check_in',
  'client_report',
  'feedback',
  'form_data',
  'metric',
  'metric_buckets',
  'nel',
  'otel_log',
  'otel_span',
  'otel_traces_data',
  'profile',
  'profile_chunk',
  'raw_security',
  'replay_event',
  'replay_recording',
  'replay_video',
  'security',
  'session',
  'sessions',
  'statsd',
  'trace_metric',
  'unreal_report',
  'user_report',
]);
const UNKNOWN_TYPE = 'unknown';

function notJson(what: string, error: unknown): string {
  return `${what} is not JSON: ${(error as Error).message}`;
}

/** One item's payload → rows: undefined when it could be read, else why not (and nothing was done). */
function readItem(context: DecodeContext, type: string, payload: Buffer): string | undefined {
  if (type !== 'event' && type !== 'transaction' && type !== 'log' && type !== 'span') {
    const name = IGNORED_TYPES.has(type) ? type : UNKNOWN_TYPE;
    context.out.ignored[name] = (context.out.ignored[name] ?? 0) + 1;
    return undefined;
  }
  let value: unknown;
  try {
    value = parseJson(payload.toString('utf8'));
  } catch (error) {
    return notJson('the payload', error);
  }
  switch (type) {
    case 'log':
      return logItem(context, value);
    case 'span':
      return spanItem(context, value);
    default:
      if (!isObject(value)) return 'the payload is not a JSON object';
      context.out.eventId ??= eventId(value['event_id']);
      if (type === 'event') eventToLog(context, value);
      else transactionToSpans(context, value);
      return undefined;
  }
}

export function decodeSentryEnvelope(body: Buffer, arrivalUnixNano: bigint, budget: RecordBudget): SentryDecoded {
  const { header, next, problem } = readEnvelopeHeader(body);
  const context = new DecodeContext(arrivalUnixNano, budget, sdkOf(header['sdk']));
  if (problem !== undefined) context.out.unreadable = problem;
  context.out.eventId = eventId(header['event_id']);
  readItems(
    body,
    next,
    (type, _header, payload) => readItem(context, type, payload),
    (why) => context.lost(why),
  );
  return context.out;
}

/** The legacy store endpoint: the body is one event (JSON). */
export function decodeSentryStore(body: Buffer, arrivalUnixNano: bigint, budget: RecordBudget): SentryDecoded {
  const context = new DecodeContext(arrivalUnixNano, budget, undefined);
  let value: unknown;
  try {
    value = parseJson(body.toString('utf8'));
  } catch (error) {
    context.lost(notJson('the body', error));
    return context.out;
  }
  if (!isObject(value)) {
    context.lost('the body is not a JSON object');
    return context.out;
  }
  context.out.eventId = eventId(value['event_id']);
  if (value['type'] === 'transaction') transactionToSpans(context, value);
  else eventToLog(context, value);
  return context.out;
}
