// The JSON of Sentry payloads → JS values, and values → AnyValue: plain JSON values (tags, span
// data) and the typed attributes of log and span v2 items ({"value", "type"}).
import { deeper, newAttributes, type AnyValue, type MutableAttributes } from '../model/anyvalue.js';
import { ShapeError } from '../otlp/json/reader.js';

export type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

// Every integer beyond 2^53 has at least 16 digits: text with no such run reads exactly with
// JSON.parse alone. The reviver that keeps them exact makes parsing about 8 times slower, so it
// runs only for text with such a run (most of which are ids or times in strings, read the same).
const LONG_DIGITS = /(?<![\d.])\d{16}/;
const INTEGER = /^-?\d+$/;

function exactIntegers(_key: string, value: unknown, context?: { source?: string }): unknown {
  if (typeof value !== 'number' || Number.isSafeInteger(value) || !Number.isInteger(value)) return value;
  const source = context?.source;
  return source !== undefined && INTEGER.test(source) ? BigInt(source) : value;
}

/**
 * JSON.parse, but an integer written beyond 2^53 is a bigint holding what it says (on Node 21 and
 * later, which give a reviver the source text; otherwise the nearest double). Throws SyntaxError.
 */
export function parseJson(text: string): unknown {
  return LONG_DIGITS.test(text) ? JSON.parse(text, exactIntegers) : JSON.parse(text);
}

/** A string field; anything else is absent. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A non-empty string field; anything else is absent. */
export function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Text for a scalar that stands for a name or an id (a user id sent as a number, a tag value sent as a boolean). */
export function scalarText(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'bigint':
    case 'boolean':
      return String(value);
    default:
      return undefined;
  }
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Beyond int64 an integer is no OTLP int: it is kept as the double nearest it. */
function integer(value: bigint): AnyValue {
  return value >= INT64_MIN && value <= INT64_MAX ? value : Number(value);
}

const PUBLIC_KEY = /(sentry-public_key=)[^,;\s]*/g;

/**
 * The SDKs copy the DSN's key into the `baggage` they propagate, and record request headers as
 * span data: the key, an otelgate API key, would be stored where any reader of the project sees
 * it. Only its name is kept.
 */
function scrubbed(text: string): string {
  return text.includes('sentry-public_key=') ? text.replace(PUBLIC_KEY, '$1[redacted]') : text;
}

/** How deep anyValue() is in lists and maps (decoding is synchronous: one value at a time). */
const depth = { now: 0 };
const tooDeep = (message: string): Error => new ShapeError(message);

/**
 * A plain JSON value as an AnyValue: a number without a fraction is an int, any other a double;
 * lists and maps nest up to MAX_ANY_VALUE_DEPTH (deeper throws ShapeError: the record is skipped).
 * Undefined for what JSON cannot hold.
 */
export function anyValue(value: unknown): AnyValue | undefined {
  switch (typeof value) {
    case 'string':
      return scrubbed(value);
    case 'boolean':
      return value;
    case 'number':
      return Number.isSafeInteger(value) ? BigInt(value) : value;
    case 'bigint':
      return integer(value);
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) return deeper(depth, tooDeep, () => value.map((item) => anyValue(item) ?? null));
      const map = value as JsonObject;
      return deeper(depth, tooDeep, () => plainAttributes(map));
    }
    default:
      return undefined;
  }
}

/** Each member whose value is not null as an attribute (Sentry drops null data too). */
export function plainAttributes(map: JsonObject, into: MutableAttributes = newAttributes()): MutableAttributes {
  for (const key of Object.keys(map)) {
    const value = anyValue(map[key]);
    if (value !== undefined && value !== null) into[key] = value;
  }
  return into;
}

/**
 * A typed attribute as the SDKs write them, `{"value", "type": "string"|"integer"|"double"|"boolean"|"array"}`
 * (`unit` is not kept), with its type: an integer is an int (exactly, up to int64), a double a double
 * even when whole. A value that does not fit its type, or a plain value (an older SDK's), is read as
 * plain JSON.
 */
function typedValue(attribute: unknown): AnyValue | undefined {
  if (!isObject(attribute) || !Object.hasOwn(attribute, 'value')) return anyValue(attribute);
  const value = attribute['value'];
  switch (attribute['type']) {
    case 'string':
      if (typeof value === 'string') return scrubbed(value);
      break;
    case 'integer':
      if (typeof value === 'bigint') return integer(value);
      if (typeof value === 'number' && Number.isInteger(value)) return integer(BigInt(value));
      break;
    case 'double':
      if (typeof value === 'number') return value;
      if (typeof value === 'bigint') return Number(value);
      break;
    case 'boolean':
      if (typeof value === 'boolean') return value;
      break;
  }
  return anyValue(value);
}

/** The typed attributes of a log or span v2 item. */
export function typedAttributes(value: unknown): MutableAttributes {
  const into = newAttributes();
  if (!isObject(value)) return into;
  for (const key of Object.keys(value)) {
    const attribute = typedValue(value[key]);
    if (attribute !== undefined && attribute !== null) into[key] = attribute;
  }
  return into;
}
