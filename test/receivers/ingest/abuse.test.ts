// Clients that misbehave, on the built server: slow headers and bodies, idle keep-alive, a flood
// of connections, random methods and paths. Each is cut off or answered 503 with Retry-After; the
// server keeps serving well-behaved clients throughout. A loaded machine may cut a slow client
// late, so these tests hold otelgate to "never before the limit, and not minutes after"; that the
// server carries each limit to the millisecond is timeouts.test.ts's, and the in-flight budget
// (which needs to see inside the server) is budget.test.ts's.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_CONFIG, startGateway, type Gateway } from '../../helpers/gateway.js';
import { settles, waitUntil } from '../../helpers/wait.js';

const SETTINGS = ['read_header_timeout: 1s', 'read_timeout: 2s', 'idle_timeout: 1s'];
const config =
  (settings: string[]) =>
  (keys: string): string =>
    GATEWAY_CONFIG(keys, settings.map((line) => `    ${line}`).join('\n'));

let gw: Gateway;

beforeAll(async () => {
  gw = await startGateway({ config: config(SETTINGS) });
});

afterAll(async () => {
  await gw.stop();
});

interface Raw {
  socket: Socket;
  received: () => string;
  closed: Promise<number>;
}

/**
 * A raw TCP connection to `to`; `closed` resolves with the ms it stayed open, counted from before
 * connecting, so never less than the server kept it open.
 */
async function open(to: Gateway = gw): Promise<Raw> {
  const start = performance.now();
  const socket = connect(Number(new URL(to.url).port), '127.0.0.1');
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now() - start)));
  await new Promise((resolve) => socket.once('connect', resolve));
  let data = '';
  socket.setEncoding('latin1').on('data', (chunk: string) => (data += chunk));
  socket.on('error', () => {});
  return { socket, received: () => data, closed };
}

/**
 * How long the server kept the connection open, once it has closed it. The deadline is well under
 * Node's own defaults (60 s for headers, 300 s for a request, and a check every 30 s), so a limit
 * otelgate failed to set fails here; the lower bound allows 1 ms for Node's whole-millisecond timers.
 */
async function openFor(raw: Raw, limitMs: number): Promise<number> {
  expect(await settles(raw.closed), 'the server never closed the connection').toBe(true);
  const ms = await raw.closed;
  expect(ms, 'closed before its limit').toBeGreaterThanOrEqual(limitMs - 1);
  return ms;
}

function ingestRequest(body: string, to: Gateway = gw): string {
  return `POST /api/v1/ingest HTTP/1.1\r\nHost: x\r\nX-Service-Key: ${to.keys['default']}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** The status line, once the whole head of the answer is in. */
async function statusOf(raw: Raw): Promise<string> {
  expect(await waitUntil(() => raw.received().includes('\r\n\r\n')), 'no answer').toBe(true);
  return raw.received().split('\r\n')[0] ?? '';
}

const wellBehaved = async (to: Gateway = gw): Promise<[number, unknown]> => {
  const response = await fetch(`${to.url}/api/v1/ingest`, { method: 'POST', body: '{"message":"still here"}', headers: { 'X-Service-Key': to.keys['default'] as string, Connection: 'close' } });
  return [response.status, await response.json()];
};
const SERVED = [202, { accepted: 1, skipped: 0 }];

describe('slow and idle clients', () => {
  it('disconnects a client that dribbles its headers once read_header_timeout (1s) has passed, without a 4xx', async () => {
    const raw = await open();
    raw.socket.write('POST /api/v1/logs HTTP/1.1\r\nHost: x\r\n');
    const drip = setInterval(() => raw.socket.write('X-A: b\r\n'), 200);
    try {
      await openFor(raw, 1000);
    } finally {
      clearInterval(drip);
    }
    expect(raw.received()).toBe('');
    expect(await wellBehaved()).toEqual(SERVED);
  });

  it('disconnects a client that dribbles its body once read_timeout (2s) has passed, storing none of it', async () => {
    // Export lines trail the answers, those of earlier tests too: a batch of 2 records, whose line
    // is waited for, marks where this test's begin.
    const marker = await fetch(`${gw.url}/api/v1/ingest`, { method: 'POST', body: '[{"message":"mark"},{"message":"mark"}]', headers: { 'X-Service-Key': gw.keys['default'] as string } });
    expect(marker.status).toBe(202);
    const since = (): number => gw.exported('Logs').findLastIndex((l) => l['log records'] === 2);
    expect(await waitUntil(() => since() !== -1)).toBe(true);
    const raw = await open();
    raw.socket.write(`POST /api/v1/ingest HTTP/1.1\r\nHost: x\r\nX-Service-Key: ${gw.keys['default']}\r\nContent-Length: 100000\r\n\r\n{"message": "never finished"`);
    const drip = setInterval(() => raw.socket.write(' '), 200);
    try {
      await openFor(raw, 2000);
    } finally {
      clearInterval(drip);
    }
    expect(raw.received()).toBe('');
    expect(await wellBehaved()).toEqual(SERVED);
    // Between the marker's line and the well-behaved record's, nothing of the cut-off request.
    expect(await waitUntil(() => gw.exported('Logs').length > since() + 1)).toBe(true);
    expect(gw.exported('Logs').slice(since() + 1).map((l) => l['log records'])).toEqual([1]);
  });

  it('closes an idle keep-alive connection after idle_timeout (1s), and tells the client so', async () => {
    const raw = await open();
    raw.socket.write(ingestRequest('{"message": "then idle"}'));
    expect(await statusOf(raw)).toBe('HTTP/1.1 202 Accepted');
    expect(raw.received()).toContain('\r\nKeep-Alive: timeout=1\r\n');
    await openFor(raw, 1000);
  });
});

describe('caps', () => {
  it('answers requests on connections beyond max_connections (20) with 503 and Retry-After, then serves again', async () => {
    // A gateway of its own: no connection of another test may still count against the cap.
    const fresh = await startGateway({ config: config(['max_connections: 20']) });
    try {
      // Opened one after the other before any request: the server takes them in this order, so the first 20 are served.
      const sockets: Raw[] = [];
      for (let i = 0; i < 40; i++) sockets.push(await open(fresh));
      for (const raw of sockets) raw.socket.write(ingestRequest('{"message": "flood"}', fresh));
      const statuses = await Promise.all(sockets.map(statusOf));
      expect(statuses.slice(0, 20)).toEqual(new Array<string>(20).fill('HTTP/1.1 202 Accepted'));
      expect(statuses.slice(20)).toEqual(new Array<string>(20).fill('HTTP/1.1 503 Service Unavailable'));
      for (const raw of sockets.slice(20)) expect(raw.received()).toMatch(/\r\nRetry-After: 5\r\n[\s\S]*\{"message":"Log storage is temporarily unavailable\. Please retry\."\}$/);
      for (const raw of sockets) raw.socket.destroy();
      await Promise.all(sockets.map((raw) => raw.closed));
      // The server hears of the closes in its own time; until then a new connection may still be one too many.
      expect(await waitUntil(async () => (await wellBehaved(fresh))[0] === 202), 'never served again').toBe(true);
      expect(await wellBehaved(fresh)).toEqual(SERVED);
    } finally {
      await fresh.stop();
    }
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
    expect(await wellBehaved()).toEqual(SERVED);
    expect(gw.run.child.exitCode).toBeNull();
  });
});
