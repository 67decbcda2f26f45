// The shipped sidecar pipeline (pipelines/sidecar-otlp.yaml) as a user runs it, but off the fixed
// ports and out of ./data: what a client sends is stored and forwarded, as the project's tenant.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LogRow } from '../../../src/model/logs.js';
import { startBackend, type Backend } from '../../helpers/backend.js';
import { RunningCli } from '../../helpers/cli.js';
import { waitUntil } from '../../helpers/wait.js';

let run: RunningCli | undefined;
let backend: Backend | undefined;
afterAll(async () => {
  await run?.stop();
  await backend?.stop();
});

describe('pipelines/sidecar-otlp.yaml', () => {
  it('stores and forwards to OTELGATE_OTLP_ENDPOINT, with the project in X-Scope-OrgID', async () => {
    backend = await startBackend();
    const dir = mkdtempSync(join(tmpdir(), 'otelgate-sidecar-'));
    const override = join(dir, 'override.yaml');
    writeFileSync(
      override,
      `extensions: {apikeyauth: {keys_file: ${dir}/keys.yaml}, health_check: {endpoint: "127.0.0.1:0"}, file_storage: {directory: ${dir}/queue}}\n` +
        `receivers: {ingest: {endpoint: "127.0.0.1:0"}}\nexporters: {store: {path: ${dir}/otelgate.db}}\n` +
        'service: {telemetry: {metrics: {readers: [{pull: {exporter: {prometheus: {host: 127.0.0.1, port: 0}}}}]}}}\n',
    );
    run = new RunningCli(['--config', 'pipelines/sidecar-otlp.yaml', '--config', override], { env: { OTELGATE_OTLP_ENDPOINT: backend.url } });
    const started = await run.waitFor('Starting HTTP server');
    await run.waitFor('Everything is ready');
    const key = await run.printedKey();
    const url = `http://${String(started['endpoint'])}`;
    const response = await fetch(`${url}/api/v1/ingest`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ message: 'hello sidecar' }) });
    expect(response.status).toBe(202);
    expect(await waitUntil(() => backend?.delivered('logs').length === 1)).toBe(true);
    expect((backend.delivered('logs')[0] as LogRow).body).toBe('hello sidecar');
    expect(backend.received.map((r) => [r.path, r.headers['x-scope-orgid'], r.headers['content-encoding']])).toEqual([['/v1/logs', 'default', 'gzip']]);
    const read = await fetch(`${url}/api/v1/query/logs`, { headers: { Authorization: `Bearer ${key}` } });
    expect(((await read.json()) as { rows: { body: string }[] }).rows.map((r) => r.body)).toEqual(['hello sidecar']);
  });
});
