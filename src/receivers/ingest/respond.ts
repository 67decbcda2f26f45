// The answers of the ingest interface, with the bodies the contract fixes.
import type { ServerResponse } from 'node:http';
import { send, type Answers } from '../helper/send.js';

export const MESSAGES = {
  unauthorized: 'API key invalid.',
  unavailable: 'Log storage is temporarily unavailable. Please retry.',
} as const;

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

export const ingestAnswers: Answers = {
  refuse: (_req, res, status, message, headers) => sendMessage(res, status, message, headers),
  unauthorized: (_req, res) => sendMessage(res, 401, MESSAGES.unauthorized, { Connection: 'close' }),
  unavailable: (_req, res, headers) => sendUnavailable(res, headers),
};
