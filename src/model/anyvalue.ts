// OTLP's AnyValue as plain JS values, chosen so that every OTLP type survives a round trip:
// string, boolean, double (number), int64 (bigint), bytes (Uint8Array), array, kvlist, and empty (null).
export type AnyValue = string | boolean | number | bigint | Uint8Array | AnyValue[] | Attributes | null;

/** A map of attributes. Always created by newAttributes(): a null prototype keeps keys such as "__proto__" ordinary. */
export interface Attributes {
  [key: string]: AnyValue;
}

const NO_MEMBERS: object = Object.freeze(Object.create(null));

export function newAttributes(): Attributes {
  return Object.create(NO_MEMBERS) as Attributes;
}

export function isAttributes(value: AnyValue): value is Attributes {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}
