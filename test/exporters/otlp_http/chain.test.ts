// Chaining: otelgate A exports with otlp_http to otelgate B. A keeps what it receives in its own
// store as well, so the rows B stores can be compared with the rows A received, field by field,
// for all three signals, in both encodings, with two projects each landing in its own project at
// B (A sends each project's batches with that project's key at B: tenant.bearer_tokens).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGolden, rowSet, STORE_CONFIG, startGateway, type Gateway } from '../../helpers/gateway.js';
import { waitUntil } from '../../helpers/wait.js';
import type { Signal } from '../../../src/model/signal.js';

const PROJECTS = ['shop', 'blog'];
const READS: Record<Signal, 'logs' | 'spans' | 'metrics'> = { logs: 'logs', traces: 'spans', metrics: 'metrics' };
const ROWS: Record<Signal, number> = { logs: 6, traces: 2, metrics: 7 };

function forwarderConfig(b: Gateway, encoding: 'proto' | 'json') {
  return (keysFile: string): string => `
extensions:
  apikeyauth:
    keys_file: ${keysFile}
  file_storage:
    directory: ${join(keysFile, '..', 'queue')}
receivers:
  ingest:
    endpoint: 127.0.0.1:0
    auth: {authenticator: apikeyauth}
exporters:
  store:
    path: ${join(keysFile, '..', 'a.db')}
  otlp_http/b:
    endpoint: ${b.url}
    encoding: ${encoding}
    tenant:
      bearer_tokens: {shop: ${b.keys['shop']}, blog: ${b.keys['blog']}}
    retry_on_failure: {initial_interval: 100ms, max_interval: 1s}
    sending_queue: {storage: file_storage}
service:
  extensions: [apikeyauth, file_storage]
  pipelines:
    logs: {receivers: [ingest], exporters: [store, otlp_http/b]}
    traces: {receivers: [ingest], exporters: [store, otlp_http/b]}
    metrics: {receivers: [ingest], exporters: [store, otlp_http/b]}
`;
}


describe.each(['proto', 'json'] as const)('otelgate → otlp_http (encoding %s) → otelgate', (encoding) => {
  let a: Gateway;
  let b: Gateway;
  beforeAll(async () => {
    b = await startGateway({ projects: PROJECTS, config: (keysFile) => STORE_CONFIG(join(keysFile, '..', 'b.db'))(keysFile) });
    a = await startGateway({ projects: PROJECTS, config: forwarderConfig(b, encoding) });
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
  });

  it.each(['logs', 'traces', 'metrics'] as const)('%s: B stores exactly the rows A received, each project as its own', async (signal) => {
    // shop sends its export as JSON and as protobuf; blog once, as protobuf.
    expect(await postGolden(a, signal, a.keys['shop'] as string, false)).toBe(200);
    expect(await postGolden(a, signal, a.keys['shop'] as string, true)).toBe(200);
    expect(await postGolden(a, signal, a.keys['blog'] as string, true)).toBe(200);
    const all = { from: '1970-01-01T00:00:00Z', limit: '1000' };
    const expected: Record<string, number> = { shop: 2 * ROWS[signal], blog: ROWS[signal] };
    for (const project of PROJECTS) {
      const atA = await a.read(READS[signal], a.keys[project], all);
      expect(atA.body.rows).toHaveLength(expected[project] as number);
      const arrived = await waitUntil(async () => (await b.read(READS[signal], b.keys[project], all)).body.rows?.length === expected[project]);
      expect(arrived).toBe(true);
      const atB = await b.read(READS[signal], b.keys[project], all);
      // Rows of equal time may be stored in another order (requests go out concurrently): compare as sets of rows.
      expect(rowSet(atB.body.rows)).toEqual(rowSet(atA.body.rows));
    }
  });
});
