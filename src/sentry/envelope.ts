// The envelope's framing (https://develop.sentry.dev/sdk/data-model/envelopes/): a header line of
// JSON, then items, each an item header line of JSON and a payload. With `length` in the item
// header the payload is exactly that many bytes (newlines and all), then an optional newline;
// without it, the payload runs to the next newline or the end. What cannot be read is lost on its
// own: the reader goes on with the next line it can make sense of.
import { isObject, type JsonObject } from './json.js';

const NEWLINE = 0x0a;
/** The most of a body envelopeDsnKey() reads for the header: headers are a few hundred bytes. */
const DSN_HEADER_MAX_BYTES = 64 * 1024;

function lineEnd(body: Buffer, from: number): number {
  const at = body.indexOf(NEWLINE, from);
  return at < 0 ? body.length : at;
}

/** Where the next item begins after a payload that ends at `stop`: past the newline that may follow it. */
function after(body: Buffer, stop: number): number {
  return body[stop] === NEWLINE ? stop + 1 : stop;
}

function blank(body: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const b = body[i];
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return false;
  }
  return true;
}

function objectAt(body: Buffer, start: number, end: number): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(body.toString('utf8', start, end));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export interface EnvelopeHeader {
  header: JsonObject;
  /** Where the items begin. */
  next: number;
  /** Why the header could not be read, when it could not ({} stands for it then). */
  problem?: string;
}

export function readEnvelopeHeader(body: Buffer): EnvelopeHeader {
  const end = lineEnd(body, 0);
  const header = objectAt(body, 0, end);
  const next = end + 1;
  if (header !== undefined) return { header, next };
  return { header: {}, next, problem: body.length === 0 ? 'the body is empty' : 'the envelope header is not a JSON object' };
}

/**
 * Reads one item's payload: undefined when it could, else why not. It must have done nothing when
 * it answers why not: an item whose `length` turns out to lie is offered again, read as a line.
 */
export type ItemReader = (type: string, header: JsonObject, payload: Buffer) => string | undefined;

/**
 * Calls `read` with each item from `from` on, and `lost` with each that could not be read: a
 * header that is not JSON (its payload, of unknown length, is taken to be the next line), a
 * header without a type, a payload `read` refused.
 *
 * A `length` may lie (or the envelope was cut short). One that runs past the end is not used: the
 * payload is read as a line. One whose bytes `read` refuses is tried again as a line (up to the
 * first newline), which is the payload when the length was too short, or took in the items after
 * it; the reader goes on after whichever was read.
 */
export function readItems(body: Buffer, from: number, read: ItemReader, lost: (why: string) => void): void {
  let pos = from;
  let n = 0;
  while (pos < body.length) {
    const end = lineEnd(body, pos);
    if (blank(body, pos, end)) {
      pos = end + 1;
      continue;
    }
    n++;
    const header = objectAt(body, pos, end);
    const start = Math.min(end + 1, body.length);
    const line = lineEnd(body, start);
    if (header === undefined) {
      lost(`item ${n}: its header is not a JSON object`);
      pos = line + 1;
      continue;
    }
    let stop = line;
    let asLine: number | undefined;
    const length = header['length'];
    if (typeof length === 'number' && Number.isSafeInteger(length) && length >= 0 && start + length <= body.length) {
      stop = start + length;
      if (stop !== line) asLine = line;
    }
    const type = header['type'];
    if (typeof type !== 'string') {
      lost(`item ${n}: its header has no type`);
      pos = after(body, stop);
      continue;
    }
    let why = read(type, header, body.subarray(start, stop));
    if (why !== undefined && asLine !== undefined && read(type, header, body.subarray(start, asLine)) === undefined) {
      stop = asLine;
      why = undefined;
    }
    if (why !== undefined) lost(`item ${n} (${type}): ${why}`);
    pos = after(body, stop);
  }
}

/** The public key of the envelope header's `dsn` (`https://<key>@host/<id>`), reading only the first line. */
export function envelopeDsnKey(body: Buffer): string | undefined {
  const end = body.indexOf(NEWLINE);
  if (end < 0 ? body.length > DSN_HEADER_MAX_BYTES : end > DSN_HEADER_MAX_BYTES) return undefined;
  const dsn = objectAt(body, 0, end < 0 ? body.length : end)?.['dsn'];
  if (typeof dsn !== 'string') return undefined;
  try {
    const key = decodeURIComponent(new URL(dsn).username);
    return key === '' ? undefined : key;
  } catch {
    return undefined;
  }
}
