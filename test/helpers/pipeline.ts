// A shipped pipeline (pipelines/*.yaml) run as a user runs it, but off its fixed ports and out of
// ./data: a --config over it moves the keys file, the queue directory, the store (where it has
// one), the ingest and health_check endpoints and the metrics reader to a temporary folder and
// free loopback ports.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunningCli } from './cli.js';

export interface ShippedPipeline {
  run: RunningCli;
  /** The ingest receiver's URL. */
  url: string;
  /** The key it printed for project "default". */
  key: string;
}

export async function runShipped(pipeline: string, env: Record<string, string>, running: RunningCli[]): Promise<ShippedPipeline> {
  const dir = mkdtempSync(join(tmpdir(), 'otelgate-pipeline-'));
  const override = join(dir, 'override.yaml');
  const store = pipeline === 'gateway.yaml' ? '' : `exporters: {store: {path: ${dir}/otelgate.db}}\n`;
  writeFileSync(
    override,
    `extensions: {apikeyauth: {keys_file: ${dir}/keys.yaml}, health_check: {endpoint: "127.0.0.1:0"}, file_storage: {directory: ${dir}/queue}}\n` +
      `receivers: {ingest: {endpoint: "127.0.0.1:0"}}\n${store}` +
      'service: {telemetry: {metrics: {readers: [{pull: {exporter: {prometheus: {host: 127.0.0.1, port: 0}}}}]}}}\n',
  );
  const run = new RunningCli(['--config', `pipelines/${pipeline}`, '--config', override], { env });
  running.push(run);
  const started = await run.waitFor('Starting HTTP server');
  await run.waitFor('Everything is ready');
  return { run, url: `http://${String(started['endpoint'])}`, key: await run.printedKey() };
}
