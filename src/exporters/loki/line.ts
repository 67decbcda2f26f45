// The line of a Loki entry, in the three forms the Collector's loki exporter writes: the body as
// text (raw), the whole record as JSON, or the whole record as logfmt, with the Collector's keys.
import { isAttributes, type AnyValue, type Attributes } from '../../model/anyvalue.js';
import { anyValueJson, attributesJson, bodyText } from '../../model/json.js';
import type { LogRow } from '../../model/logs.js';

export type LineFormat = 'raw' | 'json' | 'logfmt';

export function lineOf(format: LineFormat, row: LogRow): string {
  switch (format) {
    case 'raw':
      return bodyText(row.body);
    case 'json':
      return jsonLine(row);
    case 'logfmt':
      return logfmtLine(row);
  }
}

function isEmpty(attributes: Attributes): boolean {
  for (const _ in attributes) return false;
  return true;
}

/** The Collector's lokiEntry: body, traceid, spanid, severity, flags, attributes, resources, instrumentation_scope; empty ones left out. */
function jsonLine(row: LogRow): string {
  const members: string[] = [];
  if (row.body !== null) members.push(`"body":${anyValueJson(row.body)}`);
  if (row.traceId !== '') members.push(`"traceid":"${row.traceId}"`);
  if (row.spanId !== '') members.push(`"spanid":"${row.spanId}"`);
  if (row.severityText !== '') members.push(`"severity":${JSON.stringify(row.severityText)}`);
  if (row.flags !== 0) members.push(`"flags":${row.flags}`);
  if (!isEmpty(row.attributes)) members.push(`"attributes":${attributesJson(row.attributes)}`);
  if (!isEmpty(row.resource.attributes)) members.push(`"resources":${attributesJson(row.resource.attributes)}`);
  if (row.scope.name !== '') {
    const version = row.scope.version === '' ? '' : `,"version":${JSON.stringify(row.scope.version)}`;
    members.push(`"instrumentation_scope":{"name":${JSON.stringify(row.scope.name)}${version}}`);
  }
  return `{${members.join(',')}}`;
}

/**
 * The Collector's logfmt line: a text body as msg, a map body's entries by their keys (nested keys
 * joined with "_"), then traceID, spanID, severity, flags, attribute_<key>, resource_<key> and the
 * scope. (The Collector also reads a text body that is itself logfmt into its pairs; otelgate
 * keeps it as msg, since nearly any text reads as logfmt.)
 */
function logfmtLine(row: LogRow): string {
  const pairs: string[] = [];
  const body = row.body;
  if (body !== null) {
    if (isAttributes(body)) flatten(pairs, '', body);
    else if (Array.isArray(body)) flatten(pairs, 'body', body);
    else pair(pairs, 'msg', bodyText(body));
  }
  if (row.traceId !== '') pair(pairs, 'traceID', row.traceId);
  if (row.spanId !== '') pair(pairs, 'spanID', row.spanId);
  if (row.severityText !== '') pair(pairs, 'severity', row.severityText);
  if (row.flags !== 0) pair(pairs, 'flags', String(row.flags));
  for (const key in row.attributes) flatten(pairs, `attribute_${key}`, row.attributes[key] as AnyValue);
  for (const key in row.resource.attributes) flatten(pairs, `resource_${key}`, row.resource.attributes[key] as AnyValue);
  if (row.scope.name !== '') {
    pair(pairs, 'instrumentation_scope_name', row.scope.name);
    if (row.scope.version !== '') pair(pairs, 'instrumentation_scope_version', row.scope.version);
  }
  return pairs.join(' ');
}

/** Maps and arrays become one pair per leaf, keys joined with "_" (array items by index); an empty value none. */
function flatten(pairs: string[], key: string, value: AnyValue): void {
  if (value === null) return;
  if (isAttributes(value)) {
    for (const inner in value) flatten(pairs, key === '' ? inner : `${key}_${inner}`, value[inner] as AnyValue);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item: AnyValue, index: number) => flatten(pairs, key === '' ? String(index) : `${key}_${index}`, item));
    return;
  }
  pair(pairs, key, bodyText(value));
}

// go-logfmt's rules: a key may not hold a space, "=" or '"' (they become "_" here, where go-logfmt
// would refuse the key); a value with a space or control character, "=" or '"' is quoted, with
// JSON's escapes.
const BAD_KEY = /[\s="]/g;
const NEEDS_QUOTES = /[\u0000-\u0020="\u007f\ufffd]/;

function pair(pairs: string[], key: string, value: string): void {
  const name = key === '' ? '_' : key.replace(BAD_KEY, '_');
  pairs.push(`${name}=${NEEDS_QUOTES.test(value) || value === 'null' ? JSON.stringify(value) : value}`);
}
