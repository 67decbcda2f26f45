// Chaining over gRPC: otelgate A exports with the otlp exporter (OTLP/gRPC, the Collector's
// `tls: {insecure: true}`) to otelgate B's otlp receiver. A keeps what it receives in its own store
// as well, so the rows B stores can be compared with the rows A received, field by field, for all
// three signals, with two projects each landing in its own project at B (A calls with each
// project's key at B: tenant.bearer_tokens, sent as `authorization` metadata). Then B stops for
// 20 s while A keeps taking records, and every record A answered 2xx arrives once B is back.
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Signal } from '../../../src/model/signal.js';
import { RunningCli } from '../../helpers/cli.js';
import { postGolden, rowSet, startGateway, type Gateway } from '../../helpers/gateway.js';
import { waitUntil } from '../../helpers/wait.js';

const PROJECTS = ['shop', 'blog'];
const READS: Record<Signal, 'logs' | 'spans' | 'metrics'> = { logs: 'logs', traces: 'spans', metrics: 'metrics' };
const ROWS: Record<Signal, number> = { logs: 6, traces: 2, metrics: 7 };
const ALL = { from: '1970-01-01T00:00:00Z', limit: '10000' };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** B: the otlp receiver on gRPC with keys, into a store; its ingest receiver serves the read API. */
const receiverConfig = (grpcPort: number) => (keysFile: string): string => `
extensions:
  apikeyauth: {keys_file: ${keysFile}}
receivers:
  ingest: {endpoint: "127.0.0.1:0", auth: {authenticator: apikeyauth}}
  otlp:
    protocols:
      grpc: {endpoint: "127.0.0.1:${grpcPort}", auth: {authenticator: apikeyauth}}
exporters:
  store: {path: ${join(keysFile, '..', 'b.db')}}
service:
  extensions: [apikeyauth]
  pipelines:
    logs: {receivers: [ingest, otlp], exporters: [store]}
    traces: {receivers: [ingest, otlp], exporters: [store]}
    metrics: {receivers: [ingest, otlp], exporters: [store]}
`;

/** A: ingest into its own store and the otlp exporter to B. */
const forwarderConfig = (grpcPort: number, b: Gateway) => (keysFile: string): string => `
extensions:
  apikeyauth: {keys_file: ${keysFile}}
  file_storage: {directory: ${join(keysFile, '..', 'queue')}}
receivers:
  ingest: {endpoint: "127.0.0.1:0", auth: {authenticator: apikeyauth}}
exporters:
  store: {path: ${join(keysFile, '..', 'a.db')}}
  otlp/b:
    endpoint: 127.0.0.1:${grpcPort}
    tls: {insecure: true}
    tenant:
      bearer_tokens: {shop: ${b.keys['shop']}, blog: ${b.keys['blog']}}
    retry_on_failure: {initial_interval: 100ms, max_interval: 1s, max_elapsed_time: 0s}
    sending_queue: {storage: file_storage}
service:
  extensions: [apikeyauth, file_storage]
  pipelines:
    logs: {receivers: [ingest], exporters: [store, otlp/b]}
    traces: {receivers: [ingest], exporters: [store, otlp/b]}
    metrics: {receivers: [ingest], exporters: [store, otlp/b]}
`;

describe('otelgate → otlp (gRPC) → otelgate', () => {
  let a: Gateway;
  let b: Gateway;
  let grpcPort = 0;
  const restarted: RunningCli[] = [];
  beforeAll(async () => {
    grpcPort = await freePort();
    b = await startGateway({ projects: PROJECTS, config: receiverConfig(grpcPort) });
    a = await startGateway({ projects: PROJECTS, config: forwarderConfig(grpcPort, b) });
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    for (const run of restarted) await run.stop();
  });

  it.each(['logs', 'traces', 'metrics'] as const)('%s: B stores exactly the rows A received, each project as its own', async (signal) => {
    expect(await postGolden(a, signal, a.keys['shop'] as string, false)).toBe(200);
    expect(await postGolden(a, signal, a.keys['shop'] as string, true)).toBe(200);
    expect(await postGolden(a, signal, a.keys['blog'] as string, true)).toBe(200);
    const expected: Record<string, number> = { shop: 2 * ROWS[signal], blog: ROWS[signal] };
    for (const project of PROJECTS) {
      const atA = await a.read(READS[signal], a.keys[project], ALL);
      expect(atA.body.rows).toHaveLength(expected[project] as number);
      expect(await waitUntil(async () => (await b.read(READS[signal], b.keys[project], ALL)).body.rows?.length === expected[project])).toBe(true);
      const atB = await b.read(READS[signal], b.keys[project], ALL);
      expect(rowSet(atB.body.rows)).toEqual(rowSet(atA.body.rows));
    }
  });

  it('delivers every record answered 2xx while B was down for 20 s, once B is back', async () => {
    expect(await b.stop()).toBe(0);
    const sent: string[] = [];
    const until = performance.now() + 20_000;
    for (let i = 0; performance.now() < until; i++) {
      const batch = [`down-${i}-a`, `down-${i}-b`, `down-${i}-c`];
      const response = await fetch(`${a.url}/api/v1/ingest`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${a.keys['shop']}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(batch.map((message) => ({ message }))),
      });
      expect(response.status).toBe(202);
      await response.arrayBuffer();
      sent.push(...batch);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // B again, on the same port and store.
    const again = new RunningCli(['--config', join(b.dir, 'config.yaml')]);
    restarted.push(again);
    const started = await again.waitFor('Starting HTTP server');
    await again.waitFor('Everything is ready');
    const url = `http://${String(started['endpoint'])}/api/v1/query/logs?${new URLSearchParams(ALL).toString()}`;
    const stored = async (): Promise<string[]> => {
      const response = await fetch(url, { headers: { Authorization: `Bearer ${b.keys['shop']}` } });
      return ((await response.json()) as { rows: { body: string }[] }).rows.map((row) => row.body);
    };
    // (B's store, started again, drops the earlier tests' rows: their golden times are past its retention.)
    const missing = async (): Promise<string[]> => {
      const bodies = new Set(await stored());
      return sent.filter((message) => !bodies.has(message));
    };
    expect(await waitUntil(async () => (await missing()).length === 0, 60_000)).toBe(true);
    expect(await missing()).toEqual([]);
  }, 120_000);
});
