// The examples a new user copies must work as written against otelgate.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { startGateway, type Gateway } from '../helpers/gateway.js';
import { waitUntil } from '../helpers/wait.js';

let gw: Gateway;

beforeAll(async () => {
  gw = await startGateway({ projects: ['examples'] });
});

afterAll(async () => {
  await gw.stop();
});

/** Waits until the debug exporter has logged at least these many lines of each signal. */
async function exported(logs: number, traces: number, metrics: number): Promise<void> {
  await waitUntil(() => gw.exported('Logs').length >= logs && gw.exported('Traces').length >= traces && gw.exported('Metrics').length >= metrics);
}

describe('examples', () => {
  it('examples/otel-sdk.mjs sends a log, a span and a metric with nothing but the standard OTEL_ variables', async () => {
    const result = spawnSync(process.execPath, ['examples/otel-sdk.mjs'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: gw.url, OTEL_EXPORTER_OTLP_HEADERS: `Authorization=Bearer ${gw.keys['examples']}` },
    });
    expect([result.status, result.stdout]).toEqual([0, 'sent a log record, a span and a metric\n']);
    await exported(1, 1, 1);
    expect(gw.exported('Logs').map((l) => [l['project'], l['log records']])).toEqual([['examples', 1]]);
    expect(gw.exported('Traces').map((l) => [l['project'], l['spans']])).toEqual([['examples', 1]]);
    expect(gw.exported('Metrics').map((l) => [l['project'], l['data points']])).toEqual([['examples', 1]]);
  });

  it('examples/curl.sh gets a success answer from every endpoint', async () => {
    const before = { logs: gw.exported('Logs').length, traces: gw.exported('Traces').length, metrics: gw.exported('Metrics').length };
    const result = spawnSync('bash', ['examples/curl.sh'], { cwd: ROOT, encoding: 'utf8', timeout: 20_000, env: { ...process.env, OTELGATE_URL: gw.url, OTELGATE_KEY: gw.keys['examples'] as string } });
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n')).toEqual(['{"accepted":1,"skipped":0}', '{}', '{}', '{}', '']);
    await exported(before.logs + 2, before.traces + 1, before.metrics + 1);
    expect(gw.exported('Logs').slice(before.logs).map((l) => l['log records'])).toEqual([1, 1]);
    expect(gw.exported('Traces').slice(before.traces).map((l) => l['spans'])).toEqual([1]);
    expect(gw.exported('Metrics').slice(before.metrics).map((l) => l['data points'])).toEqual([1]);
  });
});
