// A real OTLP/gRPC backend on loopback for exporter tests: grpc-js serving the three Export
// methods, each message read with otelgate's protobuf decoder (grpc-js undoes gzip itself, as a
// Collector's otlp receiver does). It keeps every call, and can be stopped, started again on the
// same port, held, or told to answer RESOURCE_EXHAUSTED with a RetryInfo (what a Collector's
// receiver answers when it is told to slow down) or INVALID_ARGUMENT (a permanent refusal).
import * as grpc from '@grpc/grpc-js';
import type { IncomingHttpHeaders } from 'node:http';
import type { RowOf } from '../../src/model/batch.js';
import { SIGNALS, type Signal } from '../../src/model/signal.js';
import { decodeOtlp } from '../../src/otlp/decode.js';
import { exportMethod } from '../../src/otlp/grpc-export.js';
import { grpcCode, statusProtobuf } from '../../src/otlp/status.js';
import type { BackendKind, ContractBackend, Verdict } from './backend.js';

const OK = grpcCode('OK');
const THROTTLED = grpcCode('RESOURCE_EXHAUSTED');
const REFUSED = grpcCode('INVALID_ARGUMENT');

interface Call {
  signal: Signal;
  headers: IncomingHttpHeaders;
  rows: readonly RowOf<Signal>[];
  /** The gRPC status code it was answered. */
  status: number;
}

export class GrpcBackend implements ContractBackend<RowOf<Signal>> {
  readonly received: Call[] = [];
  hold: (() => Promise<void>) | undefined;
  private verdict: (rows: readonly RowOf<Signal>[]) => Verdict = () => undefined;
  private server: grpc.Server | undefined;
  private boundPort = 0;

  /** `credentials`: how it serves; plaintext by default. */
  constructor(private readonly credentials: () => grpc.ServerCredentials = () => grpc.ServerCredentials.createInsecure()) {}

  get url(): string {
    return `127.0.0.1:${this.boundPort}`;
  }

  delivered(signal: Signal): RowOf<Signal>[] {
    return this.received.filter((call) => call.signal === signal && call.status === OK).flatMap((call) => call.rows);
  }

  judge(verdict: (rows: readonly RowOf<Signal>[]) => Verdict): void {
    this.verdict = verdict;
  }

  /** Listens on 127.0.0.1: a free port the first time, the same port after a stop(). */
  async start(): Promise<void> {
    const server = new grpc.Server();
    for (const signal of SIGNALS) {
      const method = exportMethod(signal);
      server.register<Buffer, Buffer>(method.path, (call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => void this.handle(signal, call, callback), method.responseSerialize, method.requestDeserialize, 'unary');
    }
    this.boundPort = await new Promise<number>((resolve, reject) =>
      server.bindAsync(`127.0.0.1:${this.boundPort}`, this.credentials(), (error, port) => (error === null ? resolve(port) : reject(error))),
    );
    this.server = server;
  }

  /** Closes the port and every call and connection under way: the backend is down. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server === undefined) return;
    server.forceShutdown();
    // forceShutdown closes at once; unbinding takes a turn of the event loop before the port is free.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }

  private async handle(signal: Signal, call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>): Promise<void> {
    const headers: IncomingHttpHeaders = {};
    for (const [key, value] of Object.entries(call.metadata.getMap())) headers[key] = String(value);
    let rows: readonly RowOf<Signal>[];
    try {
      rows = decodeOtlp(signal, 'protobuf', call.request).rows;
    } catch (error) {
      this.received.push({ signal, headers, rows: [], status: REFUSED });
      callback({ code: REFUSED, details: error instanceof Error ? error.message : String(error) });
      return;
    }
    if (this.hold !== undefined) await this.hold();
    const decided = this.verdict(rows);
    const status = decided === undefined ? OK : 'throttle' in decided ? THROTTLED : REFUSED;
    this.received.push({ signal, headers, rows, status });
    if (decided === undefined) callback(null, Buffer.alloc(0));
    else if ('refuse' in decided) callback({ code: REFUSED, details: decided.refuse });
    else {
      const trailers = new grpc.Metadata();
      const details = 'slow down';
      trailers.set('grpc-status-details-bin', statusProtobuf({ code: THROTTLED, message: details, retryAfterSeconds: decided.throttle }));
      callback({ code: THROTTLED, details, metadata: trailers });
    }
  }
}

/** gRPC backends for the exporter contract; otelgate logs a refusal's gRPC status by its name. */
export const grpcBackends: BackendKind<RowOf<Signal>> = {
  async start() {
    const backend = new GrpcBackend();
    await backend.start();
    return backend;
  },
  statuses: { ok: OK, throttled: THROTTLED, refused: REFUSED },
  refusalLog: { grpc_status: 'INVALID_ARGUMENT' },
};
