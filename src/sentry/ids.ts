// Trace, span and event ids as the rows keep them: lower-case hex of the right length, else ''.
import { normalizeHex } from '../otlp/hex.js';

function hexId(value: unknown, chars: number): string {
  if (typeof value !== 'string' || value.length !== chars) return '';
  const hex = normalizeHex(value);
  // An all-zero id is the OTel spelling of "no id".
  return hex === undefined || /^0+$/.test(hex) ? '' : hex;
}

export const traceId = (value: unknown): string => hexId(value, 32);

export const spanId = (value: unknown): string => hexId(value, 16);

/** An event id: 32 hex digits, also as a UUID with hyphens (older SDKs wrote them so); undefined otherwise. */
export function eventId(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const id = hexId(value.length === 36 ? value.replace(/^(\w{8})-(\w{4})-(\w{4})-(\w{4})-(\w{12})$/, '$1$2$3$4$5') : value, 32);
  return id === '' ? undefined : id;
}
