// google.rpc.Status, the error answer of OTLP: the body of an OTLP/HTTP 4xx or 5xx (protobuf or
// JSON, as the request was) and the grpc-status-details-bin trailer of an OTLP/gRPC error. A
// "retry later" carries a RetryInfo detail, which is what tells OTLP clients how long to wait.
import { WIRE_LEN, WIRE_VARINT } from './wire.js';
import { Writer } from './protobuf/writer.js';
import type { Encoding } from './decode.js';

/** The gRPC status codes otelgate answers with. */
export const GRPC = {
  OK: 0,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  RESOURCE_EXHAUSTED: 8,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
} as const;

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
      return GRPC.INVALID_ARGUMENT;
    case 401:
      return GRPC.UNAUTHENTICATED;
    case 404:
      return GRPC.UNIMPLEMENTED;
    case 429:
      return GRPC.RESOURCE_EXHAUSTED;
    case 502:
    case 503:
    case 504:
      return GRPC.UNAVAILABLE;
    default:
      return GRPC.UNKNOWN;
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
