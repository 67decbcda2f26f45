// The limits of the ingest interface on the built server: the decompressed-size cap (a gzip bomb
// costs no more memory than the cap), auth before any inflating, protobuf switched off, and 503.
import { request } from 'node:http';
import { connect } from 'node:net';
import { createGzip, gzipSync, zstdCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_CONFIG, startGateway, type Gateway } from '../../helpers/gateway.js';
import { otlpJsonToProtobuf, responseType } from '../../helpers/otlp.js';
import { peakRss } from '../../helpers/proc.js';
import { waitUntil } from '../../helpers/wait.js';

const MIB = 1024 * 1024;

/** `size` bytes of zeros, gzipped: about 1 MiB per GiB. */
async function gzipBomb(size: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const chunks: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise((resolve) => gzip.on('end', resolve));
  const zeros = Buffer.alloc(8 * MIB);
  for (let written = 0; written < size; written += zeros.length) {
    if (!gzip.write(zeros)) await new Promise((resolve) => gzip.once('drain', resolve));
  }
  gzip.end();
  await done;
  return Buffer.concat(chunks);
}

/** POST with node:http, reading the answer even when the server answers before the upload ends. */
function rawPost(url: string, body: Buffer, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...headers, 'Content-Length': String(body.length) } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const logs = (count: number, size = 100): string =>
  JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: Array.from({ length: count }, (_, i) => ({ body: { stringValue: `${i} ${'x'.repeat(size)}` } })) }] }] });

describe('the decompressed-size cap', () => {
  let gw: Gateway;
  let bomb: Buffer;
  beforeAll(async () => {
    gw = await startGateway({ env: { SERVICE_INGEST_MAX_DECOMPRESSED_BYTES: String(4 * MIB) } });
    bomb = await gzipBomb(1024 * MIB);
  });
  afterAll(async () => {
    await gw.stop();
  });

  it('discards a body over the cap whole: 200 with the rejection stated, nothing stored', async () => {
    const before = gw.exported('Logs').length;
    const response = await rawPost(`${gw.url}/api/v1/logs`, Buffer.from(logs(50_000)), { 'Content-Type': 'application/json', Authorization: `Bearer ${gw.keys['default']}` });
    expect(response.status).toBe(200);
    const body = JSON.parse(response.text) as { partialSuccess: { rejectedLogRecords: number; errorMessage: string } };
    expect(body.partialSuccess.rejectedLogRecords).toBe(1);
    // Said as it is: a valid body, only too big; not "could not be parsed".
    expect(body.partialSuccess.errorMessage).toBe(`the request body exceeds the ${4 * MIB}-byte limit on decompressed bodies and was discarded whole`);
    const ok = await rawPost(`${gw.url}/api/v1/logs`, Buffer.from(logs(10)), { 'Content-Type': 'application/json', Authorization: `Bearer ${gw.keys['default']}` });
    expect(ok).toEqual({ status: 200, text: '{}' });
    // Lines come in order: once the small batch's is in, any of the discarded body's would be too.
    await waitUntil(() => gw.exported('Logs').length > before);
    expect(gw.exported('Logs').slice(before).map((l) => l['log records'])).toEqual([10]);
  });

  it('stops inflating a 1 GiB gzip bomb at the cap: memory stays near the cap', async () => {
    expect(bomb.length).toBeLessThan(2 * MIB);
    const pid = gw.run.child.pid as number;
    const response = await rawPost(`${gw.url}/api/v1/logs`, bomb, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', Authorization: `Bearer ${gw.keys['default']}` });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.text)).toEqual({
      partialSuccess: { rejectedLogRecords: 1, errorMessage: `the request body exceeds the ${4 * MIB}-byte limit on decompressed bodies and was discarded whole` },
    });
    expect(peakRss(pid)).toBeLessThan(160 * MIB);
  });

  it('applies to the simple JSON endpoint too: 202, skipped 1, and a message naming the limit', async () => {
    const response = await rawPost(`${gw.url}/api/v1/ingest`, bomb, { 'Content-Encoding': 'gzip', 'X-Service-Key': gw.keys['default'] as string });
    expect(response.status).toBe(202);
    const body = JSON.parse(response.text) as Record<string, unknown>;
    expect([body['accepted'], body['skipped']]).toEqual([0, 1]);
    expect(body['message']).toBe(`The request body exceeds the ${4 * MIB}-byte limit on decompressed bodies and was discarded whole.`);
  });

  it('answers an unauthenticated bomb 401 before reading any of it, so none of it is inflated', async () => {
    // Only the head of the request is sent: an answer that waited for the body (to inflate it or
    // otherwise) could not come. CPU time would say the same only on an idle machine.
    const socket = connect(Number(new URL(gw.url).port), '127.0.0.1');
    socket.on('error', () => {});
    let answer = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => (answer += chunk));
    socket.write(`POST /api/v1/logs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: ${bomb.length}\r\n\r\n`);
    expect(await waitUntil(() => answer.endsWith('{"message":"API key invalid."}')), `no whole answer; got ${JSON.stringify(answer)}`).toBe(true);
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 401 Unauthorized');
    expect(answer).toContain('\r\nConnection: close\r\n');
    // What the client sends after the answer goes nowhere, and otelgate keeps serving.
    socket.end(bomb);
    const ok = await rawPost(`${gw.url}/api/v1/logs`, Buffer.from(logs(1)), { 'Content-Type': 'application/json', Authorization: `Bearer ${gw.keys['default']}` });
    expect(ok).toEqual({ status: 200, text: '{}' });
    expect(gw.run.child.exitCode).toBeNull();
  });
});

