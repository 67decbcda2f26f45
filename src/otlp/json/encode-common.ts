// OTLP common messages to OTLP/JSON: AnyValue, KeyValue lists, Resource, InstrumentationScope, and
// the Export*ServiceRequest nesting around records. As the OTLP/JSON spec has it: lowerCamelCase
// names, 64-bit integers as decimal strings, ids as hex, bytes as base64, enums as integers; and
// every field the protobuf encoder leaves out is left out here, so the two encodings say the same.
import type { AnyValue, Attributes } from '../../model/anyvalue.js';
import type { Resource, Scope } from '../../model/resource.js';
import type { JsonWriter } from './writer.js';

export function writeAnyValue(w: JsonWriter, value: AnyValue): void {
  w.open();
  switch (typeof value) {
    case 'string':
      w.key('stringValue');
      w.string(value);
      break;
    case 'boolean':
      w.key('boolValue');
      w.bool(value);
      break;
    case 'bigint':
      w.key('intValue');
      w.quoted(value.toString());
      break;
    case 'number':
      w.key('doubleValue');
      w.double(value);
      break;
    default:
      if (value === null) break;
      if (value instanceof Uint8Array) {
        w.key('bytesValue');
        w.quoted(Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64'));
      } else if (Array.isArray(value)) {
        const values = value as readonly AnyValue[];
        w.key('arrayValue');
        w.open();
        if (values.length > 0) {
          w.key('values');
          w.openArray();
          for (const item of values) {
            w.item();
            writeAnyValue(w, item);
          }
          w.closeArray();
        }
        w.close();
      } else {
        w.key('kvlistValue');
        w.open();
        writeAttributes(w, 'values', value as Attributes);
        w.close();
      }
  }
  w.close();
}

/** A map as a repeated KeyValue member; nothing for an empty one. */
export function writeAttributes(w: JsonWriter, name: string, attributes: Attributes): void {
  const keys = Object.keys(attributes);
  if (keys.length === 0) return;
  w.key(name);
  w.openArray();
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    w.item();
    w.open();
    writeString(w, 'key', key);
    w.key('value');
    writeAnyValue(w, attributes[key] as AnyValue);
    w.close();
  }
  w.closeArray();
}

export function writeString(w: JsonWriter, name: string, text: string): void {
  if (text === '') return;
  w.key(name);
  w.string(text);
}

/** A 32-bit integer or enum, as a JSON number. */
export function writeInt(w: JsonWriter, name: string, n: number): void {
  if (n === 0) return;
  w.key(name);
  w.raw(String(n));
}

/** A 64-bit integer (a time, a count), as a decimal string. */
export function writeInt64(w: JsonWriter, name: string, n: bigint | number): void {
  if (n === 0n || n === 0) return;
  w.key(name);
  w.quoted(n.toString());
}

/** A double without presence: left out when +0 only, as the protobuf encoder does. */
export function writeDouble(w: JsonWriter, name: string, n: number): void {
  if (n === 0 && !Object.is(n, -0)) return;
  w.key(name);
  w.double(n);
}

export function writeOptionalDouble(w: JsonWriter, name: string, n: number | undefined): void {
  if (n === undefined) return;
  w.key(name);
  w.double(n);
}

/** An id: already lower-case hex, which is what OTLP/JSON sends. */
export function writeId(w: JsonWriter, name: string, hex: string): void {
  if (hex === '') return;
  w.key(name);
  w.quoted(hex);
}

function writeResource(w: JsonWriter, resource: Resource): void {
  w.key('resource');
  w.open();
  writeAttributes(w, 'attributes', resource.attributes);
  writeInt(w, 'droppedAttributesCount', resource.droppedAttributesCount);
  w.close();
}

function writeScope(w: JsonWriter, scope: Scope): void {
  w.key('scope');
  w.open();
  writeString(w, 'name', scope.name);
  writeString(w, 'version', scope.version);
  writeAttributes(w, 'attributes', scope.attributes);
  writeInt(w, 'droppedAttributesCount', scope.droppedAttributesCount);
  w.close();
}

/** The names of one signal's nesting, e.g. resourceLogs, scopeLogs, logRecords. */
export interface ExportNames {
  resources: string;
  scopes: string;
  records: string;
}

/** An Export*ServiceRequest; `records` writes a scope's records, each after w.item(). */
export function writeExport<C>(w: JsonWriter, names: ExportNames, groups: Map<Resource, Map<Scope, C>>, records: (w: JsonWriter, children: C) => void): void {
  w.open();
  if (groups.size > 0) {
    w.key(names.resources);
    w.openArray();
    for (const [resource, scopes] of groups) {
      w.item();
      w.open();
      writeResource(w, resource);
      w.key(names.scopes);
      w.openArray();
      for (const [scope, children] of scopes) {
        w.item();
        w.open();
        writeScope(w, scope);
        w.key(names.records);
        w.openArray();
        records(w, children);
        w.closeArray();
        writeString(w, 'schemaUrl', scope.schemaUrl);
        w.close();
      }
      w.closeArray();
      writeString(w, 'schemaUrl', resource.schemaUrl);
      w.close();
    }
    w.closeArray();
  }
  w.close();
}
