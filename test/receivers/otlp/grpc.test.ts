// The otlp receiver's gRPC side under what real clients and bad ones do: messages over the size
// cap (plain and as a gzip bomb), bytes that are not OTLP, a pipeline that refuses for now or for
// good, a signal with no pipeline, calls that never send their message, and garbage on the port.
// A raw grpc-js client sends exactly the bytes each case needs; the process must serve a
// well-formed call after each.
import { connect as connectHttp2, constants as http2 } from 'node:http2';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { credentials, makeGenericClientConstructor, Metadata, type Client, type ServiceError } from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PermanentError, RetryableError } from '../../../src/errors.js';
import { FLOW_CONTROL_WINDOW } from '../../../src/receivers/otlp/grpc.js';
import type { Service } from '../../../src/runtime/service.js';
import { startGrpcReceiver, switchableExporter } from '../../helpers/components.js';
import { otlpJsonToProtobuf, responseType } from '../../helpers/otlp.js';
import { waitUntil } from '../../helpers/wait.js';

const LOGS = '/opentelemetry.proto.collector.logs.v1.LogsService/Export';
const TRACES = '/opentelemetry.proto.collector.trace.v1.TraceService/Export';
const MAX_STREAMS = 3;

/** What the test pipeline does with the next batch: take it, or refuse it. */
const pipeline = switchableExporter();

let service: Service;
let address = '';
let client: Client;

function logsBody(count: number, body = 'hello'): Buffer {
  return otlpJsonToProtobuf('logs', {
    resourceLogs: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'grpc-test' } }] }, scopeLogs: [{ logRecords: Array.from({ length: count }, () => ({ timeUnixNano: '1700000000000000000', body: { stringValue: body } })) }] }],
  });
}

function rawClient(path: string): Client {
  const same = (bytes: Buffer): Buffer => bytes;
  const Constructor = makeGenericClientConstructor({ Export: { path, requestStream: false, responseStream: false, requestSerialize: same, requestDeserialize: same, responseSerialize: same, responseDeserialize: same } }, 'Export');
  return new Constructor(address, credentials.createInsecure());
}

function callWith(on: Client, body: Buffer, metadata: Metadata): Promise<ServiceError | null> {
  return new Promise((resolve) => {
    (on as unknown as { Export(body: Buffer, metadata: Metadata, done: (error: ServiceError | null) => void): void }).Export(body, metadata, (error) => resolve(error));
  });
}

type Answer = { error: ServiceError; response?: undefined } | { error?: undefined; response: Buffer };

function call(on: Client, body: Buffer): Promise<Answer> {
  return new Promise((resolve) => {
    (on as unknown as { Export(body: Buffer, metadata: Metadata, done: (error: ServiceError | null, response?: Buffer) => void): void }).Export(body, new Metadata(), (error, response) =>
      resolve(error === null ? { response: response as Buffer } : { error }),
    );
  });
}

/** One call written by hand as HTTP/2 frames, the message compressed or not as `gzip` says; its grpc-status. */
async function frameCall(path: string, message: Buffer, gzip: boolean): Promise<string | undefined> {
  const session = connectHttp2(`http://${address}`);
  session.on('error', () => {});
  const headers: Record<string, string> = { [http2.HTTP2_HEADER_METHOD]: 'POST', [http2.HTTP2_HEADER_PATH]: path, 'content-type': 'application/grpc', te: 'trailers' };
  if (gzip) headers['grpc-encoding'] = 'gzip';
  const stream = session.request(headers);
  const prefix = Buffer.alloc(5);
  prefix[0] = gzip ? 1 : 0;
  prefix.writeUInt32BE(message.length, 1);
  stream.end(Buffer.concat([prefix, message]));
  stream.resume();
  const status = await new Promise<string | undefined>((resolve) => {
    stream.once('trailers', (trailers) => resolve(trailers['grpc-status'] as string | undefined));
    // A call refused before any answer carries its status in the headers alone.
    stream.once('response', (response) => {
      if (response['grpc-status'] !== undefined) resolve(response['grpc-status'] as string);
    });
    stream.once('close', () => resolve(undefined));
  });
  session.close();
  return status;
}

