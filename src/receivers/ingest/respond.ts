// The answers of the ingest interface, with the bodies the contract fixes.
import type { ServerResponse } from 'node:http';

export const MESSAGES = {
  unauthorized: 'API key invalid.',
  unavailable: 'Log storage is temporarily unavailable. Please retry.',
  protobufOff: 'Only the OTLP JSON encoding is supported here: send OTLP JSON with Content-Type: application/json.',
} as const;

export function send(res: ServerResponse, status: number, contentType: string, body: Buffer, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': String(body.length), ...headers });
  res.end(body);
}

export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  send(res, status, 'application/json', Buffer.from(JSON.stringify(value)), headers);
}

export function sendMessage(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { message }, headers);
}

/** A storage or pipeline problem: 503 so that clients keep the data and retry. */
export function sendUnavailable(res: ServerResponse, headers: Record<string, string> = {}): void {
  sendMessage(res, 503, MESSAGES.unavailable, { 'Retry-After': '5', ...headers });
}
