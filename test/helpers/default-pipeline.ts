import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The --config arguments of the shipped pipeline (pipelines/default.yaml) with only what a test
 * must change, in an override file: free ports, and a temporary folder for the keys and the store.
 */
export function defaultPipelineConfigs(prefix: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const override = join(dir, 'override.yaml');
  writeFileSync(
    override,
    `extensions: {apikeyauth: {keys_file: ${dir}/keys.yaml}, health_check: {endpoint: "127.0.0.1:0"}}\n` +
      `receivers: {ingest: {endpoint: "127.0.0.1:0"}}\nexporters: {store: {path: ${dir}/otelgate.db}}\n` +
      'service: {telemetry: {metrics: {readers: [{pull: {exporter: {prometheus: {host: 127.0.0.1, port: 0}}}}]}}}\n',
  );
  return ['--config', 'pipelines/default.yaml', '--config', override];
}
