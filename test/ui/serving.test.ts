// The viewer over plain HTTP from the built otelgate, as `npm run build` made it (dist/ui): the
// redirect, the page for every path of its router, the assets and their caching, HEAD, 404 and
// 405, the security headers on every answer, and the settings that turn it off.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { startGateway, STORE_CONFIG, type Gateway } from '../helpers/gateway.js';

const SECURITY = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

const INDEX = readFileSync(join(ROOT, 'dist/ui/index.html'), 'utf8');
const SCRIPT = /<script type="module" src="(\/ui\/assets\/main-[A-Z0-9]{8}\.js)"><\/script>/.exec(INDEX)?.[1] as string;
const STYLE = /<link rel="stylesheet" href="(\/ui\/assets\/main-[A-Z0-9]{8}\.css)">/.exec(INDEX)?.[1] as string;

const gateways: Gateway[] = [];
afterAll(async () => {
  for (const gateway of gateways) await gateway.stop();
});

/** A gateway writing to a store of its own, with `ingest` (YAML lines under receivers.ingest) merged over its config. */
async function gatewayWith(ingest = ''): Promise<Gateway> {
  const dir = mkdtempSync(join(tmpdir(), 'otelgate-ui-serving-'));
  const extra = join(dir, 'extra.yaml');
  if (ingest !== '') writeFileSync(extra, `receivers:\n  ingest:\n${ingest}\n`);
  const gateway = await startGateway({ config: STORE_CONFIG(join(dir, 'store.db')), configs: ingest === '' ? [] : [extra] });
  gateways.push(gateway);
  return gateway;
}

const headersOf = (response: Response): Record<string, string> => Object.fromEntries(response.headers);

describe('the viewer, served by the built otelgate', () => {
  let gw: Gateway;
  beforeAll(async () => {
    expect([SCRIPT, STYLE], INDEX).toEqual([expect.any(String), expect.any(String)]);
    gw = await gatewayWith();
  });
  const get = (path: string, init: RequestInit = {}) => fetch(`${gw.url}${path}`, { redirect: 'manual', ...init });

  it('has a page with no inline script or style: one script and one stylesheet of its own', () => {
    expect(INDEX.match(/<script\b[^>]*>/g)).toEqual([`<script type="module" src="${SCRIPT}">`]);
    expect(INDEX).not.toMatch(/<script[^>]*>[^<]/);
    expect(INDEX).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=/i);
  });

  it('redirects /ui to /ui/ with 308, keeping the query', async () => {
    for (const [path, location] of [
      ['/ui', '/ui/'],
      ['/ui?service=web&q=a%20b', '/ui/?service=web&q=a%20b'],
    ]) {
      const response = await get(path as string);
      expect([response.status, response.headers.get('location')], path).toEqual([308, location]);
      expect(headersOf(response)).toMatchObject(SECURITY);
    }
  });

  it('answers the page, index.html, for every path under /ui/ that is not an asset: the page routes itself', async () => {
    for (const path of ['/ui/', '/ui/logs', '/ui/traces/4bf92f3577b34da6a3ce929d0e0e4736?service=web', '/ui/signin', '/ui/no/such/view', '/ui/assets']) {
      const response = await get(path);
      expect([response.status, await response.text()], path).toEqual([200, INDEX]);
      expect(headersOf(response), path).toMatchObject({
        ...SECURITY,
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-cache',
        etag: expect.stringMatching(/^"[A-Za-z0-9_-]{27}"$/),
        'content-length': String(Buffer.byteLength(INDEX)),
      });
    }
  });

  it('answers each asset as built, with its type, kept for good by the browser (its name changes with its content)', async () => {
    for (const [path, type] of [
      [SCRIPT, 'text/javascript; charset=utf-8'],
      [STYLE, 'text/css; charset=utf-8'],
    ]) {
      const response = await get(path as string);
      expect([response.status, Buffer.from(await response.arrayBuffer()).equals(readFileSync(join(ROOT, 'dist', path as string)))], path).toEqual([200, true]);
      expect(headersOf(response), path).toMatchObject({ ...SECURITY, 'content-type': type, 'cache-control': 'public, max-age=31536000, immutable', etag: expect.any(String) });
    }
  });

  it('answers a page the browser has, by its ETag, 304', async () => {
    const etag = (await get('/ui/')).headers.get('etag') as string;
    const response = await get('/ui/errors', { headers: { 'If-None-Match': etag } });
    expect([response.status, await response.text(), response.headers.get('etag'), response.headers.get('cache-control')]).toEqual([304, '', etag, 'no-cache']);
    expect(headersOf(response)).toMatchObject(SECURITY);
  });

  it('answers HEAD as GET, without the body', async () => {
    for (const path of ['/ui/', SCRIPT]) {
      const [head, full] = [await get(path, { method: 'HEAD' }), await get(path)];
      expect([head.status, await head.text()], path).toEqual([200, '']);
      // Node closes the connection after a HEAD (Connection, Keep-Alive); the rest is the GET's.
      const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...headers } = headersOf(head);
      expect(headersOf(full)).toMatchObject(headers);
      expect(headers).toMatchObject({ ...SECURITY, 'content-length': full.headers.get('content-length') });
    }
  });

  it('answers an asset it does not have 404, not the page', async () => {
    for (const path of ['/ui/assets/main-AAAAAAAA.js', '/ui/assets/', `${SCRIPT}.map`]) {
      const response = await get(path);
      expect([response.status, response.headers.get('content-type'), await response.text()], path).toEqual([404, 'text/plain; charset=utf-8', 'No such file in the viewer.']);
      expect(headersOf(response), path).toMatchObject(SECURITY);
    }
  });

  it('answers any method but GET and HEAD 405, naming them', async () => {
    for (const [method, path] of [
      ['POST', '/ui/'],
      ['PUT', SCRIPT],
      ['DELETE', '/ui'],
      ['OPTIONS', '/ui/logs'],
    ]) {
      const response = await get(path as string, { method });
      expect([response.status, response.headers.get('allow')], `${method} ${path}`).toEqual([405, 'GET, HEAD']);
      expect(headersOf(response)).toMatchObject(SECURITY);
    }
  });

  it('leaves the read API beside it as it was', async () => {
    const read = await gw.read('logs', gw.keys['default']);
    expect([read.status, read.text]).toEqual([200, '{"rows":[]}']);
    expect((await get('/uix')).status).toBe(404);
  });
});

