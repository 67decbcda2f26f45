// node:http's createServer, through require(). An ESM import of node:http builds the module's
// namespace, and so reads the WebSocket, CloseEvent and MessageEvent getters Node 24 has on it,
// which load undici (Node's fetch client): 15 MB more RSS in a bare process, 4 MiB in otelgate at
// 10 k records/s, for code that nothing here runs.
import { createRequire } from 'node:module';

const http = createRequire(import.meta.url)('node:http') as typeof import('node:http');

export const createServer: typeof http.createServer = http.createServer;
export const STATUS_CODES: typeof http.STATUS_CODES = http.STATUS_CODES;

/** The media type of a Content-Type value, lower-case and without parameters. */
export function mediaType(contentType: string | undefined): string {
  if (contentType === undefined) return '';
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}
