// OTLP's AnyValue as plain JS values, chosen so that every OTLP type survives a round trip:
// string, boolean, double (number), int64 (bigint), bytes (Uint8Array), array, kvlist, and empty (null).
export type AnyValue = string | boolean | number | bigint | Uint8Array | AnyValue[] | Attributes | null;

/**
 * A map of attributes. Always created by newAttributes(): its prototype chain holds no members
 * (no Object.prototype), so keys such as "__proto__" and "constructor" are ordinary keys.
 */
export interface Attributes {
  [key: string]: AnyValue;
}

// Not Object.create(null): V8 makes such objects hash tables from the start, and filling one was
// a quarter of protobuf decoding. Over an empty frozen prototype they get fast properties.
const NO_MEMBERS: object = Object.freeze(Object.create(null));

export function newAttributes(): Attributes {
  return Object.create(NO_MEMBERS) as Attributes;
}

export function isAttributes(value: AnyValue): value is Attributes {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}
