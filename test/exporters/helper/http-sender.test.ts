// The HTTP sender against real servers on loopback: what each answer and each network failure
// comes to, compression, headers, URLs, the response-body bound, time limits and pooling.
import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { constants, gzipSync, zstdCompressSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { INLINE_BYTES, zstdLevel } from '../../../src/exporters/helper/compression.js';
import { createHttpSender, type HttpRequest, type HttpSender } from '../../../src/exporters/helper/http-sender.js';
import { joinUrl } from '../../../src/exporters/helper/http-settings.js';
import { RESPONSE_LIMIT } from '../../../src/exporters/helper/read-body.js';
import { VERSION } from '../../../src/version.js';
import { exportResponse } from '../../../src/otlp/response.js';
import { settles, waitUntil } from '../../helpers/wait.js';
import { startBackend, type Backend, type Handler } from '../../helpers/http-backend.js';
import { clientSettings } from './settings-helper.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function backend(handler?: Handler): Promise<Backend> {
  const started = await startBackend(handler);
  cleanup.push(() => started.close());
  return started;
}

function sender(settings: Record<string, unknown>): HttpSender {
  const made = createHttpSender(clientSettings(settings));
  cleanup.push(() => made.close());
  return made;
}

const LOGS: HttpRequest = { path: '/v1/logs', body: Buffer.from('a protobuf request'), contentType: 'application/x-protobuf' };

async function sendOnce(to: HttpSender, request: HttpRequest = LOGS, signal?: AbortSignal) {
  return to.send(await to.prepare(request), signal);
}

/**
 * undici reuses a connection one event-loop turn after its answer (in case the server closes it
 * after all); a request sent sooner opens another. A queue's sends are that far apart anyway.
 */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

describe('answers', () => {
  const TABLE: [number, string, Record<string, unknown>][] = [
    [200, 'success', { kind: 'success', status: 200 }],
    [202, 'success', { kind: 'success', status: 202 }],
    [301, 'permanent', { kind: 'permanent', status: 301, backendMessage: 'status 301' }],
    [400, 'permanent', { kind: 'permanent', status: 400, backendMessage: 'status 400' }],
    [401, 'permanent', { kind: 'permanent', status: 401, backendMessage: 'status 401' }],
    [404, 'permanent', { kind: 'permanent', status: 404, backendMessage: 'status 404' }],
    [413, 'permanent', { kind: 'permanent', status: 413, backendMessage: 'status 413' }],
    [429, 'retryable', { kind: 'retryable', status: 429, retryAfterMs: 3000, backendMessage: 'status 429' }],
    [500, 'permanent', { kind: 'permanent', status: 500, backendMessage: 'status 500' }],
    [501, 'permanent', { kind: 'permanent', status: 501, backendMessage: 'status 501' }],
    [502, 'retryable', { kind: 'retryable', status: 502, backendMessage: 'status 502' }],
    [503, 'retryable', { kind: 'retryable', status: 503, retryAfterMs: 3000, backendMessage: 'status 503' }],
    [504, 'retryable', { kind: 'retryable', status: 504, backendMessage: 'status 504' }],
  ];

  it.each(TABLE)('%i from a real server is %s', async (status, _kind, expected) => {
    const server = await backend((_request, res) => {
      const body = status >= 300 ? `status ${status}` : '';
      // A redirect is not followed: the request would go elsewhere than the endpoint configured.
      res.writeHead(status, { 'content-type': 'text/plain', 'retry-after': '3', location: '/elsewhere' }).end(body);
    });
    const outcome = await sendOnce(sender({ endpoint: server.url }));
    expect(outcome).toMatchObject(expected);
    if (outcome.kind !== 'success') expect(outcome.failure).toBe('http_status');
    if (status === 502 || status === 504) expect(outcome).not.toHaveProperty('retryAfterMs');
    expect(server.requests).toHaveLength(1);
  });

  it('reads the partial success of a 2xx', async () => {
    const server = await backend((_request, res) => {
      const { contentType, body } = exportResponse('logs', 'protobuf', { rejected: 2, errorMessage: 'two records too old' });
      res.writeHead(200, { 'content-type': contentType }).end(body);
    });
    expect(await sendOnce(sender({ endpoint: server.url }))).toEqual({ kind: 'success', status: 200, partial: { rejected: 2, message: 'two records too old' } });
  });
});

