// The shipped sidecar pipeline (pipelines/sidecar-otlp.yaml) as a user runs it, but off the fixed
// ports and out of ./data: what a client sends is stored and forwarded, as the project's tenant.
import { afterAll, describe, expect, it } from 'vitest';
import type { LogRow } from '../../../src/model/logs.js';
import { startBackend, type Backend } from '../../helpers/backend.js';
import type { RunningCli } from '../../helpers/cli.js';
import { runShipped } from '../../helpers/pipeline.js';
import { waitUntil } from '../../helpers/wait.js';

const running: RunningCli[] = [];
let backend: Backend | undefined;
afterAll(async () => {
  for (const run of running) await run.stop();
  await backend?.stop();
});

describe('pipelines/sidecar-otlp.yaml', () => {
  it('stores and forwards to OTELGATE_OTLP_ENDPOINT, with the project in X-Scope-OrgID', async () => {
    backend = await startBackend();
    const { url, key } = await runShipped('sidecar-otlp.yaml', { OTELGATE_OTLP_ENDPOINT: backend.url }, running);
    const response = await fetch(`${url}/api/v1/ingest`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ message: 'hello sidecar' }) });
    expect(response.status).toBe(202);
    expect(await waitUntil(() => backend?.delivered('logs').length === 1)).toBe(true);
    expect((backend.delivered('logs')[0] as LogRow).body).toBe('hello sidecar');
    expect(backend.received.map((r) => [r.path, r.headers['x-scope-orgid'], r.headers['content-encoding']])).toEqual([['/v1/logs', 'default', 'gzip']]);
    const read = await fetch(`${url}/api/v1/query/logs`, { headers: { Authorization: `Bearer ${key}` } });
    expect(((await read.json()) as { rows: { body: string }[] }).rows.map((r) => r.body)).toEqual(['hello sidecar']);
  });
});
