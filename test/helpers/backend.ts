// A real OTLP/HTTP backend on loopback for exporter tests: it reads what a Collector's otlp
// receiver reads (gzip, zstd or plain bodies; protobuf or JSON by Content-Type) with otelgate's own
// decoders, keeps every request it was sent, and can be stopped, started again on the same port,
// slowed down, or told what to answer.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { gunzipSync, zstdDecompressSync } from 'node:zlib';
import type { Signal } from '../../src/model/signal.js';
import type { RowOf } from '../../src/model/batch.js';
import { decodeOtlp, type Encoding } from '../../src/otlp/decode.js';

const PATHS: Record<string, Signal> = { '/v1/logs': 'logs', '/v1/traces': 'traces', '/v1/metrics': 'metrics' };

export interface Received {
  path: string;
  signal: Signal | undefined;
  encoding: Encoding;
  headers: IncomingMessage['headers'];
  /** The decoded rows; [] for a path that is not OTLP's. */
  rows: readonly RowOf<Signal>[];
  /** The body as sent, decompressed. */
  body: Buffer;
  /** Bytes of the body on the wire, before decompressing. */
  wireBytes: number;
  /** What it was answered. */
  status: number;
}

/** What to answer a request: a status, headers and a body; 200 with an empty OTLP response when undefined. */
export type Answer = { status: number; headers?: Record<string, string>; body?: string | Buffer } | undefined;

export class Backend {
  readonly received: Received[] = [];
  /** Decides each answer; it sees the request before it is answered (and recorded). */
  answer: (request: Omit<Received, 'status'>) => Answer = () => undefined;
  /** Held before answering each request, when set. */
  hold: (() => Promise<void>) | undefined;
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private boundPort = 0;

  get port(): number {
    return this.boundPort;
  }

  get url(): string {
    return `http://127.0.0.1:${this.boundPort}`;
  }

  /** Rows of `signal` answered 2xx, in the order they arrived. */
  delivered<S extends Signal>(signal: S): RowOf<S>[] {
    return this.received.filter((r) => r.signal === signal && r.status >= 200 && r.status < 300).flatMap((r) => r.rows as RowOf<S>[]);
  }

  /** Listens on 127.0.0.1: a free port the first time, the same port after a stop(). */
  async start(): Promise<void> {
    const server = createServer((req, res) => void this.handle(req, res));
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.boundPort, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    if (address !== null && typeof address === 'object') this.boundPort = address.port;
    this.server = server;
  }

  /** Closes the port and every open connection: the backend is down. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server === undefined) return;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body = Buffer.concat(chunks);
    const wireBytes = body.length;
    const coding = (req.headers['content-encoding'] ?? '').toLowerCase();
    if (coding === 'gzip') body = gunzipSync(body);
    else if (coding === 'zstd') body = zstdDecompressSync(body);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const signal = PATHS[path];
    const encoding: Encoding = (req.headers['content-type'] ?? '').startsWith('application/json') ? 'json' : 'protobuf';
    const rows = signal === undefined ? [] : decodeOtlp(signal, encoding, body).rows;
    const request = { path, signal, encoding, headers: req.headers, rows, body, wireBytes };
    if (this.hold !== undefined) await this.hold();
    const answer = this.answer(request) ?? { status: 200, headers: { 'Content-Type': encoding === 'json' ? 'application/json' : 'application/x-protobuf' }, body: encoding === 'json' ? '{}' : Buffer.alloc(0) };
    this.received.push({ ...request, status: answer.status });
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  }
}

export async function startBackend(): Promise<Backend> {
  const backend = new Backend();
  await backend.start();
  return backend;
}