describe('the settings that turn the viewer off', () => {
  it('ui.enabled: false: /ui is the receiver’s 404, and the read API still answers', async () => {
    const gw = await gatewayWith('    ui: {enabled: false}');
    for (const path of ['/ui/', '/ui', SCRIPT]) {
      const response = await fetch(`${gw.url}${path}`, { redirect: 'manual' });
      expect([response.status, response.headers.get('content-security-policy')], path).toEqual([404, null]);
      expect(await response.json(), path).toEqual({ message: expect.stringMatching(/^Not found\. otelgate receives POST /) });
    }
    expect((await gw.read('logs', gw.keys['default'])).status).toBe(200);
  });

  it('read_api.enabled: false: no viewer either, since it reads through the read API', async () => {
    const gw = await gatewayWith('    read_api: {enabled: false}');
    for (const path of ['/ui/', '/ui', '/api/v1/query/logs']) {
      const response = await fetch(`${gw.url}${path}`, { redirect: 'manual', headers: { Authorization: `Bearer ${gw.keys['default']}` } });
      expect([response.status, response.headers.get('content-security-policy')], path).toEqual([404, null]);
    }
  });
});

describe('the viewer beside a cors setting', () => {
  it('keeps its pages to its own origin: no CORS headers, and a preflight is its 405 with the security headers; the read API keeps CORS', async () => {
    const gw = await gatewayWith('    cors: {allowed_origins: ["https://app.example.com"]}');
    const origin = { Origin: 'https://app.example.com' };
    const page = await fetch(`${gw.url}/ui/`, { headers: origin });
    expect([page.status, page.headers.get('access-control-allow-origin')]).toEqual([200, null]);
    const preflight = await fetch(`${gw.url}/ui/logs`, { method: 'OPTIONS', headers: { ...origin, 'Access-Control-Request-Method': 'GET' } });
    expect([preflight.status, preflight.headers.get('access-control-allow-origin'), preflight.headers.get('allow')]).toEqual([405, null, 'GET, HEAD']);
    expect(headersOf(preflight)).toMatchObject(SECURITY);
    const read = await fetch(`${gw.url}/api/v1/query/logs`, { method: 'OPTIONS', headers: { ...origin, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' } });
    expect([read.status, read.headers.get('access-control-allow-origin')]).toEqual([204, 'https://app.example.com']);
  });
});
