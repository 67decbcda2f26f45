// OTLP's AnyValue as plain JS values, chosen so that every OTLP type survives a round trip:
// string, boolean, double (number), int64 (bigint), bytes (Uint8Array), array, kvlist, and empty (null).
export type AnyValue = string | boolean | number | bigint | Uint8Array | AnyValue[] | Attributes | null;

/**
 * A map of attributes. Always created by newAttributes(): a null prototype keeps keys such as
 * "__proto__" and "constructor" ordinary. (A member-less prototype of our own would give fast-mode
 * objects, 10-25 % faster to fill when every record has the same keys in the same order, but 2-4
 * times slower when keys vary: V8 builds a new object layout for every new key order.)
 */
export interface Attributes {
  [key: string]: AnyValue;
}

export function newAttributes(): Attributes {
  return Object.create(null) as Attributes;
}

export function isAttributes(value: AnyValue): value is Attributes {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}
