// google.rpc.Status, the error answer of OTLP: the body of an OTLP/HTTP 4xx or 5xx (protobuf or
// JSON, as the request was) and the grpc-status-details-bin trailer of an OTLP/gRPC error. A
// "retry later" carries a RetryInfo detail, which is what tells OTLP clients how long to wait.
import { Reader, WIRE_LEN, WIRE_VARINT, WireError } from './wire.js';
import { Writer } from './protobuf/writer.js';
import type { Encoding } from './decode.js';

/** gRPC status codes by number. */
export const GRPC_CODE_NAMES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
] as const;

/** The number of a gRPC status code by its name. */
export function grpcCode(name: (typeof GRPC_CODE_NAMES)[number]): number {
  return GRPC_CODE_NAMES.indexOf(name);
}

const RETRY_INFO_TYPE = 'type.googleapis.com/google.rpc.RetryInfo';

export interface Status {
  code: number;
  message: string;
  /** A RetryInfo detail: wait this many seconds before sending again. */
  retryAfterSeconds?: number;
}

/** The gRPC code of an HTTP status, as the Collector maps them (statusutil.NewStatusFromMsgAndHTTPCode). */
export function grpcCodeOf(httpStatus: number): number {
  switch (httpStatus) {
    case 400:
      return grpcCode('INVALID_ARGUMENT');
    case 401:
      return grpcCode('UNAUTHENTICATED');
    case 404:
      return grpcCode('UNIMPLEMENTED');
    case 429:
      return grpcCode('RESOURCE_EXHAUSTED');
    case 502:
    case 503:
    case 504:
      return grpcCode('UNAVAILABLE');
    default:
      return grpcCode('UNKNOWN');
  }
}

export function statusProtobuf(status: Status): Buffer {
  const out = new Writer(256);
  if (status.code !== 0) {
    out.tag(1, WIRE_VARINT);
    out.int32(status.code);
  }
  if (status.message !== '') {
    out.tag(2, WIRE_LEN);
    out.string(status.message);
  }
  if (status.retryAfterSeconds !== undefined) {
    const any = out.begin(3);
    out.tag(1, WIRE_LEN);
    out.string(RETRY_INFO_TYPE);
    const retryInfo = out.begin(2);
    const delay = out.begin(1);
    out.tag(1, WIRE_VARINT);
    out.varint(status.retryAfterSeconds);
    out.end(delay);
    out.end(retryInfo);
    out.end(any);
  }
  return out.finish();
}

export function statusJson(status: Status): string {
  const json: Record<string, unknown> = { code: status.code, message: status.message };
  if (status.retryAfterSeconds !== undefined) json['details'] = [{ '@type': RETRY_INFO_TYPE, retryDelay: `${status.retryAfterSeconds}s` }];
  return JSON.stringify(json);
}

export function statusBody(status: Status, encoding: Encoding): { contentType: string; body: Buffer | string } {
  return encoding === 'protobuf' ? { contentType: 'application/x-protobuf', body: statusProtobuf(status) } : { contentType: 'application/json', body: statusJson(status) };
}

/**
 * The retry delay a google.rpc.Status asks for (its RetryInfo detail), in milliseconds; undefined
 * when it has no RetryInfo or cannot be read. A RetryInfo without a delay is 0: "retry", unhurried.
 */
export function retryDelayMs(status: Buffer): number | undefined {
  const r = new Reader(status, 0, status.length);
  try {
    while (r.more(status.length)) {
      const tag = r.varint();
      if (tag !== ((3 << 3) | WIRE_LEN)) {
        r.skip(tag & 7);
        continue;
      }
      const anyEnd = r.delimited();
      let type = '';
      let valueStart = 0;
      let valueEnd = 0;
      while (r.more(anyEnd)) {
        const field = r.varint();
        if (field === ((1 << 3) | WIRE_LEN)) type = r.string();
        else if (field === ((2 << 3) | WIRE_LEN)) {
          valueEnd = r.delimited();
          valueStart = r.pos;
          r.pos = valueEnd;
        } else r.skip(field & 7);
      }
      if (type === RETRY_INFO_TYPE) return durationOf(status, valueStart, valueEnd);
    }
  } catch (error) {
    if (error instanceof WireError) return undefined;
    throw error;
  }
  return undefined;
}

/** RetryInfo { Duration retry_delay = 1 } → milliseconds. */
function durationOf(buf: Buffer, start: number, end: number): number {
  const r = new Reader(buf, start, end);
  let ms = 0;
  while (r.more(end)) {
    const field = r.varint();
    if (field !== ((1 << 3) | WIRE_LEN)) {
      r.skip(field & 7);
      continue;
    }
    const durationEnd = r.delimited();
    while (r.more(durationEnd)) {
      const inner = r.varint();
      if (inner === ((1 << 3) | WIRE_VARINT)) ms += r.varint() * 1000;
      else if (inner === ((2 << 3) | WIRE_VARINT)) ms += r.varint() / 1e6;
      else r.skip(inner & 7);
    }
  }
  return ms;
}
