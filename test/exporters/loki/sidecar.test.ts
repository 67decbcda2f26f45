// The shipped Loki sidecar pipeline (pipelines/sidecar-loki.yaml) as a user runs it, but off the
// fixed ports and out of ./data: logs are stored and pushed to Loki as the project's tenant.
import { afterAll, describe, expect, it } from 'vitest';
import { startBackend, type Backend } from '../../helpers/backend.js';
import type { RunningCli } from '../../helpers/cli.js';
import { lokiWire, type LokiRecord } from '../../helpers/loki.js';
import { runShipped } from '../../helpers/pipeline.js';
import { waitUntil } from '../../helpers/wait.js';

const running: RunningCli[] = [];
let loki: Backend<LokiRecord> | undefined;
afterAll(async () => {
  for (const run of running) await run.stop();
  await loki?.stop();
});

describe('pipelines/sidecar-loki.yaml', () => {
  it('stores and pushes logs to OTELGATE_LOKI_ENDPOINT, with the project in X-Scope-OrgID', async () => {
    loki = await startBackend(lokiWire);
    const { url, key } = await runShipped('sidecar-loki.yaml', { OTELGATE_LOKI_ENDPOINT: loki.url }, running);
    const response = await fetch(`${url}/api/v1/ingest`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ message: 'hello loki', service: 'web', level: 'warn' }),
    });
    expect(response.status).toBe(202);
    expect(await waitUntil(() => loki?.delivered('logs').length === 1)).toBe(true);
    const [record] = loki.delivered('logs');
    expect([record?.labels, record?.line]).toEqual([{ service_name: 'web' }, 'hello loki']);
    expect(loki.received.map((r) => [r.path, r.headers['x-scope-orgid'], r.headers['content-type']])).toEqual([['/loki/api/v1/push', 'default', 'application/x-protobuf']]);
    const read = await fetch(`${url}/api/v1/query/logs`, { headers: { Authorization: `Bearer ${key}` } });
    expect(((await read.json()) as { rows: { body: string }[] }).rows.map((r) => r.body)).toEqual(['hello loki']);
  });
});
