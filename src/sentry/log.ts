// A `log` item (`application/vnd.sentry.items.log+json`: {"version": 2, "items": [...]}, the
// version absent in the SDKs' first containers) → one log row per item.
import { emptyLogRow } from '../model/building.js';
import type { DecodeContext } from './context.js';
import { spanId, traceId } from './ids.js';
import { itemOrigin } from './item-fields.js';
import { anyValue, isObject, nonEmpty, typedAttributes } from './json.js';
import { logSeverity } from './levels.js';
import { sentryTime } from './time.js';

/** The SDK's id of the span that was active when the log was written: the row's span id. */
const ACTIVE_SPAN = 'sentry.trace.parent_span_id';

/** Reads the payload of a `log` item: undefined when it could, else why not. */
export function logItem(context: DecodeContext, payload: unknown): string | undefined {
  const items = isObject(payload) ? payload['items'] : undefined;
  if (!Array.isArray(items)) return 'the payload is not a log container ({"items": [...]})';
  for (const item of items) logToRow(context, item);
  return undefined;
}

function logToRow(context: DecodeContext, value: unknown): void {
  context.record(() => {
    if (!isObject(value)) {
      context.out.skipped++;
      return;
    }
    const attributes = typedAttributes(value['attributes']);
    const { resource, scope } = itemOrigin(context, attributes, true);
    const row = emptyLogRow(resource, scope);
    row.attributes = attributes;
    const level = nonEmpty(value['level']) ?? '';
    row.severityText = level;
    row.severityNumber = logSeverity(level, value['severity_number']);
    const body = value['body'];
    row.body = typeof body === 'string' ? body : (anyValue(body) ?? null);
    row.timeUnixNano = sentryTime(value['timestamp']) ?? context.arrivalUnixNano;
    row.observedTimeUnixNano = context.arrivalUnixNano;
    row.traceId = traceId(value['trace_id']);
    row.spanId = spanId(value['span_id']);
    const active = spanId(attributes[ACTIVE_SPAN]);
    if (active !== '' && (row.spanId === '' || row.spanId === active)) {
      row.spanId = active;
      delete attributes[ACTIVE_SPAN];
    }
    context.out.logs.push(row);
  });
}
