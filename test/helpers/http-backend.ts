// A backend for tests of what otelgate sends: a real node:http or node:https server on 127.0.0.1,
// port 0, that keeps every request it gets (body decompressed as its Content-Encoding says),
// counts connections, and answers as the test's handler says.
import { once } from 'node:events';
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { gunzipSync, zstdDecompressSync } from 'node:zlib';

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** As it came over the wire. */
  raw: Buffer;
  /** Decompressed as its Content-Encoding says. */
  body: Buffer;
}

export type Handler = (request: Received, res: ServerResponse, req: IncomingMessage) => void;

export interface Backend {
  /** http://127.0.0.1:port (or https://). */
  url: string;
  port: number;
  requests: Received[];
  /** Connections accepted so far. */
  connections: () => number;
  /** Connections open now. */
  open: () => number;
  close(): Promise<void>;
}

function decoded(raw: Buffer, encoding: string | undefined): Buffer {
  if (encoding === 'gzip') return gunzipSync(raw);
  if (encoding === 'zstd') return zstdDecompressSync(raw);
  return raw;
}

export const ok: Handler = (_request, res) => {
  res.writeHead(200, { 'content-type': 'application/x-protobuf', 'content-length': '0' }).end();
};

export async function startBackend(handler: Handler = ok, tls?: https.ServerOptions, port = 0): Promise<Backend> {
  const requests: Received[] = [];
  const sockets = new Set<Socket>();
  let accepted = 0;
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, raw, body: decoded(raw, req.headers['content-encoding']) };
      requests.push(request);
      handler(request, res, req);
    });
  };
  const server = tls === undefined ? http.createServer(onRequest) : https.createServer(tls, onRequest);
  server.on(tls === undefined ? 'connection' : 'secureConnection', (socket: Socket) => {
    accepted++;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `${tls === undefined ? 'http' : 'https'}://127.0.0.1:${bound}`,
    port: bound,
    requests,
    connections: () => accepted,
    open: () => sockets.size,
    close: async () => {
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
