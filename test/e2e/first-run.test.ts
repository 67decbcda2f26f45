// The "done when", as a new user meets it: run the default pipeline, take the key it
// prints on first start, send a log with curl, and see it with `otelgate query logs` and the read API.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { RunningCli, runCli } from '../helpers/cli.js';
import { defaultPipelineConfigs } from '../helpers/default-pipeline.js';

describe('first run of the default pipeline', () => {
  it('stores a log sent with curl and the printed key, and shows it through otelgate query and the read API', async () => {
    const configs = defaultPipelineConfigs('otelgate-first-run-');
    const run = new RunningCli(configs);
    try {
      const started = await run.waitFor('Starting HTTP server');
      await run.waitFor('Everything is ready');
      const key = await run.printedKey();
      const base = `http://${String(started['endpoint'])}`;

      const answer = execFileSync('curl', ['-sS', '-X', 'POST', `${base}/api/v1/ingest`, '-H', `Authorization: Bearer ${key}`, '-H', 'Content-Type: application/json', '-d', '{"message":"hello from curl","level":"info","service":"shop"}'], {
        encoding: 'utf8',
      });
      expect(JSON.parse(answer)).toEqual({ accepted: 1, skipped: 0 });

      const query = runCli(['query', 'logs', '--project', 'default', ...configs]);
      expect(query.status).toBe(0);
      const lines = query.stdout.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0] as string)).toMatchObject({ body: 'hello from curl', severity_text: 'info', severity_number: 9, service_name: 'shop' });

      const read = await fetch(`${base}/api/v1/query/logs`, { headers: { Authorization: `Bearer ${key}` } });
      expect(read.status).toBe(200);
      expect(await read.text()).toBe(`{"rows":[${lines[0]}]}`);
    } finally {
      run.child.kill('SIGTERM');
      expect(await run.exit()).toBe(0);
    }
  });
});
