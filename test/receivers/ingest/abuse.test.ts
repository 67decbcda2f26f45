// Clients that misbehave, on the built server: slow headers and bodies, idle keep-alive,
// a flood of connections, bodies that would hold too much memory at once, random methods and
// paths. Each is cut off within its documented bound or answered 503 with Retry-After; the
// server keeps serving well-behaved clients throughout.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_CONFIG, startGateway, type Gateway } from '../../helpers/gateway.js';

// One largest request must fit the in-flight budget: 800,000 body bytes + 1,000 rows × 400 bytes ≤ 1,310,720.
const SETTINGS = ['read_header_timeout: 1s', 'read_timeout: 2s', 'idle_timeout: 1s', 'max_connections: 20', 'max_request_body_size: 800000', 'max_records_per_request: 1000', 'max_in_flight_bytes: 1310720'];

let gw: Gateway;
let port: number;

beforeAll(async () => {
  gw = await startGateway({ config: (keys) => GATEWAY_CONFIG(keys, SETTINGS.map((line) => `    ${line}`).join('\n')) });
  port = Number(new URL(gw.url).port);
});

afterAll(async () => {
  await gw.stop();
});

interface Raw {
  socket: Socket;
  received: () => string;
  closed: Promise<number>;
}

/** A raw TCP connection to otelgate; `closed` resolves with the ms it stayed open. */
async function open(): Promise<Raw> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const start = Date.now();
  let data = '';
  socket.setEncoding('latin1').on('data', (chunk: string) => (data += chunk));
  socket.on('error', () => {});
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - start)));
  return { socket, received: () => data, closed };
}

