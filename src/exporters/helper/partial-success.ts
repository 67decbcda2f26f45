// The partial_success of an OTLP Export*ServiceResponse, the body of a 2xx: how many records the
// backend rejected of an accepted request, and why. One reader for all signals: the protobuf
// field numbers are the same in each, and JSON names the count after the signal.
import { Reader, WIRE_LEN, WIRE_VARINT, WireError } from '../../otlp/wire.js';
import { mediaType } from '../../runtime/http.js';
import { boundedText, isProtobuf } from './backend-message.js';
import type { PartialSuccess } from './outcome.js';

/** What a 2xx body says: a partial success, none (`{}`), or why it could not be read. */
export type PartialSuccessReading = { partial?: PartialSuccess } | { unreadable: string };

// protojson accepts both spellings of every field.
const REJECTED_KEYS = ['rejectedLogRecords', 'rejected_log_records', 'rejectedSpans', 'rejected_spans', 'rejectedDataPoints', 'rejected_data_points'];

function found(rejected: number, message: string): PartialSuccessReading {
  // The spec: a partial_success with neither a count nor a message means full success.
  return rejected === 0 && message === '' ? {} : { partial: { rejected, message: boundedText(message) } };
}

function fromProtobuf(body: Buffer): PartialSuccessReading {
  const r = new Reader(body, 0, body.length);
  let rejected = 0;
  let message = '';
  while (r.more(body.length)) {
    const tag = r.varint();
    if (tag >>> 3 !== 1 || (tag & 7) !== WIRE_LEN) {
      r.skip(tag & 7);
      continue;
    }
    const end = r.delimited();
    while (r.more(end)) {
      const inner = r.varint();
      if (inner >>> 3 === 1 && (inner & 7) === WIRE_VARINT) rejected = r.varint();
      else if (inner >>> 3 === 2 && (inner & 7) === WIRE_LEN) message = r.string();
      else r.skip(inner & 7);
    }
  }
  return found(rejected, message);
}

function count(value: unknown): number | undefined {
  // int64 is a string in protojson; numbers are accepted too.
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

function fromJson(body: Buffer): PartialSuccessReading {
  const parsed: unknown = JSON.parse(body.toString('utf8'));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { unreadable: 'the JSON body is not an object' };
  const top = parsed as Record<string, unknown>;
  const partial = top['partialSuccess'] ?? top['partial_success'];
  if (partial === undefined || partial === null) return {};
  if (typeof partial !== 'object' || Array.isArray(partial)) return { unreadable: 'partialSuccess is not an object' };
  const fields = partial as Record<string, unknown>;
  let rejected = 0;
  for (const key of REJECTED_KEYS) {
    if (fields[key] === undefined) continue;
    const n = count(fields[key]);
    if (n === undefined) return { unreadable: `partialSuccess.${key} is not a count` };
    rejected = n;
  }
  const message = fields['errorMessage'] ?? fields['error_message'] ?? '';
  if (typeof message !== 'string') return { unreadable: 'partialSuccess.errorMessage is not a string' };
  return found(rejected, message);
}

/** Reads a 2xx body by its Content-Type; a body of another type (or none) says nothing, as in the Collector. */
export function readPartialSuccess(body: Buffer, contentType: string | undefined): PartialSuccessReading {
  if (body.length === 0) return {};
  const type = mediaType(contentType);
  try {
    if (isProtobuf(type)) return fromProtobuf(body);
    if (type === 'application/json') return fromJson(body);
  } catch (error) {
    if (error instanceof WireError || error instanceof SyntaxError) return { unreadable: `the ${isProtobuf(type) ? 'protobuf' : 'JSON'} body could not be parsed: ${error.message}` };
    throw error;
  }
  return {};
}
