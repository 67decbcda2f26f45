// Writing an HTTP answer, and what a receiver's HTTP side answers besides an export response.
import type { IncomingMessage, ServerResponse } from 'node:http';

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

/**
 * The answers that are not an export response, in the receiver's own form: the ingest
 * interface's `{"message": …}`, or OTLP/HTTP's Status message.
 */
export interface Answers {
  /** A request refused as it is (401, 404, 405, 415), with what to do instead. */
  refuse(req: IncomingMessage, res: ServerResponse, status: number, message: string, headers?: Record<string, string>): void;
  /** The key is missing or unknown. */
  unauthorized(req: IncomingMessage, res: ServerResponse): void;
  /** Nothing was kept; the client should send it again: 503 with Retry-After. */
  unavailable(req: IncomingMessage, res: ServerResponse, headers?: Record<string, string>): void;
}