function ingestRequest(body: string, extra = ''): string {
  return `POST /api/v1/ingest HTTP/1.1\r\nHost: x\r\nX-Service-Key: ${gw.keys['default']}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;
}

async function statusOf(raw: Raw): Promise<string> {
  for (let i = 0; i < 200 && !raw.received().includes('\r\n\r\n'); i++) await new Promise((r) => setTimeout(r, 10));
  return raw.received().split('\r\n')[0] ?? '';
}

async function wellBehaved(): Promise<void> {
  const response = await fetch(`${gw.url}/api/v1/ingest`, { method: 'POST', body: '{"message":"still here"}', headers: { 'X-Service-Key': gw.keys['default'] as string, Connection: 'close' } });
  expect([response.status, await response.json()]).toEqual([202, { accepted: 1, skipped: 0 }]);
}

describe('slow and idle clients', () => {
  it('disconnects a client that dribbles its headers once read_header_timeout (1s) has passed, without a 4xx', async () => {
    const raw = await open();
    raw.socket.write('POST /api/v1/logs HTTP/1.1\r\nHost: x\r\n');
    const drip = setInterval(() => raw.socket.write('X-A: b\r\n'), 200);
    const openFor = await raw.closed;
    clearInterval(drip);
    expect(openFor).toBeGreaterThanOrEqual(900);
    expect(openFor).toBeLessThan(3000);
    expect(raw.received()).toBe('');
    await wellBehaved();
  });

  it('disconnects a client that dribbles its body once read_timeout (2s) has passed, storing none of it', async () => {
    const before = gw.exported('Logs').length;
    const raw = await open();
    raw.socket.write(`POST /api/v1/ingest HTTP/1.1\r\nHost: x\r\nX-Service-Key: ${gw.keys['default']}\r\nContent-Length: 100000\r\n\r\n{"message": "never finished"`);
    const drip = setInterval(() => raw.socket.write(' '), 200);
    const openFor = await raw.closed;
    clearInterval(drip);
    expect(openFor).toBeGreaterThanOrEqual(1900);
    expect(openFor).toBeLessThan(4000);
    expect(raw.received()).toBe('');
    expect(gw.exported('Logs').length).toBe(before);
    await wellBehaved();
  });

  it('closes an idle keep-alive connection after idle_timeout (1s)', async () => {
    const raw = await open();
    raw.socket.write(ingestRequest('{"message": "then idle"}'));
    expect(await statusOf(raw)).toBe('HTTP/1.1 202 Accepted');
    const openFor = await raw.closed;
    expect(openFor).toBeGreaterThanOrEqual(900);
    expect(openFor).toBeLessThan(3000);
  });
});

describe('caps', () => {
  it('answers requests on connections beyond max_connections (20) with 503 and Retry-After, then serves again', async () => {
    const sockets: Raw[] = [];
    for (let i = 0; i < 40; i++) sockets.push(await open());
    await new Promise((r) => setTimeout(r, 100));
    for (const raw of sockets) raw.socket.write(ingestRequest('{"message": "flood"}'));
    const statuses = await Promise.all(sockets.map(statusOf));
    expect(statuses.filter((s) => s === 'HTTP/1.1 202 Accepted')).toHaveLength(20);
    const refused = sockets.filter((_, i) => statuses[i] === 'HTTP/1.1 503 Service Unavailable');
    expect(refused).toHaveLength(20);
    for (const raw of refused) expect(raw.received()).toMatch(/\r\nRetry-After: 5\r\n[\s\S]*\{"message":"Log storage is temporarily unavailable\. Please retry\."\}$/);
    for (const raw of sockets) raw.socket.destroy();
    await Promise.all(sockets.map((raw) => raw.closed));
    await new Promise((r) => setTimeout(r, 50));
    await wellBehaved();
  });

  it('answers a body that would take the bytes in flight past max_in_flight_bytes (1.25 MiB) with 503, and frees them after', async () => {
    const body = JSON.stringify(Array.from({ length: 1000 }, (_, i) => ({ message: `${i} ${'x'.repeat(760)}` })));
    expect(body.length).toBeGreaterThan(770_000);
    expect(body.length).toBeLessThan(800_000);
    const first = await open();
    first.socket.write(ingestRequest(body).slice(0, -50_000));
    await new Promise((r) => setTimeout(r, 200));
    const second = await open();
    second.socket.write(ingestRequest(body).slice(0, -50_000));
    expect(await statusOf(second)).toBe('HTTP/1.1 503 Service Unavailable');
    expect(second.received()).toContain('\r\nRetry-After: 5\r\n');
    first.socket.write(ingestRequest(body).slice(-50_000));
    expect(await statusOf(first)).toBe('HTTP/1.1 202 Accepted');
    expect(first.received()).toContain('{"accepted":1000,"skipped":0}');
    first.socket.destroy();
    const third = await open();
    third.socket.write(ingestRequest(body));
    expect(await statusOf(third)).toBe('HTTP/1.1 202 Accepted');
    third.socket.destroy();
  });
});

describe('decoded rows in flight', () => {
  it('count against max_in_flight_bytes too: a body whose rows would go past it is answered 503', async () => {
    const big = JSON.stringify(Array.from({ length: 1000 }, (_, i) => ({ message: `${i} ${'x'.repeat(760)}` })));
    const small = JSON.stringify(Array.from({ length: 1000 }, (_, i) => ({ message: `${i} ${'y'.repeat(180)}` })));
    const holder = await open();
    holder.socket.write(ingestRequest(big).slice(0, -10_000));
    await new Promise((r) => setTimeout(r, 200));
    // The second body's bytes fit beside the first's; its 1,000 rows at 400 bytes each do not.
    const second = await open();
    second.socket.write(ingestRequest(small));
    expect(await statusOf(second)).toBe('HTTP/1.1 503 Service Unavailable');
    expect(second.received()).toContain('\r\nRetry-After: 5\r\n');
    holder.socket.write(ingestRequest(big).slice(-10_000));
    expect(await statusOf(holder)).toBe('HTTP/1.1 202 Accepted');
    holder.socket.destroy();
    const again = await open();
    again.socket.write(ingestRequest(small));
    expect(await statusOf(again)).toBe('HTTP/1.1 202 Accepted');
    expect(again.received()).toContain('{"accepted":1000,"skipped":0}');
    again.socket.destroy();
  });
});

describe('random methods and paths', () => {
  it('get 404, 405 or (for what is not HTTP) 400, never a 5xx, and the server keeps serving', async () => {
    const methods = ['GET', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND', 'FROB'];
    const paths = ['/', '/api', '/api/v1', '/api/v1/logs', '/api/v1/logs/', '/v1/traces', '/API/V1/LOGS', '/%00', '/../../etc/passwd', `/${'a'.repeat(3000)}`, '/api/v1/ingest?x=1'];
    const seen = new Map<string, number>();
    let n = 0;
    for (const method of methods) {
      for (const path of paths) {
        const raw = await open();
        raw.socket.write(`${method} ${path} HTTP/1.1\r\nHost: x\r\nUser-Agent: fuzz-${n++}\r\nConnection: close\r\n\r\n`);
        const status = await statusOf(raw);
        raw.socket.destroy();
        const code = status.split(' ')[1] ?? '';
        seen.set(code, (seen.get(code) ?? 0) + 1);
      }
    }
    expect([...seen.keys()].sort()).toEqual(['400', '404', '405']);
    expect(seen.get('400')).toBe(paths.length);
    await wellBehaved();
    expect(gw.run.child.exitCode).toBeNull();
  });
});
