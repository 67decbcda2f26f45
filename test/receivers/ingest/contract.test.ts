// The ingest interface contract (docs/ingest-interface.md), rule by rule, over real HTTP
// against the built otelgate. What reaches the pipelines shows in the debug exporter's lines.
import { readFileSync } from 'node:fs';
import { deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Signal } from '../../../src/model/signal.js';
import { ROOT } from '../../helpers/cli.js';
import { startGateway, type Gateway } from '../../helpers/gateway.js';
import { otlpJsonToProtobuf, responseType } from '../../helpers/otlp.js';
import { waitUntil } from '../../helpers/wait.js';

const fixture = (signal: Signal): string => readFileSync(`${ROOT}/testdata/otlp/${signal}.json`, 'utf8');
const protobufFixture = (signal: Signal): Buffer => otlpJsonToProtobuf(signal, JSON.parse(fixture(signal)));
const oneLog = (body: string, resourceAttributes: object[] = []) =>
  JSON.stringify({ resourceLogs: [{ resource: { attributes: resourceAttributes }, scopeLogs: [{ logRecords: [{ body: { stringValue: body } }] }] }] });

let gw: Gateway;

async function post(path: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; text: string; bytes: Buffer }> {
  const response = await fetch(`${gw.url}${path}`, { method: 'POST', body, headers });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, text: bytes.toString('utf8'), bytes };
}

const auth = (project = 'alpha'): Record<string, string> => ({ Authorization: `Bearer ${gw.keys[project]}` });
const json = { 'Content-Type': 'application/json' };
const protobuf = { 'Content-Type': 'application/x-protobuf' };

/** Waits until the debug exporter has logged `count` more batches of `title` than `before`. */
async function exportedAfter(title: 'Logs' | 'Traces' | 'Metrics', before: number, count = 1) {
  await waitUntil(() => gw.exported(title).length >= before + count);
  return gw.exported(title).slice(before);
}

/** A batch of 7 spans, a size no test sends: its line marks a point in the exporter's lines. */
const BARRIER = JSON.stringify({
  resourceSpans: [{ scopeSpans: [{ spans: Array.from({ length: 7 }, (_, i) => ({ traceId: '5b8efff798038103d269b633813fc60c', spanId: `00000000000000${String(i + 10)}`, name: 'barrier' })) }] }],
});

/**
 * How many batches of `title` the debug exporter has logged, once every line of the requests
 * answered so far is in. Lines trail the answers, but come in order: once a barrier batch's line
 * has come, so have those of every batch before it.
 */
async function exportedSoFar(title: 'Logs' | 'Traces' | 'Metrics'): Promise<number> {
  const barriers = (): number => gw.exported('Traces').filter((l) => l['spans'] === 7).length;
  const seen = barriers();
  expect((await post('/api/v1/traces', BARRIER, { ...json, ...auth() })).status).toBe(200);
  expect(await waitUntil(() => barriers() > seen)).toBe(true);
  return gw.exported(title).length;
}

beforeAll(async () => {
  gw = await startGateway({ projects: ['alpha', 'beta'] });
});

afterAll(async () => {
  expect(await gw.stop()).toBe(0);
});

