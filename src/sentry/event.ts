// An error or message event → one log row.
import { emptyLogRow } from '../model/building.js';
import type { DecodeContext } from './context.js';
import { eventAttributes, eventResource, eventScope, tagsOf } from './event-fields.js';
import { spanId, traceId } from './ids.js';
import { isObject, nonEmpty, str, type JsonObject } from './json.js';
import { EVENT_DEFAULT_LEVEL, levelSeverity } from './levels.js';
import { exceptionsOf, framesOf, headline, stackText, styleOf, type SentryException } from './stacktrace.js';
import { sentryTime } from './time.js';

/** The message: `message` (text, or the older {formatted, message} object), else `logentry`. */
function messageOf(event: JsonObject): string | undefined {
  const message = event['message'];
  if (typeof message === 'string' && message !== '') return message;
  for (const entry of [message, event['logentry']]) {
    if (!isObject(entry)) continue;
    const text = nonEmpty(entry['formatted']) ?? nonEmpty(entry['message']);
    if (text !== undefined) return text;
  }
  return undefined;
}

/**
 * The stack of where a message was reported, when the SDK attached one: the synthetic exception
 * the JavaScript SDKs send with messages, else the crashed, current or first thread's stack (as
 * Python's attach_stacktrace sends it).
 */
function callSite(event: JsonObject, outermost: SentryException | undefined): SentryException | undefined {
  if (outermost?.synthetic === true) return { ...outermost, type: '', value: '' };
  const threads = event['threads'];
  const values = isObject(threads) ? threads['values'] : threads;
  if (!Array.isArray(values)) return undefined;
  const withStack = values.filter((thread): thread is JsonObject => isObject(thread) && isObject(thread['stacktrace']));
  const thread = withStack.find((t) => t['crashed'] === true) ?? withStack.find((t) => t['current'] === true) ?? withStack[0];
  if (thread === undefined) return undefined;
  return { type: '', value: '', frames: framesOf(thread['stacktrace']), source: undefined, synthetic: true };
}

export function eventToLog(context: DecodeContext, event: JsonObject): void {
  context.record(() => mapEvent(context, event));
}

function mapEvent(context: DecodeContext, event: JsonObject): void {
  const tags = tagsOf(event);
  const row = emptyLogRow(eventResource(context, event, tags), eventScope(context, event));
  const attributes = row.attributes;
  eventAttributes(event, tags, attributes);
  const style = styleOf(str(event['platform']));
  const chain = exceptionsOf(event['exception']);
  const outermost = chain.at(-1);
  const real = outermost !== undefined && !outermost.synthetic ? outermost : undefined;
  if (real !== undefined) {
    if (real.type !== '') attributes['exception.type'] = real.type;
    if (real.value !== '') attributes['exception.message'] = real.value;
    const stack = stackText(style, chain.filter((exception) => !exception.synthetic));
    if (stack !== '') attributes['exception.stacktrace'] = stack;
  }
  const site = callSite(event, outermost);
  if (site !== undefined && site.frames.length > 0) attributes['code.stacktrace'] = stackText(style, [site]);
  const transaction = nonEmpty(event['transaction']);
  if (transaction !== undefined) attributes['sentry.transaction'] = transaction;
  const logger = nonEmpty(event['logger']);
  if (logger !== undefined) attributes['sentry.logger'] = logger;

  const level = nonEmpty(event['level']) ?? EVENT_DEFAULT_LEVEL;
  row.severityText = level;
  row.severityNumber = levelSeverity(level);
  row.body = messageOf(event) ?? nonEmpty(real === undefined ? outermost?.value : headline(real)) ?? null;
  row.timeUnixNano = sentryTime(event['timestamp']) ?? context.arrivalUnixNano;
  row.observedTimeUnixNano = context.arrivalUnixNano;
  const contexts = event['contexts'];
  const trace = isObject(contexts) && isObject(contexts['trace']) ? contexts['trace'] : {};
  row.traceId = traceId(trace['trace_id']);
  row.spanId = spanId(trace['span_id']);
  context.out.logs.push(row);
}
