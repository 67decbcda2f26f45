// The otlp receiver's HTTP side: the Collector's paths (and its *_url_path settings), OTLP/HTTP's
// error answers (a google.rpc.Status in the request's encoding, Retry-After and RetryInfo on
// "retry later"), confighttp's Content-Encodings, and what it does better than the Collector as
// the ingest receiver does: records it cannot read are rejected in a 200, not the whole request.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import protobuf from 'protobufjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateKey } from '../../../src/auth/key.js';
import { writeKeysFile } from '../../../src/auth/keysfile.js';
import { builtinRegistry } from '../../../src/components.js';
import { RetryableError } from '../../../src/errors.js';
import { Service } from '../../../src/runtime/service.js';
import { switchableExporter } from '../../helpers/components.js';
import { configFrom } from '../../helpers/config.js';
import { memoryLogger } from '../../helpers/logger.js';
import { otlpJsonToProtobuf } from '../../helpers/otlp.js';

/** What the test pipeline does with the next batch: take it, or refuse it. */
const pipeline = switchableExporter();

let service: Service;
let open = '';
let keyed = '';
const key = generateKey();
/** A key of the same project that may only read: refused here as an unknown key is. */
const readOnly = generateKey();

const LOGS_JSON = JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ body: { stringValue: 'one' } }, { body: { stringValue: 'two' } }] }] }] });

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'otelgate-otlp-http-'));
  writeKeysFile(join(dir, 'keys.yaml'), [
    { id: key.id, project: 'keyed-project', sha256: key.sha256 },
    { id: readOnly.id, project: 'keyed-project', sha256: readOnly.sha256, scopes: ['read'] },
  ]);
  const { logger, lines } = memoryLogger();
  service = new Service(
    configFrom(
      `
extensions: {apikeyauth: {keys_file: ${dir}/keys.yaml}}
receivers:
  otlp:
    project: open-project
    protocols:
      http: {endpoint: "127.0.0.1:0", logs_url_path: custom/logs}
  otlp/keyed:
    protocols:
      http: {endpoint: "127.0.0.1:0", auth: {authenticator: apikeyauth}}
exporters: {switchable: }
service:
  extensions: [apikeyauth]
  pipelines:
    logs: {receivers: [otlp, otlp/keyed], exporters: [switchable]}
`,
      builtinRegistry().register(pipeline.factory),
    ),
    logger,
  );
  await service.start();
  [open, keyed] = lines.filter((l) => l['msg'] === 'Starting HTTP server').map((l) => `http://${String(l['endpoint'])}`) as [string, string];
});

afterAll(async () => {
  await service.shutdown();
});

beforeEach(() => {
  pipeline.refusal = undefined;
  pipeline.taken.length = 0;
});

/** google.rpc.Status from protobuf bytes: its code, message and the type URLs of its details. */
function readStatus(bytes: Uint8Array): { code: number; message: string; details: string[] } {
  const reader = protobuf.Reader.create(bytes);
  const status = { code: 0, message: '', details: [] as string[] };
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if (tag === 0x08) status.code = reader.int32();
    else if (tag === 0x12) status.message = reader.string();
    else if (tag === 0x1a) {
      const any = protobuf.Reader.create(reader.bytes());
      any.uint32();
      status.details.push(any.string());
    } else reader.skipType(tag & 7);
  }
  return status;
}

describe('the otlp receiver over HTTP', () => {
  it('serves logs at logs_url_path (a leading / added, as the Collector) and the other signals at their defaults, for its project', async () => {
    const answer = await fetch(`${open}/custom/logs`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: LOGS_JSON });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({});
    expect(pipeline.taken.map((b) => [b.project, b.rows.length])).toEqual([['open-project', 2]]);

    const moved = await fetch(`${open}/v1/logs`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: LOGS_JSON });
    expect(moved.status).toBe(404);
    expect(await moved.json()).toEqual({ code: 12, message: 'Not found. otelgate receives POST /v1/traces, /v1/metrics, /custom/logs.' });
  });

  it('answers 401 with a Status in the request\'s encoding when the key is missing or may only read, and reads no body', async () => {
    const json = await fetch(`${keyed}/v1/logs`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: LOGS_JSON });
    expect(json.status).toBe(401);
    expect(json.headers.get('content-type')).toBe('application/json');
    expect(await json.json()).toEqual({ code: 16, message: 'API key invalid.' });

    const proto = await fetch(`${keyed}/v1/logs`, { method: 'POST', headers: { 'Content-Type': 'application/x-protobuf' }, body: otlpJsonToProtobuf('logs', JSON.parse(LOGS_JSON)) });
    expect(proto.status).toBe(401);
    expect(proto.headers.get('content-type')).toBe('application/x-protobuf');
    expect(readStatus(new Uint8Array(await proto.arrayBuffer()))).toEqual({ code: 16, message: 'API key invalid.', details: [] });
    const reading = await fetch(`${keyed}/v1/logs`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${readOnly.key}` }, body: LOGS_JSON });
    expect([reading.status, await reading.json()]).toEqual([401, { code: 16, message: 'API key invalid.' }]);
    expect(pipeline.taken).toHaveLength(0);

    const ok = await fetch(`${keyed}/v1/logs`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key.key}` }, body: LOGS_JSON });
    expect(ok.status).toBe(200);
    expect(pipeline.taken.map((b) => b.project)).toEqual(['keyed-project']);
  });

  it('answers 503 with Retry-After: 5 and a RetryInfo detail when the pipeline refuses for now', async () => {
    pipeline.refusal = new RetryableError('the queue is full');
    const json = await fetch(`${open}/custom/logs`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: LOGS_JSON });
    expect(json.status).toBe(503);
    expect(json.headers.get('retry-after')).toBe('5');
    expect(await json.json()).toEqual({
      code: 14,
      message: 'otelgate cannot take this now; retry later.',
      details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '5s' }],
    });
    const proto = await fetch(`${open}/custom/logs`, { method: 'POST', headers: { 'Content-Type': 'application/x-protobuf' }, body: otlpJsonToProtobuf('logs', JSON.parse(LOGS_JSON)) });
    expect(proto.status).toBe(503);
    expect(readStatus(new Uint8Array(await proto.arrayBuffer()))).toEqual({ code: 14, message: 'otelgate cannot take this now; retry later.', details: ['type.googleapis.com/google.rpc.RetryInfo'] });
  });

  it('rejects what it cannot read in a 200 with partial success, where the Collector would refuse the whole request with 400', async () => {
    const answer = await fetch(`${open}/custom/logs`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ body: { stringValue: 'kept' } }, { timeUnixNano: 'not a time' }] }] }] }),
    });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { partialSuccess?: { rejectedLogRecords?: number } };
    expect(body.partialSuccess?.rejectedLogRecords).toBe(1);
    expect(pipeline.taken.map((b) => b.rows.length)).toEqual([1]);
  });

  it('reads confighttp\'s zlib Content-Encoding, and answers 415 Status for one it does not read', async () => {
    const zlib = await fetch(`${open}/custom/logs`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'zlib' }, body: deflateSync(LOGS_JSON) });
    expect(zlib.status).toBe(200);
    expect(pipeline.taken.map((b) => b.rows.length)).toEqual([2]);
    const snappy = await fetch(`${open}/custom/logs`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'snappy' }, body: LOGS_JSON });
    expect(snappy.status).toBe(415);
    expect(await snappy.json()).toEqual({ code: 2, message: 'Unsupported Content-Encoding "snappy". Supported: gzip, zstd, zlib, deflate (or none).' });
  });
});