describe('protobuf switched off', () => {
  it.each([
    ['SERVICE_OTLP_PROTOBUF=false', { SERVICE_OTLP_PROTOBUF: 'false' }, ''],
    ['protobuf_enabled: false', {}, '    protobuf_enabled: false'],
  ])('with %s, a protobuf export is answered 415 telling the client to send JSON', async (_title, env, extra) => {
    const gw = await startGateway({ env, config: (keys) => GATEWAY_CONFIG(keys).replace('    auth: {authenticator: apikeyauth}', `    auth: {authenticator: apikeyauth}\n${extra}`) });
    try {
      const headers = { Authorization: `Bearer ${gw.keys['default']}` };
      const body = otlpJsonToProtobuf('logs', { resourceLogs: [] });
      for (const type of ['application/x-protobuf', 'application/protobuf']) {
        const response = await rawPost(`${gw.url}/api/v1/logs`, body, { ...headers, 'Content-Type': type });
        expect(response).toEqual({
          status: 415,
          text: JSON.stringify({ message: 'Only the OTLP JSON encoding is supported here: send OTLP JSON with Content-Type: application/json.' }),
        });
      }
      expect(await rawPost(`${gw.url}/api/v1/logs`, Buffer.from('{}'), { ...headers, 'Content-Type': 'application/json' })).toEqual({ status: 200, text: '{}' });
    } finally {
      await gw.stop();
    }
  });
});

describe('max_records_per_request', () => {
  /** A protobuf logs export of `count` empty log records: two bytes each on the wire. */
  function emptyRecords(count: number): Buffer {
    const records = Buffer.alloc(count * 2);
    for (let i = 0; i < count; i++) records[i * 2] = 0x12;
    const lengthPrefixed = (field: number, bytes: Buffer): Buffer => {
      const head: number[] = [(field << 3) | 2];
      for (let n = bytes.length; ; n = Math.floor(n / 128)) {
        if (n < 128) {
          head.push(n);
          break;
        }
        head.push((n % 128) | 128);
      }
      return Buffer.concat([Buffer.from(head), bytes]);
    };
    return lengthPrefixed(1, lengthPrefixed(2, records));
  }

  it('discards a body with more records than allowed, whole, in every format, and says why', async () => {
    const gw = await startGateway({ config: (keys) => GATEWAY_CONFIG(keys, '    max_records_per_request: 1000') });
    try {
      const key = { Authorization: `Bearer ${gw.keys['default']}` };
      const protobuf = await fetch(`${gw.url}/api/v1/logs`, { method: 'POST', body: emptyRecords(1001), headers: { ...key, 'Content-Type': 'application/x-protobuf' } });
      expect(protobuf.status).toBe(200);
      const answer = responseType('logs').toObject(responseType('logs').decode(Buffer.from(await protobuf.arrayBuffer())), { longs: Number });
      expect(answer).toEqual({ partialSuccess: { rejectedLogRecords: 1, errorMessage: expect.stringContaining('more than 1000 records') } });
      const json = await rawPost(`${gw.url}/api/v1/logs`, Buffer.from(logs(1001, 1)), { ...key, 'Content-Type': 'application/json' });
      expect(JSON.parse(json.text)).toEqual({
        partialSuccess: { rejectedLogRecords: 1, errorMessage: 'the request holds more than 1000 records, the most one request may carry, and was discarded whole' },
      });
      const simple = await rawPost(`${gw.url}/api/v1/ingest`, Buffer.from(JSON.stringify(Array.from({ length: 1001 }, () => ({ message: 'm' })))), key);
      expect(JSON.parse(simple.text)).toEqual({ accepted: 0, skipped: 1, message: 'The request holds more than 1000 records, the most one request may carry, and was discarded whole.' });
      expect(await rawPost(`${gw.url}/api/v1/logs`, Buffer.from(logs(1000, 1)), { ...key, 'Content-Type': 'application/json' })).toEqual({ status: 200, text: '{}' });
      // Lines come in order: once the last (accepted) batch's is in, any of the discarded ones' would be too.
      await waitUntil(() => gw.exported('Logs').length > 0);
      expect(gw.exported('Logs').map((l) => l['log records'])).toEqual([1000]);
    } finally {
      await gw.stop();
    }
  });

  it('keeps a tiny body of millions of empty records from growing otelgate past its limit', async () => {
    const gw = await startGateway();
    try {
      const body = emptyRecords(4_000_000);
      const response = await rawPost(`${gw.url}/api/v1/logs`, gzipSync(body), { Authorization: `Bearer ${gw.keys['default']}`, 'Content-Type': 'application/x-protobuf', 'Content-Encoding': 'gzip' });
      expect(response.status).toBe(200);
      expect(gw.exported('Logs')).toEqual([]);
      expect(peakRss(gw.run.child.pid as number)).toBeLessThan(900 * MIB);
      expect(gw.run.child.exitCode).toBeNull();
    } finally {
      await gw.stop();
    }
  });
});