describe('failures before an answer', () => {
  it('a refused connection', async () => {
    const port = await closedPort();
    expect(await sendOnce(sender({ endpoint: `http://127.0.0.1:${port}` }))).toEqual({
      kind: 'retryable',
      failure: 'connection_refused',
      message: `connection refused: connect ECONNREFUSED 127.0.0.1:${port}`,
    });
  });

  it('a connection closed before an answer', async () => {
    const server = await backend((_request, _res, req) => req.socket.destroy());
    expect(await sendOnce(sender({ endpoint: server.url }))).toMatchObject({ kind: 'retryable', failure: 'connection_reset' });
  });

  it('no answer within timeout, before the headers and during the body', async () => {
    const silent = await backend(() => undefined);
    const started = performance.now();
    expect(await sendOnce(sender({ endpoint: silent.url, timeout: '300ms' }))).toEqual({
      kind: 'retryable',
      failure: 'timeout',
      message: 'timed out: no complete answer within timeout 300ms',
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    const stalling = await backend((_request, res) => {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.write('the start of an answer that never ends');
    });
    expect(await sendOnce(sender({ endpoint: stalling.url, timeout: '300ms' }))).toMatchObject({ kind: 'retryable', failure: 'timeout' });
  });

  it('a host name that does not resolve', async () => {
    const outcome = await sendOnce(sender({ endpoint: 'http://backend.invalid:4318', timeout: '20s' }));
    expect(outcome).toMatchObject({ kind: 'retryable', failure: 'dns' });
  });

  it('shutdown during an attempt ends it at once as aborted', async () => {
    const silent = await backend(() => undefined);
    const shutdown = new AbortController();
    const to = sender({ endpoint: silent.url });
    const sending = sendOnce(to, LOGS, shutdown.signal);
    expect(await waitUntil(() => silent.requests.length === 1)).toBe(true);
    shutdown.abort();
    expect(await sending).toEqual({ kind: 'retryable', failure: 'aborted', message: 'aborted by shutdown: the exporter is shutting down' });
    expect(await sendOnce(to, LOGS, shutdown.signal)).toMatchObject({ kind: 'retryable', failure: 'aborted' });
  });

  it('a per-request header value that cannot be sent is permanent', async () => {
    const server = await backend();
    const outcome = await sendOnce(sender({ endpoint: server.url }), { ...LOGS, headers: { 'X-Scope-OrgID': 'a\nb' } });
    expect(outcome).toMatchObject({ kind: 'permanent', failure: 'invalid_request' });
    expect(server.requests).toHaveLength(0);
  });
});

describe('compression', () => {
  const body = Buffer.from(JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ body: `log line ${i}`, severity: 'INFO' }))));

  it.each([
    ['gzip', 'gzip'],
    ['zstd', 'zstd'],
    ['none', undefined],
  ])('%s: the server decodes exactly the body given', async (compression, encoding) => {
    const server = await backend();
    expect(await sendOnce(sender({ endpoint: server.url, compression }), { ...LOGS, body })).toMatchObject({ kind: 'success' });
    const [received] = server.requests;
    expect(received?.headers['content-encoding']).toBe(encoding);
    expect(received?.body.equals(body)).toBe(true);
    if (encoding === undefined) expect(received?.raw.length).toBe(body.length);
    else expect(received?.raw.length).toBeLessThan(body.length / 5);
  });

  it.each(['gzip', 'zstd'] as const)("%s: a body past INLINE_BYTES (on the thread pool) and one below it (inline) come out as zlib makes them, at the configured level (byte for byte where zlib's one-shot call makes the same frame)", async (compression) => {
    const server = await backend();
    const level = compression === 'gzip' ? 2 : 3;
    const to = sender({ endpoint: server.url, compression, compression_params: { level } });
    const large = Buffer.concat(Array.from({ length: Math.ceil((INLINE_BYTES[compression] * 1.5) / body.length) }, () => body));
    expect(large.length).toBeGreaterThan(INLINE_BYTES[compression]);
    const expected = (b: Buffer): Buffer => (compression === 'gzip' ? gzipSync(b, { level }) : zstdCompressSync(b, { params: { [constants.ZSTD_c_compressionLevel]: zstdLevel(level) } }));
    for (const b of [body, large]) {
      expect(await sendOnce(to, { ...LOGS, body: b })).toMatchObject({ kind: 'success' });
      const received = server.requests.at(-1);
      expect(received?.body.equals(b)).toBe(true);
      // zstd's streaming frame (the thread pool's) differs from its one-shot frame in its header.
      if (compression === 'gzip' || b === body) expect(received?.raw.equals(expected(b))).toBe(true);
    }
  });

  it('compresses at slower levels than the default on the thread pool, small bodies too; gzip level -2 is Huffman coding only', async () => {
    const server = await backend();
    const slow = sender({ endpoint: server.url, compression: 'zstd', compression_params: { level: 7 } });
    expect(await sendOnce(slow, { ...LOGS, body })).toMatchObject({ kind: 'success' });
    // zstd's streaming frame (the thread pool's) is not its one-shot frame.
    expect(server.requests[0]?.body.equals(body)).toBe(true);
    expect(server.requests[0]?.raw.equals(zstdCompressSync(body, { params: { [constants.ZSTD_c_compressionLevel]: 6 } }))).toBe(false);
    const huffman = sender({ endpoint: server.url, compression: 'gzip', compression_params: { level: -2 } });
    expect(await sendOnce(huffman, { ...LOGS, body })).toMatchObject({ kind: 'success' });
    expect(server.requests[1]?.raw.equals(gzipSync(body, { strategy: constants.Z_HUFFMAN_ONLY }))).toBe(true);
  });

  it('reads a zstd level as the Collector does, in four speeds, the fastest by default; gzip by default at 6', async () => {
    expect([-1, 0, 1, 2, 3, 5, 6, 9, 10, 22].map(zstdLevel)).toEqual([1, 1, 1, 1, 3, 3, 6, 6, 11, 11]);
    const server = await backend();
    await sendOnce(sender({ endpoint: server.url, compression: 'zstd' }), { ...LOGS, body });
    await sendOnce(sender({ endpoint: server.url, compression: 'gzip' }), { ...LOGS, body });
    expect(server.requests[0]?.raw.equals(zstdCompressSync(body, { params: { [constants.ZSTD_c_compressionLevel]: 1 } }))).toBe(true);
    expect(server.requests[1]?.raw.equals(gzipSync(body, { level: 6 }))).toBe(true);
  });

  it('compresses once, however often the prepared request is sent', async () => {
    const server = await backend();
    const to = sender({ endpoint: server.url, compression: 'zstd' });
    const prepared = await to.prepare({ ...LOGS, body });
    for (let i = 0; i < 3; i++) expect(await to.send(prepared)).toMatchObject({ kind: 'success' });
    expect(server.requests.map((r) => r.raw.equals(prepared.body))).toEqual([true, true, true]);
  });
});