async function expectServing(): Promise<void> {
  const before = pipeline.taken.length;
  const answer = await call(client, logsBody(1));
  expect(answer.error).toBeUndefined();
  expect(pipeline.taken).toHaveLength(before + 1);
}

beforeAll(async () => {
  const grpc = `
        endpoint: "127.0.0.1:0"
        max_recv_msg_size_mib: 1
        max_concurrent_streams: ${MAX_STREAMS}
        keepalive: {server_parameters: {max_connection_age: 1s, max_connection_age_grace: 1s}}
        include_metadata: true`;
  ({ service, address } = await startGrpcReceiver(grpc, pipeline));
  client = rawClient(LOGS);
});

afterAll(async () => {
  client.close();
  await service.shutdown();
});

beforeEach(() => {
  pipeline.refusal = undefined;
  pipeline.taken.length = 0;
  pipeline.contexts.length = 0;
});

describe('the otlp receiver over gRPC', () => {
  it('takes a message and answers an empty ExportLogsServiceResponse', async () => {
    const answer = await call(client, logsBody(3));
    expect(answer.response).toEqual(Buffer.alloc(0));
    expect(pipeline.taken).toHaveLength(1);
    expect(pipeline.taken[0]?.rows).toHaveLength(3);
    expect(pipeline.taken[0]?.project).toBe('default');
  });

  it('answers RESOURCE_EXHAUSTED for a message over max_recv_msg_size_mib, plain or gzip that inflates past it, and lives on', async () => {
    const plain = await call(client, logsBody(1, 'x'.repeat(1024 * 1024 + 10)));
    expect(plain.error?.code).toBe(8);
    // A gzip bomb: 40 KB on the wire, 40 MB inflated; it is cut at the cap, not inflated whole.
    const bomb = gzipSync(logsBody(1, 'y'.repeat(40 * 1024 * 1024)));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(await frameCall(LOGS, bomb, true)).toBe('8');
    expect(pipeline.taken).toHaveLength(0);
    await expectServing();
  });

  it('keeps the call\'s text metadata with the batch (include_metadata), never the key', async () => {
    const metadata = new Metadata();
    metadata.set('x-team', 'blue');
    metadata.add('x-team', 'green');
    metadata.set('authorization', 'Bearer otg_secret');
    metadata.set('x-service-key', 'otg_other');
    metadata.set('trace-bin', Buffer.from([1, 2]));
    expect(await callWith(client, logsBody(1), metadata)).toBeNull();
    const kept = pipeline.contexts[0]?.client.metadata ?? {};
    // grpc-js sends a repeated key as one header, its values joined as HTTP folds them.
    expect(kept['x-team']).toEqual(['blue, green']);
    expect(Object.keys(kept).filter((name) => name === 'authorization' || name === 'x-service-key' || name.endsWith('-bin'))).toEqual([]);
  });

  it('reads a gzip-compressed message (grpc-encoding: gzip) as a plain one', async () => {
    expect(await frameCall(LOGS, gzipSync(logsBody(5)), true)).toBe('0');
    expect(pipeline.taken.map((b) => b.rows.length)).toEqual([5]);
  });

  it('answers OK with partial success for bytes that are not OTLP: the records are counted as rejected, not refused whole', async () => {
    const answer = await call(client, Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f, 0x01]));
    expect(answer.error).toBeUndefined();
    const decoded = responseType('logs').toObject(responseType('logs').decode(answer.response as Buffer)) as { partialSuccess?: { rejectedLogRecords?: unknown; errorMessage?: string } };
    expect(Number(decoded.partialSuccess?.rejectedLogRecords)).toBe(1);
    expect(decoded.partialSuccess?.errorMessage).toMatch(/could not be parsed/);
    expect(pipeline.taken).toHaveLength(0);
  });

  it('answers UNAVAILABLE with a RetryInfo of 5 s when the pipeline refuses for now', async () => {
    pipeline.refusal = new RetryableError('the queue is full');
    const answer = await call(client, logsBody(2));
    expect(answer.error?.code).toBe(14);
    const [details] = answer.error?.metadata.get('grpc-status-details-bin') ?? [];
    expect(Buffer.isBuffer(details)).toBe(true);
    // google.rpc.Status { code = 14, message, details = [Any { type_url, value = RetryInfo { retry_delay = Duration { seconds = 5 } } }] }
    const reader = protobuf.Reader.create(details as Buffer);
    const status: { code?: number; anys: Buffer[] } = { anys: [] };
    while (reader.pos < reader.len) {
      const tag = reader.uint32();
      if (tag === 0x08) status.code = reader.int32();
      else if (tag === 0x1a) status.anys.push(Buffer.from(reader.bytes()));
      else reader.skipType(tag & 7);
    }
    expect(status.code).toBe(14);
    expect(status.anys).toHaveLength(1);
    const any = protobuf.Reader.create(status.anys[0] as Buffer);
    expect(any.uint32()).toBe(0x0a);
    expect(any.string()).toBe('type.googleapis.com/google.rpc.RetryInfo');
    expect(any.uint32()).toBe(0x12);
    expect(Buffer.from(any.bytes())).toEqual(Buffer.from([0x0a, 0x02, 0x08, 0x05]));
  });

  it('answers OK with every record rejected when the pipeline refuses for good', async () => {
    pipeline.refusal = new PermanentError('never');
    const answer = await call(client, logsBody(4));
    expect(answer.error).toBeUndefined();
    const decoded = responseType('logs').toObject(responseType('logs').decode(answer.response as Buffer)) as { partialSuccess?: { rejectedLogRecords?: unknown } };
    expect(Number(decoded.partialSuccess?.rejectedLogRecords)).toBe(4);
  });

  it('answers UNIMPLEMENTED for a signal no pipeline takes from it', async () => {
    const traces = rawClient(TRACES);
    const answer = await call(traces, Buffer.alloc(0));
    traces.close();
    expect(answer.error?.code).toBe(12);
  });

  it('bounds the calls of one connection by max_concurrent_streams, advertises 4 MiB windows, and ends a connection past max_connection_age though its calls never send', async () => {
    const session = connectHttp2(`http://${address}`);
    await new Promise<void>((resolve) => session.once('remoteSettings', () => resolve()));
    expect(session.remoteSettings.maxConcurrentStreams).toBe(MAX_STREAMS);
    expect(session.remoteSettings.initialWindowSize).toBe(FLOW_CONTROL_WINDOW);
    // The connection's own window, widened by a WINDOW_UPDATE as the connection starts.
    expect(await waitUntil(() => session.state.remoteWindowSize === FLOW_CONTROL_WINDOW)).toBe(true);
    const opened = Array.from({ length: MAX_STREAMS + 2 }, () =>
      session.request({ [http2.HTTP2_HEADER_METHOD]: 'POST', [http2.HTTP2_HEADER_PATH]: LOGS, 'content-type': 'application/grpc', te: 'trailers' }, { endStream: false }),
    );
    const closed = new Promise<void>((resolve) => session.once('close', () => resolve()));
    for (const stream of opened) stream.on('error', () => {});
    // Past max_connection_age (1 s) and its grace (1 s), the server ends the connection.
    expect(await waitUntil(async () => session.closed || session.destroyed)).toBe(true);
    await closed;
    await expectServing();
  });

  it('closes a connection that sends garbage, and lives on', async () => {
    const socket = connect(Number(address.split(':').at(-1)), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => {});
    // Read what the server answers (a GOAWAY), or its end is never seen.
    socket.resume();
    socket.write(Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n\x00\xff garbage \xfe\x01'.repeat(50), 'latin1'));
    await ended;
    expect(socket.destroyed).toBe(true);
    await expectServing();
  });
});
