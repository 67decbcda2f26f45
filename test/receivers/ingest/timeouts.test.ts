// The ingest receiver's time limits are Node's own (headersTimeout, requestTimeout, keepAliveTimeout):
// here, in process, that the server it builds carries each setting exactly and checks them often
// enough. That Node holds a real connection to them is abuse.test.ts's, on the built server; there
// a loaded machine may cut a connection late, so only these settings can be checked to the millisecond.
import type { Server } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startReceiver, type InProcessReceiver } from '../../helpers/receiver.js';

const servers = vi.hoisted(() => [] as Server[]);
vi.mock('../../../src/runtime/http.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../src/runtime/http.js')>();
  const createServer = ((...args: Parameters<typeof actual.createServer>) => {
    const server = actual.createServer(...args);
    servers.push(server);
    return server;
  }) as typeof actual.createServer;
  return { ...actual, createServer };
});

const running: InProcessReceiver[] = [];
afterEach(async () => {
  for (const receiver of running.splice(0)) await receiver.stop();
  servers.length = 0;
});

describe('ingest receiver time limits', () => {
  it.each([
    ['the defaults', [], { headersTimeout: 10_000, requestTimeout: 60_000, keepAliveTimeout: 60_000, connectionsCheckingInterval: 1000 }],
    ['the abuse test’s', ['read_header_timeout: 1s', 'read_timeout: 2s', 'idle_timeout: 1s'], { headersTimeout: 1000, requestTimeout: 2000, keepAliveTimeout: 1000, connectionsCheckingInterval: 1000 }],
    // A whole request may never have less time than its headers; Node checks no more often than it must.
    ['a read_timeout below read_header_timeout', ['read_header_timeout: 5s', 'read_timeout: 2s'], { headersTimeout: 5000, requestTimeout: 5000, keepAliveTimeout: 60_000, connectionsCheckingInterval: 1000 }],
    ['a read_header_timeout below 1s', ['read_header_timeout: 300ms'], { headersTimeout: 300, requestTimeout: 60_000, keepAliveTimeout: 60_000, connectionsCheckingInterval: 300 }],
  ])('with %s, the server has the settings in milliseconds and checks them in time', async (_title, settings, expected) => {
    running.push(await startReceiver(settings));
    expect(servers).toHaveLength(1);
    const server = servers[0] as Server & { connectionsCheckingInterval: number };
    const { headersTimeout, requestTimeout, keepAliveTimeout, connectionsCheckingInterval } = server;
    expect({ headersTimeout, requestTimeout, keepAliveTimeout, connectionsCheckingInterval }).toEqual(expected);
  });
});