describe('headers and URLs', () => {
  it('sends the content type, a User-Agent, the configured headers and the request\'s own', async () => {
    const server = await backend();
    const to = sender({ endpoint: server.url, headers: { 'X-Api-Key': 'k1', 'x-scope-orgid': 'configured' } });
    await sendOnce(to, { ...LOGS, headers: { 'X-Scope-OrgID': 'tenant-a', 'X-Extra': 'e' } });
    expect(server.requests[0]?.headers).toMatchObject({
      'content-type': 'application/x-protobuf',
      'content-encoding': 'gzip',
      'user-agent': `otelgate/${VERSION} (${process.platform}/${process.arch})`,
      'x-api-key': 'k1',
      'x-scope-orgid': 'tenant-a',
      'x-extra': 'e',
    });
    expect(server.requests[0]?.method).toBe('POST');
  });

  it('lets configured headers replace User-Agent, Content-Type and Host, as in the Collector', async () => {
    const server = await backend();
    const to = sender({ endpoint: server.url, compression: 'none', headers: [{ name: 'User-Agent', value: 'mine/1' }, { name: 'Content-Type', value: 'application/json' }, { name: 'Host', value: 'backend.example' }] });
    await sendOnce(to);
    expect(server.requests[0]?.headers).toMatchObject({ 'user-agent': 'mine/1', 'content-type': 'application/json', host: 'backend.example' });
  });

  it('adds the path to the endpoint\'s own path, and sends to a url as it is', async () => {
    const server = await backend();
    const to = sender({ endpoint: `${server.url}/otlp` });
    await sendOnce(to, { ...LOGS, path: '/v1/logs' });
    await sendOnce(to, { ...LOGS, path: 'v1/traces' });
    await sendOnce(to, { ...LOGS, path: undefined, url: `${server.url}/custom/metrics?tenant=a` });
    expect(server.requests.map((r) => r.url)).toEqual(['/otlp/v1/logs', '/otlp/v1/traces', '/custom/metrics?tenant=a']);
    expect(joinUrl('http://h/otlp/', '/v1/logs')).toBe('http://h/otlp/v1/logs');
    expect(joinUrl('http://h', 'v1/logs')).toBe('http://h/v1/logs');
  });

  it('refuses to prepare a request without a URL', async () => {
    await expect(sender({}).prepare(LOGS)).rejects.toThrow('a request needs a url, or a path and an endpoint in the settings');
  });
});