describe('compression_algorithms', () => {
  it('accepts zstd once it is added, and the 415 message names the set in force', async () => {
    const gw = await startGateway({ config: (keys) => GATEWAY_CONFIG(keys, '    compression_algorithms: [gzip, zstd]') });
    try {
      const headers = { Authorization: `Bearer ${gw.keys['default']}`, 'Content-Type': 'application/json' };
      const zstd = await rawPost(`${gw.url}/api/v1/logs`, zstdCompressSync(Buffer.from(logs(3))), { ...headers, 'Content-Encoding': 'zstd' });
      expect(zstd).toEqual({ status: 200, text: '{}' });
      const deflate = await rawPost(`${gw.url}/api/v1/logs`, Buffer.from('{}'), { ...headers, 'Content-Encoding': 'deflate' });
      expect(deflate).toEqual({ status: 415, text: JSON.stringify({ message: 'Unsupported Content-Encoding "deflate". Supported: gzip, zstd (or none).' }) });
      await waitUntil(() => gw.exported('Logs').length > 0);
      expect(gw.exported('Logs').map((l) => l['log records'])).toEqual([3]);
    } finally {
      await gw.stop();
    }
  });
});

describe('a pipeline that cannot accept', () => {
  it('is answered 503 with Retry-After: 5 and the exact body, on every ingest endpoint', async () => {
    const gw = await startGateway({
      config: (keys) =>
        GATEWAY_CONFIG(keys)
          .replace('exporters:\n  debug:', 'processors:\n  memory_limiter: {check_interval: 1s, limit_mib: 1}\nexporters:\n  debug:')
          .replaceAll('exporters: [debug]}', 'processors: [memory_limiter], exporters: [debug]}'),
    });
    try {
      const headers = { Authorization: `Bearer ${gw.keys['default']}`, 'Content-Type': 'application/json' };
      const bodies: [string, string][] = [
        ['/api/v1/logs', logs(1)],
        ['/api/v1/traces', JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b174' }] }] }] })],
        ['/api/v1/metrics', JSON.stringify({ resourceMetrics: [{ scopeMetrics: [{ metrics: [{ name: 'm', gauge: { dataPoints: [{ timeUnixNano: '1', asDouble: 1 }] } }] }] }] })],
        ['/api/v1/ingest', JSON.stringify({ message: 'x' })],
      ];
      for (const [path, body] of bodies) {
        const response = await fetch(`${gw.url}${path}`, { method: 'POST', body, headers });
        expect([path, response.status, response.headers.get('retry-after'), await response.text()]).toEqual([
          path,
          503,
          '5',
          '{"message":"Log storage is temporarily unavailable. Please retry."}',
        ]);
      }
    } finally {
      await gw.stop();
    }
  });
});
