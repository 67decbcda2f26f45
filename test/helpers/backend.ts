// A real HTTP backend on loopback for exporter tests: by default an OTLP/HTTP one that reads what
// a Collector's otlp receiver reads (gzip, zstd or plain bodies; protobuf or JSON by Content-Type)
// with otelgate's own decoders; given another wire (a stand-in Loki), it reads as that backend
// does. It keeps every request it was sent, and can be stopped, started again on the same port,
// slowed down, or told what to answer.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { gunzipSync, zstdDecompressSync } from 'node:zlib';
import type { Signal } from '../../src/model/signal.js';
import type { RowOf } from '../../src/model/batch.js';
import { decodeOtlp, type Encoding } from '../../src/otlp/decode.js';

const PATHS: Record<string, Signal> = { '/v1/logs': 'logs', '/v1/traces': 'traces', '/v1/metrics': 'metrics' };

export interface Received<R = RowOf<Signal>> {
  path: string;
  signal: Signal | undefined;
  encoding: Encoding;
  headers: IncomingMessage['headers'];
  /** The decoded rows; [] for a path the wire does not serve. */
  rows: readonly R[];
  /** The body as sent, decompressed. */
  body: Buffer;
  /** Bytes of the body on the wire, before decompressing. */
  wireBytes: number;
  /** What it was answered. */
  status: number;
}

/** What to answer a request: a status, headers and a body; 200 with an empty OTLP response when undefined. */
export type Answer = { status: number; headers?: Record<string, string>; body?: string | Buffer } | undefined;

/** How a backend reads a request, once its Content-Encoding is undone, and what it answers one it took. */
export interface BackendWire<R> {
  read(path: string, headers: IncomingMessage['headers'], body: Buffer): { signal: Signal | undefined; encoding: Encoding; rows: readonly R[] };
  success(encoding: Encoding): NonNullable<Answer>;
}

export const otlpWire: BackendWire<RowOf<Signal>> = {
  read(path, headers, body) {
    const signal = PATHS[path];
    const encoding: Encoding = (headers['content-type'] ?? '').startsWith('application/json') ? 'json' : 'protobuf';
    return { signal, encoding, rows: signal === undefined ? [] : decodeOtlp(signal, encoding, body).rows };
  },
  success: (encoding) => ({ status: 200, headers: { 'Content-Type': encoding === 'json' ? 'application/json' : 'application/x-protobuf' }, body: encoding === 'json' ? '{}' : Buffer.alloc(0) }),
};

/**
 * What a test wants a backend to do with a request, in no protocol's terms: take it (undefined),
 * ask for it again after `throttle` seconds, or refuse it for good with the words `refuse`.
 */
export type Verdict = undefined | { throttle: number } | { refuse: string };

/** What the exporter contract needs of a backend, whatever protocol it speaks. */
export interface ContractBackend<R> {
  /** What an exporter's `endpoint` names to reach it. */
  readonly url: string;
  /** Every request, with its headers (or gRPC metadata), rows and the status it was answered. */
  readonly received: readonly Pick<Received<R>, 'headers' | 'rows' | 'status'>[];
  /** Held before answering each request, when set. */
  hold: (() => Promise<void>) | undefined;
  /** Rows of `signal` it took, in the order they arrived. */
  delivered(signal: Signal): R[];
  /** How it answers from now on, by the rows of each request. */
  judge(verdict: (rows: readonly R[]) => Verdict): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** A kind of backend for the exporter contract: how to start one, and the statuses it records. */
export interface BackendKind<R> {
  start(): Promise<ContractBackend<R>>;
  statuses: { ok: number; throttled: number; refused: number };
  /** The fields of otelgate's log line that name the status of a request refused for good. */
  refusalLog: Record<string, unknown>;
}

/** HTTP backends that read requests as `wire` says: a throttle is a 429 with Retry-After, a refusal a 400 with the words as text. */
export function httpBackends<R>(wire: BackendWire<R>): BackendKind<R> {
  return { start: () => startBackend(wire), statuses: { ok: wire.success('protobuf').status, throttled: 429, refused: 400 }, refusalLog: { status: 400 } };
}

export class Backend<R = RowOf<Signal>> implements ContractBackend<R> {
  readonly received: Received<R>[] = [];
  /** Decides each answer; it sees the request before it is answered (and recorded). */
  answer: (request: Omit<Received<R>, 'status'>) => Answer = () => undefined;
  /** Held before answering each request, when set. */
  hold: (() => Promise<void>) | undefined;
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private boundPort = 0;

  constructor(private readonly wire: BackendWire<R>) {}

  judge(verdict: (rows: readonly R[]) => Verdict): void {
    this.answer = (request): Answer => {
      const decided = verdict(request.rows);
      if (decided === undefined) return undefined;
      if ('throttle' in decided) return { status: 429, headers: { 'Retry-After': String(decided.throttle) } };
      return { status: 400, headers: { 'Content-Type': 'text/plain' }, body: decided.refuse };
    };
  }

  get port(): number {
    return this.boundPort;
  }

  get url(): string {
    return `http://127.0.0.1:${this.boundPort}`;
  }

  /** Rows of `signal` answered 2xx, in the order they arrived. */
  delivered(signal: Signal): R[] {
    return this.received.filter((r) => r.signal === signal && r.status >= 200 && r.status < 300).flatMap((r) => r.rows);
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
    let read: ReturnType<BackendWire<R>['read']>;
    let unreadable: string | undefined;
    try {
      read = this.wire.read(path, req.headers, body);
    } catch (error) {
      // What the backend cannot read, or refuses to (a stand-in Loki's bad labels), is a 400 with its reason, as the backend answers.
      unreadable = error instanceof Error ? error.message : String(error);
      read = { signal: undefined, encoding: 'protobuf', rows: [] };
    }
    const { signal, encoding, rows } = read;
    const request = { path, signal, encoding, headers: req.headers, rows, body, wireBytes };
    if (this.hold !== undefined) await this.hold();
    const answer = unreadable !== undefined ? { status: 400, headers: { 'Content-Type': 'text/plain' }, body: unreadable } : (this.answer(request) ?? this.wire.success(encoding));
    this.received.push({ ...request, status: answer.status });
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  }
}

export async function startBackend(): Promise<Backend>;
export async function startBackend<R>(wire: BackendWire<R>): Promise<Backend<R>>;
export async function startBackend<R>(wire?: BackendWire<R>): Promise<Backend<R>> {
  const backend = new Backend((wire ?? otlpWire) as BackendWire<R>);
  await backend.start();
  return backend;
}