describe('authentication', () => {
  it.each([
    ['Authorization: Bearer', (key: string) => ({ Authorization: `Bearer ${key}` })],
    ['Authorization: bearer (any case)', (key: string) => ({ Authorization: `bearer ${key}` })],
    ['X-Service-Key', (key: string) => ({ 'X-Service-Key': key })],
  ])('accepts the key in %s', async (_title, header) => {
    const response = await post('/api/v1/logs', oneLog('hello'), { ...json, ...header(gw.keys['alpha'] as string) });
    expect([response.status, response.text]).toEqual([200, '{}']);
  });

  it.each([
    ['no key', {}],
    ['an unknown key', { Authorization: 'Bearer otg_aaaaaaaaaa_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }],
    ['a malformed key', { 'X-Service-Key': 'not-a-key' }],
    ['a known id with a wrong secret', {}],
    ['another scheme', { Authorization: 'Basic dXNlcjpwYXNz' }],
  ])('answers %s with 401 and exactly {"message": "API key invalid."}', async (title, headers: Record<string, string>) => {
    const wrongSecret: Record<string, string> = title.startsWith('a known id') ? { Authorization: `Bearer ${(gw.keys['alpha'] as string).slice(0, -4)}XXXX` } : {};
    for (const path of ['/api/v1/logs', '/api/v1/traces', '/api/v1/metrics', '/api/v1/ingest', '/v1/logs']) {
      const response = await post(path, '{}', { ...json, ...headers, ...wrongSecret });
      expect([response.status, response.text, response.headers.get('content-type')]).toEqual([401, '{"message":"API key invalid."}', 'application/json']);
    }
  });

  it('writes to the key\'s project only, whatever the payload says', async () => {
    const before = await exportedSoFar('Logs');
    const payload = oneLog('mine', [{ key: 'project.id', value: { stringValue: 'beta' } }]);
    expect((await post('/api/v1/logs', payload, { ...json, ...auth('alpha') })).status).toBe(200);
    expect((await post('/api/v1/ingest', JSON.stringify({ message: 'x', context: { project: 'beta', 'project.id': 'beta' } }), auth('alpha'))).status).toBe(202);
    const lines = await exportedAfter('Logs', before, 2);
    expect(lines.map((l) => [l['project'], l['log records']])).toEqual([
      ['alpha', 1],
      ['alpha', 1],
    ]);
  });
});

describe('OTLP endpoints', () => {
  it.each([
    ['traces', '/api/v1/traces', 'rejectedSpans', 3, 'some spans could not be parsed and were skipped'],
    ['metrics', '/api/v1/metrics', 'rejectedDataPoints', 5, 'some data points could not be stored and were skipped'],
  ] as const)('%s JSON: stores what maps, answers 200 with the exact count of what did not', async (signal, path, field, rejected, phrase) => {
    const response = await post(path, fixture(signal), { ...json, ...auth() });
    expect(response.status).toBe(200);
    const body = JSON.parse(response.text) as { partialSuccess: Record<string, unknown> };
    expect(Object.keys(body)).toEqual(['partialSuccess']);
    expect(body.partialSuccess[field]).toBe(rejected);
    expect(body.partialSuccess['errorMessage']).toContain(phrase);
  });

  it.each([
    ['traces', '/api/v1/traces', 'rejectedSpans', 3],
    ['metrics', '/api/v1/metrics', 'rejectedDataPoints', 5],
  ] as const)('%s protobuf: the same counts, answered in protobuf', async (signal, path, field, rejected) => {
    const response = await post(path, protobufFixture(signal), { ...protobuf, ...auth() });
    expect([response.status, response.headers.get('content-type')]).toEqual([200, 'application/x-protobuf']);
    const decoded = responseType(signal).toObject(responseType(signal).decode(response.bytes), { longs: Number }) as { partialSuccess: Record<string, unknown> };
    expect(decoded.partialSuccess[field]).toBe(rejected);
    expect(decoded.partialSuccess['errorMessage']).toMatch(/could not be (parsed|stored) and were skipped/);
  });

  it('stores every record of the logs fixture, one with a trace id of the wrong length too (logs.proto: not associated with a trace)', async () => {
    const asJson = await post('/api/v1/logs', fixture('logs'), { ...json, ...auth() });
    expect([asJson.status, asJson.text]).toEqual([200, '{}']);
    const asProtobuf = await post('/api/v1/logs', protobufFixture('logs'), { ...protobuf, ...auth() });
    expect([asProtobuf.status, asProtobuf.bytes.length]).toEqual([200, 0]);
  });

  it('answers full success as {} in JSON and as an empty message in protobuf', async () => {
    const asJson = await post('/v1/logs', oneLog('ok'), { ...json, ...auth() });
    expect([asJson.status, asJson.text]).toEqual([200, '{}']);
    const body = otlpJsonToProtobuf('logs', JSON.parse(oneLog('ok')));
    for (const type of ['application/x-protobuf', 'application/protobuf']) {
      const asProtobuf = await post('/api/v1/logs', body, { 'Content-Type': type, ...auth() });
      expect([asProtobuf.status, asProtobuf.bytes.length]).toEqual([200, 0]);
    }
  });

  it('rows of the same export arrive the same from JSON and protobuf, camelCase or snake_case', async () => {
    const before = await exportedSoFar('Metrics');
    await post('/api/v1/metrics', fixture('metrics'), { ...json, ...auth() });
    await post('/api/v1/metrics', protobufFixture('metrics'), { ...protobuf, ...auth() });
    const lines = await exportedAfter('Metrics', before, 2);
    expect(lines.map((l) => [l['metrics'], l['data points']])).toEqual([
      [5, 7],
      [5, 7],
    ]);
  });

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
  ] as const)('inflates %s bodies, JSON and protobuf', async (encoding, compress) => {
    const jsonResponse = await post('/api/v1/traces', compress(Buffer.from(fixture('traces'))), { ...json, ...auth(), 'Content-Encoding': encoding });
    expect(JSON.parse(jsonResponse.text)).toMatchObject({ partialSuccess: { rejectedSpans: 3 } });
    const protobufResponse = await post('/api/v1/traces', compress(protobufFixture('traces')), { ...protobuf, ...auth(), 'Content-Encoding': encoding });
    expect(protobufResponse.status).toBe(200);
    expect(responseType('traces').toObject(responseType('traces').decode(protobufResponse.bytes), { longs: Number })).toMatchObject({ partialSuccess: { rejectedSpans: 3 } });
  });

  it.each(['zstd', 'br', 'snappy', 'lz4', 'x-unknown'])('answers Content-Encoding %s with 415 naming the supported encodings', async (encoding) => {
    for (const path of ['/api/v1/logs', '/api/v1/ingest']) {
      const response = await post(path, '{}', { ...json, ...auth(), 'Content-Encoding': encoding });
      expect([response.status, JSON.parse(response.text)]).toEqual([415, { message: `Unsupported Content-Encoding "${encoding}". Supported: gzip, deflate (or none).` }]);
    }
  });

  it('takes a body without a Content-Type for JSON when it looks like JSON, else for protobuf', async () => {
    const before = await exportedSoFar('Logs');
    expect((await post('/api/v1/logs', ` \n${oneLog('sniffed json')}`, { ...auth(), 'Content-Type': 'text/plain' })).text).toBe('{}');
    const asProtobuf = await post('/api/v1/logs', otlpJsonToProtobuf('logs', JSON.parse(oneLog('sniffed protobuf'))), auth());
    expect([asProtobuf.status, asProtobuf.headers.get('content-type'), asProtobuf.bytes.length]).toEqual([200, 'application/x-protobuf', 0]);
    expect((await exportedAfter('Logs', before, 2)).map((l) => l['log records'])).toEqual([1, 1]);
  });

  it('reads an unlabelled protobuf body that happens to begin like JSON', async () => {
    let body: Buffer = Buffer.alloc(0);
    for (let size = 1; size < 200 && body[1] !== 0x7b; size++) body = otlpJsonToProtobuf('logs', JSON.parse(oneLog('x'.repeat(size))));
    expect([body[0], body[1]]).toEqual([0x0a, 0x7b]);
    const before = await exportedSoFar('Logs');
    const response = await post('/api/v1/logs', body, auth());
    expect([response.status, response.headers.get('content-type'), response.bytes.length]).toEqual([200, 'application/x-protobuf', 0]);
    expect((await exportedAfter('Logs', before)).map((l) => l['log records'])).toEqual([1]);
  });

  it.each([
    ['JSON', json, 'this is { not json'],
    ['protobuf', protobuf, '\u00ff\u00ff\u00ff\u00ff garbage'],
  ])('answers a body that is not %s at all with 200 and a rejection, never 4xx', async (_title, headers, body) => {
    for (const path of ['/api/v1/logs', '/api/v1/traces', '/api/v1/metrics']) {
      const response = await post(path, body, { ...headers, ...auth() });
      expect(response.status).toBe(200);
      const text = headers === json ? response.text : JSON.stringify(responseType('logs').toObject(responseType('logs').decode(response.bytes), { longs: Number }));
      expect(text).toMatch(/"rejected(LogRecords|Spans|DataPoints)":1/);
      expect(text).toMatch(/could not be read/);
    }
  });

  it('handles a request with an unknown Expect header as any other (Node alone would answer 417)', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${gw.url}/api/v1/ingest`, { method: 'POST', headers: { ...auth(), Expect: 'something-else' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end('{"message": "expectations"}');
    });
    expect(status).toBe(202);
  });

  it('answers unknown paths 404 and other methods 405 with Allow', async () => {
    const notFound = await post('/v2/logs', '{}', auth());
    expect(notFound.status).toBe(404);
    const wrongMethod = await fetch(`${gw.url}/api/v1/logs`, { headers: auth() });
    expect([wrongMethod.status, wrongMethod.headers.get('allow')]).toEqual([405, 'POST']);
  });
});

describe('metric skip rules, one by one', () => {
  const gauge = (point: object) => ({ gauge: { dataPoints: [{ timeUnixNano: '1700000000000000000', asDouble: 1 }, point] } });
  const histogram = (point: object) => ({ histogram: { aggregationTemporality: 2, dataPoints: [{ timeUnixNano: '1700000000000000000', count: '1', bucketCounts: ['1'], explicitBounds: [] }, point] } });
  it.each([
    ['no time', gauge({ asDouble: 2 })],
    ['time 0', gauge({ timeUnixNano: '0', asDouble: 2 })],
    ['value NaN', gauge({ timeUnixNano: '1700000000000000000', asDouble: 'NaN' })],
    ['value +Infinity', gauge({ timeUnixNano: '1700000000000000000', asDouble: 'Infinity' })],
    ['value -Infinity', gauge({ timeUnixNano: '1700000000000000000', asDouble: '-Infinity' })],
    ['histogram with as many bucket counts as bounds', histogram({ timeUnixNano: '1700000000000000000', count: '3', bucketCounts: ['1', '2'], explicitBounds: [1, 2] })],
    ['histogram with two more bucket counts than bounds', histogram({ timeUnixNano: '1700000000000000000', count: '3', bucketCounts: ['1', '1', '1'], explicitBounds: [1] })],
    ['histogram sum NaN', histogram({ timeUnixNano: '1700000000000000000', count: '1', sum: 'NaN', bucketCounts: ['1'], explicitBounds: [] })],
  ])('%s: that point is skipped and counted, its neighbour stored (JSON and protobuf)', async (_rule, data) => {
    const exportJson = { resourceMetrics: [{ scopeMetrics: [{ metrics: [{ name: 'm', ...data }] }] }] };
    const before = await exportedSoFar('Metrics');
    const asJson = await post('/api/v1/metrics', JSON.stringify(exportJson), { ...json, ...auth() });
    expect(JSON.parse(asJson.text)).toEqual({ partialSuccess: { rejectedDataPoints: 1, errorMessage: 'some data points could not be stored and were skipped (1)' } });
    const asProtobuf = await post('/api/v1/metrics', otlpJsonToProtobuf('metrics', exportJson), { ...protobuf, ...auth() });
    expect(responseType('metrics').toObject(responseType('metrics').decode(asProtobuf.bytes), { longs: Number })).toEqual({
      partialSuccess: { rejectedDataPoints: 1, errorMessage: 'some data points could not be stored and were skipped (1)' },
    });
    expect((await exportedAfter('Metrics', before, 2)).map((l) => l['data points'])).toEqual([1, 1]);
  });
});

describe('simple JSON endpoint', () => {
  it.each([
    ['one object', { message: 'one' }, { accepted: 1, skipped: 0 }],
    ['an array', [{ message: 'a' }, { body: { nested: true } }, { message: 3 }], { accepted: 3, skipped: 0 }],
  ])('accepts %s with 202', async (_title, body, expected) => {
    const response = await post('/api/v1/ingest', JSON.stringify(body), auth());
    expect([response.status, JSON.parse(response.text)]).toEqual([202, expected]);
  });

  it('skips and counts records without a usable message, with a message saying so', async () => {
    const response = await post('/api/v1/ingest', JSON.stringify([{ message: 'kept' }, { level: 'info' }, { message: null }, 'text']), auth());
    expect(response.status).toBe(202);
    const body = JSON.parse(response.text) as Record<string, unknown>;
    expect([body['accepted'], body['skipped']]).toEqual([1, 3]);
    expect(body['message']).toMatch(/^3 records were skipped/);
  });

  it('answers a body that is not JSON with 202 and one skipped record, never 400', async () => {
    const response = await post('/api/v1/ingest', 'level=info message=hello', auth());
    expect(response.status).toBe(202);
    expect(JSON.parse(response.text)).toMatchObject({ accepted: 0, skipped: 1 });
  });
});
