// The OTLP/HTTP export response, in the encoding of the request: `{}` or a partialSuccess object
// as JSON, or Export*ServiceResponse as protobuf (an empty message for full success).
import type { Signal } from '../model/signal.js';
import type { Encoding } from './decode.js';

const REJECTED_FIELD: Record<Signal, string> = { logs: 'rejectedLogRecords', traces: 'rejectedSpans', metrics: 'rejectedDataPoints' };

export interface PartialSuccess {
  rejected: number;
  errorMessage: string;
}

function varint(value: number, out: number[]): void {
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

function encodeProtobuf(partial: PartialSuccess): Buffer {
  const message = Buffer.from(partial.errorMessage, 'utf8');
  const inner: number[] = [];
  if (partial.rejected > 0) {
    inner.push(0x08);
    varint(partial.rejected, inner);
  }
  if (message.length > 0) {
    inner.push(0x12);
    varint(message.length, inner);
  }
  const head: number[] = [0x0a];
  varint(inner.length + message.length, head);
  return Buffer.concat([Buffer.from(head), Buffer.from(inner), message]);
}

export function exportResponse(signal: Signal, encoding: Encoding, partial: PartialSuccess | undefined): { contentType: string; body: Buffer | string } {
  if (encoding === 'protobuf') {
    return { contentType: 'application/x-protobuf', body: partial === undefined ? Buffer.alloc(0) : encodeProtobuf(partial) };
  }
  const json = partial === undefined ? {} : { partialSuccess: { [REJECTED_FIELD[signal]]: partial.rejected, errorMessage: partial.errorMessage } };
  return { contentType: 'application/json', body: JSON.stringify(json) };
}