describe('the response body bound', () => {
  /** Writes 16 KiB chunks for as long as the client reads; counts what it wrote. */
  function endless(status: number): { handler: Handler; written: () => number } {
    let written = 0;
    const chunk = Buffer.alloc(16 * 1024, 'e');
    return {
      written: () => written,
      handler: (_request, res) => {
        res.writeHead(status, { 'content-type': 'text/plain' });
        const pump = (): void => {
          while (!res.destroyed && res.write(chunk)) written += chunk.length;
          if (!res.destroyed) {
            written += chunk.length;
            res.once('drain', pump);
          }
        };
        pump();
      },
    };
  }

  it('reads at most RESPONSE_LIMIT of an endless error body, then closes the connection', async () => {
    const { handler } = endless(400);
    const server = await backend(handler);
    const sending = sendOnce(sender({ endpoint: server.url, timeout: '0' }));
    expect(await settles(sending)).toBe(true);
    const outcome = await sending;
    expect(outcome).toMatchObject({ kind: 'permanent', status: 400 });
    expect(outcome.kind !== 'success' && outcome.backendMessage).toBe(`${'e'.repeat(512)}… (${RESPONSE_LIMIT - 512} more characters)`);
    expect(await waitUntil(() => server.open() === 0)).toBe(true);
  });

  it('does not hang on an endless 2xx body either', async () => {
    const { handler } = endless(200);
    const server = await backend(handler);
    const sending = sendOnce(sender({ endpoint: server.url, timeout: '0' }));
    expect(await settles(sending)).toBe(true);
    expect(await sending).toEqual({ kind: 'success', status: 200 });
  });
});

describe('connections', () => {
  /** Holds every answer until `n` requests are waiting, so that they must be on separate connections (or queue). */
  function gate(n: number): Handler {
    const waiting: (() => void)[] = [];
    return (_request, res) => {
      waiting.push(() => res.writeHead(200, { 'content-length': '0' }).end());
      if (waiting.length >= n) for (const answer of waiting.splice(0)) answer();
    };
  }

  it('keeps one connection alive for requests one after another', async () => {
    const server = await backend();
    const to = sender({ endpoint: server.url, compression: 'none' });
    for (let i = 0; i < 10; i++) {
      expect(await sendOnce(to)).toMatchObject({ kind: 'success' });
      await nextTurn();
    }
    expect(server.connections()).toBe(1);
  });

  it('opens a connection per request with disable_keep_alives', async () => {
    const server = await backend();
    const to = sender({ endpoint: server.url, disable_keep_alives: true });
    for (let i = 0; i < 5; i++) expect(await sendOnce(to)).toMatchObject({ kind: 'success' });
    expect(server.connections()).toBe(5);
  });

  it('opens a connection per concurrent request, up to max_conns_per_host', async () => {
    const unlimited = await backend(gate(4));
    const open = sender({ endpoint: unlimited.url });
    expect((await Promise.all([1, 2, 3, 4].map(() => sendOnce(open)))).map((o) => o.kind)).toEqual(['success', 'success', 'success', 'success']);
    expect(unlimited.connections()).toBe(4);

    const limited = await backend(gate(1));
    const one = sender({ endpoint: limited.url, max_conns_per_host: 1 });
    expect((await Promise.all([1, 2, 3, 4].map(() => sendOnce(one)))).map((o) => o.kind)).toEqual(['success', 'success', 'success', 'success']);
    expect(limited.connections()).toBe(1);
    expect(limited.requests).toHaveLength(4);
  });
});
