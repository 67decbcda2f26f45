// Thousands of random and mutated bodies on every ingest endpoint of the built server: never a
// 4xx other than the contract's 401/415, never a 5xx, never a crash, and valid requests in
// between keep being served exactly.
import { readFileSync } from 'node:fs';
import { deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.js';
import { startGateway, type Gateway } from '../../helpers/gateway.js';
import { otlpJsonToProtobuf } from '../../helpers/otlp.js';
import { waitUntil } from '../../helpers/wait.js';

const SEED = 4318;
const PATHS = ['/api/v1/logs', '/api/v1/traces', '/api/v1/metrics', '/v1/logs', '/api/v1/ingest'];

let gw: Gateway;
/** Valid bodies to mutate, each with the path and content type it belongs to. */
const seeds: { bytes: Buffer; path: string; type: string }[] = [];

beforeAll(async () => {
  gw = await startGateway();
  for (const signal of ['logs', 'traces', 'metrics'] as const) {
    const json = readFileSync(`${ROOT}/testdata/otlp/${signal}.json`);
    seeds.push({ bytes: json, path: `/api/v1/${signal}`, type: 'application/json' });
    seeds.push({ bytes: otlpJsonToProtobuf(signal, JSON.parse(json.toString('utf8'))), path: `/v1/${signal}`, type: 'application/x-protobuf' });
  }
  seeds.push({ bytes: Buffer.from(JSON.stringify([{ message: 'a', level: 'warn', context: { a: { b: 1 } } }, { body: 2 }])), path: '/api/v1/ingest', type: 'application/json' });
});

afterAll(async () => {
  expect(await gw.stop()).toBe(0);
});

function mutate(seed: Buffer, edits: [number, number, string][]): Buffer {
  let bytes = Buffer.from(seed);
  for (const [at, value, edit] of edits) {
    if (bytes.length === 0) break;
    const i = at % bytes.length;
    if (edit === 'flip') bytes[i] = value;
    else if (edit === 'cut') bytes = bytes.subarray(0, i);
    else if (edit === 'insert') bytes = Buffer.concat([bytes.subarray(0, i), Buffer.from([value]), bytes.subarray(i)]);
    else bytes = Buffer.concat([bytes, bytes.subarray(i)]);
  }
  return bytes;
}

const body = fc.oneof(
  fc.uint8Array({ maxLength: 2048 }).map((b) => Buffer.from(b)),
  fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v))),
  fc.tuple(fc.nat(), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom('flip', 'cut', 'insert', 'repeat')), { minLength: 1, maxLength: 6 })),
);

const request = fc.record({
  path: fc.constantFrom(...PATHS).map((p) => [p] as const),
  body,
  contentType: fc.constantFrom('application/json', 'application/x-protobuf', 'application/protobuf', 'text/plain', undefined),
  encoding: fc.constantFrom('identity', 'gzip', 'deflate', 'gzip-broken'),
});

async function validRequest(): Promise<void> {
  const response = await fetch(`${gw.url}/api/v1/ingest`, { method: 'POST', body: JSON.stringify([{ message: 'a' }, { message: 'b' }]), headers: { 'X-Service-Key': gw.keys['default'] as string } });
  expect([response.status, await response.json()]).toEqual([202, { accepted: 2, skipped: 0 }]);
}

describe('fuzzing the ingest endpoints', () => {
  it('answers 5,000 random and mutated bodies with 200 or 202 only, and keeps serving', async () => {
    const samples = fc.sample(request, { seed: SEED, numRuns: 5000 });
    const statuses = new Map<number, number>();
    for (const [n, sample] of samples.entries()) {
      // A random body goes anywhere as anything; a mutated seed goes to its own endpoint, as its
      // own encoding or unlabelled (sniffed), so that mutations reach the decoders' inner paths.
      const seed = Buffer.isBuffer(sample.body) ? undefined : (seeds[sample.body[0] % seeds.length] as (typeof seeds)[number]);
      let bytes = seed === undefined ? (sample.body as Buffer) : mutate(seed.bytes, (sample.body as [number, [number, number, string][]])[1]);
      const path = seed?.path ?? sample.path[0];
      const headers: Record<string, string> = { Authorization: `Bearer ${gw.keys['default']}` };
      const contentType = seed === undefined || sample.contentType === undefined ? sample.contentType : seed.type;
      if (contentType !== undefined) headers['Content-Type'] = contentType;
      if (sample.encoding === 'gzip') bytes = gzipSync(bytes);
      if (sample.encoding === 'deflate') bytes = deflateSync(bytes);
      if (sample.encoding === 'gzip-broken') bytes = gzipSync(bytes).subarray(0, 12);
      if (sample.encoding !== 'identity') headers['Content-Encoding'] = sample.encoding === 'deflate' ? 'deflate' : 'gzip';
      const response = await fetch(`${gw.url}${path}`, { method: 'POST', body: bytes, headers });
      await response.arrayBuffer();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      const expected = path === '/api/v1/ingest' ? 202 : 200;
      if (response.status !== expected) throw new Error(`request ${n} to ${path} got ${response.status}`);
      if (n % 250 === 0) await validRequest();
    }
    expect([...statuses.keys()].sort()).toEqual([200, 202]);
    await validRequest();
    // Mutated fixtures still carry records: a good share of the bodies reached the pipelines (their lines may trail the answers).
    const exported = (): number => gw.exported('Logs').length + gw.exported('Traces').length + gw.exported('Metrics').length;
    await waitUntil(() => exported() > 100);
    expect(exported()).toBeGreaterThan(100);
    expect(gw.run.child.exitCode).toBeNull();
    expect(gw.run.lines.filter((l) => l.level === 'error' || l.level === 'fatal')).toEqual([]);
  }, 120_000);
});
