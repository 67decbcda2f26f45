// node:http's createServer, through require(). An ESM import of node:http builds the module's
// namespace, and so reads the WebSocket, CloseEvent and MessageEvent getters Node 24 has on it,
// which load undici (Node's fetch client): 15 MB more RSS in a bare process, 4 MiB in otelgate at
// 10 k records/s, for code that nothing here runs.
import { createRequire } from 'node:module';

const http = createRequire(import.meta.url)('node:http') as typeof import('node:http');

export const createServer: typeof http.createServer = http.createServer;
export const STATUS_CODES: typeof http.STATUS_CODES = http.STATUS_CODES;
