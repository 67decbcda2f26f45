// The answers of the ingest interface, with the bodies the contract fixes.
import type { ServerResponse } from 'node:http';

export const MESSAGES = {
  unauthorized: 'API key invalid.',
  unavailable: 'Log storage is temporarily unavailable. Please retry.',
  protobufOff: 'Only the OTLP JSON encoding is supported here: send OTLP JSON with Content-Type: application/json.',
} as const;

/**
 * Text bodies go out as strings and an empty body as none: Node then writes the headers and the
 * body in one write() rather than a writev() of two buffers, which measurably cost small requests.
 */
export function send(res: ServerResponse, status: number, contentType: string, body: string | Buffer, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': String(length), ...headers });
  if (length === 0) res.end();
  else res.end(body);
}

export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  send(res, status, 'application/json', JSON.stringify(value), headers);
}

export function sendMessage(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { message }, headers);
}

/** A storage or pipeline problem: 503 so that clients keep the data and retry. */
export function sendUnavailable(res: ServerResponse, headers: Record<string, string> = {}): void {
  sendMessage(res, 503, MESSAGES.unavailable, { 'Retry-After': '5', ...headers });
}
