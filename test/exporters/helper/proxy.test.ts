// proxy_url against a small proxy started here: an https:// backend is reached through a CONNECT
// tunnel, an http:// one by a forward request (as Go's transport does), credentials in the URL
// go as Proxy-Authorization, and a proxy's refusal is a retryable `proxy` failure.
import { once } from 'node:events';
import http, { type IncomingMessage } from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHttpSender, type HttpSender } from '../../../src/exporters/helper/http-sender.js';
import { startBackend, type Backend } from '../../helpers/http-backend.js';
import { makeCertificates, type Certificates } from '../../helpers/certificates.js';
import { clientSettings } from './settings-helper.js';

interface Seen {
  method: string;
  target: string;
  authorization: string | undefined;
}

interface Proxy {
  url: string;
  seen: Seen[];
}

/** Refuses a tunnel or a forward request with `refuse` when given; otherwise relays both. */
async function startProxy(refuse?: number): Promise<Proxy> {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const note = (req: IncomingMessage): void => {
    seen.push({ method: req.method ?? '', target: req.url ?? '', authorization: req.headers['proxy-authorization'] });
  };
  const server = http.createServer((req, res) => {
    note(req);
    if (refuse !== undefined) {
      res.writeHead(refuse, { 'content-length': '0' }).end();
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = http.request(req.url ?? '', { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    note(req);
    sockets.add(client);
    if (refuse !== undefined) {
      client.end(`HTTP/1.1 ${refuse} Refused\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    const [host, port] = (req.url ?? '').split(':');
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanup.push(async () => {
    server.closeAllConnections();
    for (const socket of sockets) socket.destroy();
    server.close();
    await once(server, 'close');
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

let certificates: Certificates;
beforeAll(() => {
  certificates = makeCertificates();
});
afterAll(() => certificates.remove());

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function backend(tls: boolean): Promise<Backend> {
  const server = await startBackend(undefined, tls ? { cert: readFileSync(certificates.file('server.crt')), key: readFileSync(certificates.file('server.key')) } : undefined);
  cleanup.push(() => server.close());
  return server;
}

function sender(settings: Record<string, unknown>): HttpSender {
  const made = createHttpSender(clientSettings({ compression: 'none', ...settings, tls: { ca_file: certificates.file('ca.crt') } }));
  cleanup.push(() => made.close());
  return made;
}

const BODY = Buffer.from('through the proxy');

async function send(to: HttpSender) {
  return to.send(await to.prepare({ path: '/v1/logs', body: BODY, contentType: 'application/x-protobuf' }));
}

describe('proxy_url', () => {
  it('reaches an https:// endpoint through a CONNECT tunnel', async () => {
    const proxy = await startProxy();
    const server = await backend(true);
    const to = sender({ endpoint: server.url, proxy_url: proxy.url });
    expect(await send(to)).toEqual({ kind: 'success', status: 200 });
    // undici reuses a connection one event-loop turn after its answer.
    await new Promise((resolve) => setImmediate(resolve));
    expect(await send(to)).toEqual({ kind: 'success', status: 200 });
    // One tunnel, kept alive for the second request.
    expect(proxy.seen).toEqual([{ method: 'CONNECT', target: `127.0.0.1:${server.port}`, authorization: undefined }]);
    expect(server.requests.map((r) => [r.url, r.body.equals(BODY)])).toEqual([
      ['/v1/logs', true],
      ['/v1/logs', true],
    ]);
  });

  it('asks the proxy for an http:// endpoint\'s URL, without a tunnel', async () => {
    const proxy = await startProxy();
    const server = await backend(false);
    expect(await send(sender({ endpoint: server.url, proxy_url: proxy.url }))).toEqual({ kind: 'success', status: 200 });
    expect(proxy.seen).toEqual([{ method: 'POST', target: `${server.url}/v1/logs`, authorization: undefined }]);
    expect(server.requests[0]?.body.equals(BODY)).toBe(true);
  });

  it('sends the credentials of the proxy URL as Proxy-Authorization, to the proxy only', async () => {
    const proxy = await startProxy();
    const secure = await backend(true);
    const plain = await backend(false);
    const withCredentials = proxy.url.replace('http://', 'http://otelgate:s%40cret@');
    expect(await send(sender({ endpoint: secure.url, proxy_url: withCredentials }))).toMatchObject({ kind: 'success' });
    expect(await send(sender({ endpoint: plain.url, proxy_url: withCredentials }))).toMatchObject({ kind: 'success' });
    const basic = `Basic ${Buffer.from('otelgate:s@cret').toString('base64')}`;
    expect(proxy.seen.map((s) => [s.method, s.authorization])).toEqual([
      ['CONNECT', basic],
      ['POST', basic],
    ]);
    expect([secure.requests[0]?.headers['proxy-authorization'], plain.requests[0]?.headers['proxy-authorization']]).toEqual([undefined, undefined]);
  });

  it('takes a refused tunnel or proxy authentication for a retryable proxy failure', async () => {
    const forbidding = await startProxy(403);
    expect(await send(sender({ endpoint: (await backend(true)).url, proxy_url: forbidding.url }))).toMatchObject({ kind: 'retryable', failure: 'proxy' });
    const authenticating = await startProxy(407);
    expect(await send(sender({ endpoint: (await backend(true)).url, proxy_url: authenticating.url }))).toMatchObject({ kind: 'retryable', failure: 'proxy' });
    expect(await send(sender({ endpoint: (await backend(false)).url, proxy_url: authenticating.url }))).toMatchObject({ kind: 'retryable', failure: 'proxy' });
  });

  it('a proxy that is down is a refused connection', async () => {
    const probe = net.createServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const { port } = probe.address() as AddressInfo;
    probe.close();
    await once(probe, 'close');
    expect(await send(sender({ endpoint: (await backend(false)).url, proxy_url: `http://127.0.0.1:${port}` }))).toMatchObject({ kind: 'retryable', failure: 'connection_refused' });
  });
});
