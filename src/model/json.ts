// OTLP values as JSON text: the read API writes them once when a row is stored and splices them
// into every answer, and the loki exporter writes them into lines. Each OTLP type stays
// recognisable: a double always has a fraction or exponent (1.0), an int64 never does (1) and is
// a decimal string beyond 2^53, bytes are base64, and NaN and the infinities are the strings OTLP
// JSON uses for them.
import { isAttributes, type AnyValue, type Attributes } from './anyvalue.js';

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export function doubleJson(value: number): string {
  if (Number.isNaN(value)) return '"NaN"';
  if (value === Infinity) return '"Infinity"';
  if (value === -Infinity) return '"-Infinity"';
  if (Object.is(value, -0)) return '-0.0';
  const text = String(value);
  return text.includes('.') || text.includes('e') ? text : `${text}.0`;
}

export function intJson(value: bigint): string {
  return value > SAFE || value < -SAFE ? `"${value}"` : String(value);
}

export function anyValueJson(value: AnyValue): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return doubleJson(value);
    case 'bigint':
      return intJson(value);
    default:
      if (value === null) return 'null';
      if (value instanceof Uint8Array) return `"${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64')}"`;
      if (isAttributes(value)) return attributesJson(value);
      return `[${value.map(anyValueJson).join(',')}]`;
  }
}

export function attributesJson(attributes: Attributes): string {
  let out = '{';
  let first = true;
  for (const key in attributes) {
    out += `${first ? '' : ','}${JSON.stringify(key)}:${anyValueJson(attributes[key] as AnyValue)}`;
    first = false;
  }
  return `${out}}`;
}

/** A log body as the read API shows it: a string as itself, anything else as its JSON text, none as ''. */
export function bodyText(body: AnyValue): string {
  if (typeof body === 'string') return body;
  if (body === null) return '';
  return isAttributes(body) || Array.isArray(body) ? anyValueJson(body) : anyValueJson(body).replace(/^"|"$/g, '');
}

/** An attribute's value as the text of a label (Prometheus, Loki) or of Loki's structured metadata: text as itself, others as their JSON; undefined for none. */
export function valueText(value: AnyValue | undefined): string | undefined {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'bigint':
    case 'boolean':
      return String(value);
    case 'undefined':
      return undefined;
    default:
      return value === null ? undefined : anyValueJson(value);
  }
}
