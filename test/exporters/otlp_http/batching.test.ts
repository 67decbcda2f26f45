// Batching after the queue, as users run it: requests of one project are merged into one request
// to the backend, and two projects never share one, each sent as its own tenant.
import { describe, expect, it } from 'vitest';
import type { LogRow } from '../../../src/model/logs.js';
import { startBackend } from '../../helpers/backend.js';
import { forwardingHead } from '../../helpers/forwarder.js';
import { startGateway, stoppedAfterAll } from '../../helpers/gateway.js';
import { waitUntil } from '../../helpers/wait.js';

const { gateways, backends } = stoppedAfterAll();

const config = (url: string) => (keysFile: string) => `${forwardingHead(keysFile)}
exporters:
  otlp_http:
    endpoint: ${url}
    tenant: {header: X-Scope-OrgID}
    sending_queue:
      storage: file_storage
      num_consumers: 1
      batch: {flush_timeout: 60s, min_size: 30}
service:
  extensions: [apikeyauth, file_storage]
  pipelines:
    logs: {receivers: [ingest], exporters: [otlp_http]}
`;

describe('otlp_http with sending_queue.batch', () => {
  it('merges the requests of one project up to min_size, and keeps projects in requests of their own', async () => {
    const backend = await startBackend();
    backends.push(backend);
    // Until the test says so, the backend holds its first answer: what arrives meanwhile is queued and batched.
    let release = (): void => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    backend.hold = () => released;
    const gateway = await startGateway({ projects: ['shop', 'blog'], config: config(backend.url) });
    gateways.push(gateway);
    const send = async (project: string, from: number, count: number): Promise<void> => {
      const records = Array.from({ length: count }, (_, i) => ({ message: `${project}-${from + i}` }));
      const response = await fetch(`${gateway.url}/api/v1/ingest`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${gateway.keys[project]}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(records),
      });
      expect(response.status).toBe(202);
    };
    // 30 shop records go at once (min_size), then 3 × 10 of each project interleaved. flush_timeout is long: only
    // min_size sends here, so the test does not depend on how fast the machine is.
    await send('shop', 0, 30);
    for (let i = 0; i < 3; i++) {
      await send('shop', 100 + i * 10, 10);
      await send('blog', i * 10, 10);
    }
    release();
    expect(await waitUntil(() => backend.delivered('logs').length === 90)).toBe(true);
    const requests = backend.received.map((r) => ({ tenant: r.headers['x-scope-orgid'], bodies: r.rows.map((row) => (row as LogRow).body as string) }));
    expect(requests.map((r) => [r.tenant, r.bodies.length])).toEqual([
      ['shop', 30],
      ['shop', 30],
      ['blog', 30],
    ]);
    for (const request of requests) expect(request.bodies.every((body) => body.startsWith(`${request.tenant}-`))).toBe(true);
  });

  it('sends headers taken from the request metadata (include_metadata, metadata_headers), and never batches two values together', async () => {
    const backend = await startBackend();
    backends.push(backend);
    let release = (): void => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    backend.hold = () => released;
    const withMetadata = (keysFile: string): string =>
      config(backend.url)(keysFile)
        .replace('auth: {authenticator: apikeyauth}}', 'auth: {authenticator: apikeyauth}, include_metadata: true}')
        .replace('tenant: {header: X-Scope-OrgID}', 'metadata_headers: [{key: X-Scope-OrgID, from_context: X-Tenant, default_value: none}]');
    const gateway = await startGateway({ projects: ['shop'], config: withMetadata });
    gateways.push(gateway);
    const send = async (tenant: string | undefined, from: number): Promise<void> => {
      const records = Array.from({ length: 10 }, (_, i) => ({ message: `${tenant ?? 'none'}-${from + i}` }));
      const headers: Record<string, string> = { Authorization: `Bearer ${gateway.keys['shop']}`, 'Content-Type': 'application/json' };
      if (tenant !== undefined) headers['X-Tenant'] = tenant;
      const response = await fetch(`${gateway.url}/api/v1/ingest`, { method: 'POST', headers, body: JSON.stringify(records) });
      expect(response.status).toBe(202);
    };
    await send('eu', 0);
    await send('eu', 10);
    await send('eu', 20);
    for (let i = 0; i < 3; i++) {
      await send('us', i * 10);
      await send(undefined, i * 10);
      await send('eu', 100 + i * 10);
    }
    release();
    expect(await waitUntil(() => backend.delivered('logs').length === 120)).toBe(true);
    const requests = backend.received.map((r) => ({ tenant: r.headers['x-scope-orgid'], bodies: r.rows.map((row) => (row as LogRow).body as string) }));
    expect(requests.map((r) => [r.tenant, r.bodies.length])).toEqual([
      ['eu', 30],
      ['us', 30],
      ['none', 30],
      ['eu', 30],
    ]);
    for (const request of requests) expect(request.bodies.every((body) => body.startsWith(`${request.tenant}-`))).toBe(true);
  });
});
