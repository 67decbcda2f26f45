// A simple JSON record's values as JSON.parse gives them → the texts and attribute maps of a row.
// The byte reader (read.ts) makes the same texts and maps without JSON.parse, and comes back here
// for the values whose JavaScript reading it does not repeat (read.ts says which).
import { newAttributes, type MutableAttributes } from '../model/anyvalue.js';

export type JsonObject = Record<string, unknown>;

export const isJsonObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value as text: strings as they are, objects and arrays as JSON, anything else as String() writes it. */
export function jsonText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Nested objects become dotted keys; every value becomes a string (arrays as JSON). */
export function flatten(value: JsonObject, into: MutableAttributes = newAttributes(), prefix = ''): MutableAttributes {
  for (const [key, inner] of Object.entries(value)) {
    const name = prefix === '' ? key : `${prefix}.${key}`;
    if (isJsonObject(inner)) flatten(inner, into, name);
    else into[name] = inner === null ? 'null' : jsonText(inner);
  }
  return into;
}
