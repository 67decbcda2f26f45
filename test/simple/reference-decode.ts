// The simple JSON log endpoint's decoder as it was before the byte reader (src/simple/read.ts):
// JSON.parse, then the object mapped to rows. Kept unchanged as the tests' reference: whatever it
// answers for a body is what the endpoint answers.
import { newAttributes, type Attributes, type MutableAttributes } from '../../src/model/anyvalue.js';
import type { LogRow } from '../../src/model/logs.js';
import type { Resource, Scope } from '../../src/model/resource.js';
import { normalizeHex } from '../../src/otlp/hex.js';
import { discarded, RecordBudget, TooManyRecords, type Decoded } from '../../src/otlp/result.js';
import { severityNumber } from '../../src/simple/levels.js';
import { parseTimestamp } from './reference-time.js';

type JsonObject = Record<string, unknown>;

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first alias present (not undefined or null). */
function pick(o: JsonObject, names: readonly string[]): unknown {
  for (const name of names) {
    const value = o[name];
    if (value !== undefined && value !== null) return value;
  }
  return undefined;
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Nested objects become dotted keys; every value becomes a string (arrays as JSON). */
function flatten(value: JsonObject, into: MutableAttributes = newAttributes(), prefix = ''): Attributes {
  for (const [key, inner] of Object.entries(value)) {
    const name = prefix === '' ? key : `${prefix}.${key}`;
    if (isObject(inner)) flatten(inner, into, name);
    else into[name] = inner === null ? 'null' : text(inner);
  }
  return into;
}

const emptyScope = (name: string): Scope => ({ name, version: '', attributes: newAttributes(), droppedAttributesCount: 0, schemaUrl: '' });

export function referenceDecodeSimpleLogs(body: Buffer, arrivalUnixNano: bigint, records = new RecordBudget(Number.POSITIVE_INFINITY)): Decoded<'logs'> {
  let root: unknown;
  try {
    const source = body.toString('utf8');
    root = JSON.parse(source.charCodeAt(0) === 0xfeff ? source.slice(1) : source);
  } catch (error) {
    return { rows: [], skipped: 1, unreadable: `not JSON: ${(error as Error).message}` };
  }
  const items = Array.isArray(root) ? root : [root];
  if (items.length > records.limit) return discarded(new TooManyRecords(records.limit));
  const resources = new Map<string, Resource>();
  const scopes = new Map<string, Scope>();
  const out: Decoded<'logs'> = { rows: [], skipped: 0 };
  for (const item of items) {
    records.count();
    // One record that cannot be mapped (nesting too deep to flatten, say) is skipped on its own.
    try {
      const row = toRow(item, arrivalUnixNano, resources, scopes);
      if (row === undefined) out.skipped++;
      else out.rows.push(row);
    } catch {
      out.skipped++;
    }
  }
  return out;
}

/**
 * A row's trace and span ids mean one thing everywhere: lower-case hex, or ''. A client's id that
 * is hex of the right length, in any case, is that id; the text as sent ("stored as given", the
 * contract says) is kept in the record's attribute `trace_id`/`span_id` whenever it differs from
 * that hex (another case, or not an id at all: a request id, say), where a Collector's json_parser
 * would leave it too. The field wins over a context key of the same name.
 */
function id(value: unknown, bytes: number, attribute: string, attributes: MutableAttributes): string {
  if (value === undefined || value === null) return '';
  const sent = text(value);
  if (sent === '') return '';
  const hex = sent.length === bytes * 2 ? normalizeHex(sent) : undefined;
  if (hex !== sent) attributes[attribute] = sent;
  return hex ?? '';
}

/** The row for one item, or undefined when it has no usable message (or is not an object). */
function toRow(item: unknown, arrivalUnixNano: bigint, resources: Map<string, Resource>, scopes: Map<string, Scope>): LogRow | undefined {
  if (!isObject(item)) return undefined;
  const message = pick(item, ['message', 'body']);
  if (message === undefined) return undefined;
  const service = pick(item, ['service', 'service_name']);
  const serviceName = service === undefined ? '' : text(service);
  let resource = resources.get(serviceName);
  if (resource === undefined) {
    const attributes = newAttributes();
    if (serviceName !== '') attributes['service.name'] = serviceName;
    resources.set(serviceName, (resource = { attributes, droppedAttributesCount: 0, schemaUrl: '' }));
  }
  const scopeValue = item['scope'];
  const scopeName = scopeValue === undefined || scopeValue === null ? '' : text(scopeValue);
  let scope = scopes.get(scopeName);
  if (scope === undefined) scopes.set(scopeName, (scope = emptyScope(scopeName)));
  const level = pick(item, ['level', 'severity']);
  const severityText = level === undefined ? '' : text(level);
  const context = pick(item, ['context', 'attributes']);
  const traceId = pick(item, ['trace_id', 'traceId']);
  const spanId = pick(item, ['span_id', 'spanId']);
  const event = item['event'];
  const attributes = isObject(context) ? flatten(context) : newAttributes();
  const row: LogRow = {
    resource,
    scope,
    timeUnixNano: parseTimestamp(pick(item, ['timestamp', 'time'])) ?? arrivalUnixNano,
    observedTimeUnixNano: arrivalUnixNano,
    severityNumber: typeof level === 'string' ? severityNumber(level) : 0,
    severityText,
    body: text(message),
    attributes,
    droppedAttributesCount: 0,
    flags: 0,
    traceId: id(traceId, 16, 'trace_id', attributes),
    spanId: id(spanId, 8, 'span_id', attributes),
    eventName: event === undefined || event === null ? '' : text(event),
  };
  return row;
}
