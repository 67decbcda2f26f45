// OTLP common messages to OTLP/JSON text: AnyValue, KeyValue lists, Resource, InstrumentationScope,
// and the Export*ServiceRequest nesting. As the OTLP/JSON spec has it: lowerCamelCase names,
// 64-bit integers as decimal strings, ids as hex, bytes as base64, enums as integers, and every
// field left out that the protobuf encoder leaves out, so the two encodings say the same.
// Members are written as `,"name":value` and joined into an object by object().
import type { AnyValue, Attributes } from '../../model/anyvalue.js';
import type { Resource, Scope } from '../../model/resource.js';

export const quote = (text: string): string => JSON.stringify(text);

/** `{…}` around members each written with a leading comma. */
export function object(members: string): string {
  return members === '' ? '{}' : `{${members.slice(1)}}`;
}

/** A double as JSON: NaN and the infinities as the strings proto3's JSON mapping gives them, -0 kept. */
export function double(n: number): string {
  if (Number.isFinite(n)) return Object.is(n, -0) ? '-0' : String(n);
  return `"${n}"`;
}

export function anyValue(value: AnyValue): string {
  switch (typeof value) {
    case 'string':
      return `{"stringValue":${quote(value)}}`;
    case 'boolean':
      return value ? '{"boolValue":true}' : '{"boolValue":false}';
    case 'bigint':
      return `{"intValue":"${value}"}`;
    case 'number':
      return `{"doubleValue":${double(value)}}`;
  }
  if (value === null) return '{}';
  if (value instanceof Uint8Array) return `{"bytesValue":"${base64(value)}"}`;
  if (Array.isArray(value)) {
    const values = value as readonly AnyValue[];
    return values.length === 0 ? '{"arrayValue":{}}' : `{"arrayValue":{"values":[${values.map(anyValue).join(',')}]}}`;
  }
  const list = keyValues(value as Attributes);
  return list === '' ? '{"kvlistValue":{}}' : `{"kvlistValue":{"values":[${list}]}}`;
}

export function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** KeyValue objects joined by commas; '' for an empty map. */
function keyValues(attributes: Attributes): string {
  let out = '';
  for (const key in attributes) {
    out += `${out === '' ? '' : ','}{${key === '' ? '' : `"key":${quote(key)},`}"value":${anyValue(attributes[key] as AnyValue)}}`;
  }
  return out;
}

/** A map as a repeated KeyValue member; nothing for an empty one. */
export function attributes(name: string, map: Attributes): string {
  const list = keyValues(map);
  return list === '' ? '' : `,"${name}":[${list}]`;
}

export function string(name: string, text: string): string {
  return text === '' ? '' : `,"${name}":${quote(text)}`;
}

/** A 32-bit integer or enum member, as a JSON number. */
export function int(name: string, n: number): string {
  return n === 0 ? '' : `,"${name}":${n}`;
}

/** A 64-bit integer member (times, counts), as a decimal string. */
export function int64(name: string, n: bigint | number): string {
  return n === 0n || n === 0 ? '' : `,"${name}":"${n}"`;
}

/** A double without presence: left out when +0 only, as the protobuf encoder does. */
export function doubleMember(name: string, n: number): string {
  return n === 0 && !Object.is(n, -0) ? '' : `,"${name}":${double(n)}`;
}

export function optionalDouble(name: string, n: number | undefined): string {
  return n === undefined ? '' : `,"${name}":${double(n)}`;
}

/** An id: already lower-case hex, which is what OTLP/JSON sends. */
export function id(name: string, hex: string): string {
  return hex === '' ? '' : `,"${name}":"${hex}"`;
}

/** A list member of objects; nothing when empty. */
export function list(name: string, items: readonly string[]): string {
  return items.length === 0 ? '' : `,"${name}":[${items.join(',')}]`;
}

function resource(r: Resource): string {
  return object(attributes('attributes', r.attributes) + int('droppedAttributesCount', r.droppedAttributesCount));
}

function scope(s: Scope): string {
  return object(string('name', s.name) + string('version', s.version) + attributes('attributes', s.attributes) + int('droppedAttributesCount', s.droppedAttributesCount));
}

/** The names of one signal's nesting, e.g. resourceLogs, scopeLogs, logRecords. */
export interface ExportNames {
  resources: string;
  scopes: string;
  records: string;
}

/** An Export*ServiceRequest as JSON text; `records` writes a scope's records, comma-joined, '' for none. */
export function exportJson<C>(names: ExportNames, groups: Map<Resource, Map<Scope, C>>, records: (children: C) => string): string {
  let out = '';
  for (const [res, scopes] of groups) {
    let scopeList = '';
    for (const [sc, children] of scopes) {
      const inner = records(children);
      const members = `,"scope":${scope(sc)}${inner === '' ? '' : `,"${names.records}":[${inner}]`}${string('schemaUrl', sc.schemaUrl)}`;
      scopeList += `${scopeList === '' ? '' : ','}${object(members)}`;
    }
    const members = `,"resource":${resource(res)}${scopeList === '' ? '' : `,"${names.scopes}":[${scopeList}]`}${string('schemaUrl', res.schemaUrl)}`;
    out += `${out === '' ? '' : ','}${object(members)}`;
  }
  return out === '' ? '{}' : `{"${names.resources}":[${out}]}`;
}
