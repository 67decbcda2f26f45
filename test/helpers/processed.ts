// A built otelgate whose ingest receiver feeds each signal twice: through processors into
// store/processed (the store the read API reads), and as it came into store/raw (read with
// `otelgate query`). For tests of what a processor leaves, and that it leaves the other pipeline
// alone. Also: a README's YAML example, for tests that assert its effect.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parse } from 'yaml';
import { ROOT, runCli } from './cli.js';
import type { Gateway } from './gateway.js';

/** Every row of the read API and of `otelgate query`. */
export const ALL = { from: '1970-01-01T00:00:00Z', limit: '100' };

/**
 * The config: `processors` (YAML under `processors:`), `chain` (their ids in order) on each of
 * `signals`; `service` lines added under `service:` (a metrics reader, say).
 */
export const processedAndRaw =
  (processors: string, chain: readonly string[], signals: readonly string[], service = '') =>
  (keysFile: string): string => `
extensions:
  apikeyauth: {keys_file: ${keysFile}}
receivers:
  ingest:
    endpoint: 127.0.0.1:0
    auth: {authenticator: apikeyauth}
    read_api: {store: store/processed}
processors:
${processors.replace(/^/gm, '  ')}
exporters:
  store/processed: {path: ${join(keysFile, '..', 'processed.db')}}
  store/raw: {path: ${join(keysFile, '..', 'raw.db')}}
service:
  extensions: [apikeyauth]
${service.replace(/^(?=.)/gm, '  ')}
  pipelines:
${signals.map((s) => `    ${s}/processed: {receivers: [ingest], processors: [${chain.join(', ')}], exporters: [store/processed]}\n    ${s}/raw: {receivers: [ingest], exporters: [store/raw]}`).join('\n')}
`;

/** OTLP JSON posted to `path` with `project`'s key: the status and the body of the answer. */
export async function postJson(gateway: Gateway, path: string, project: string, body: string): Promise<[number, string]> {
  const response = await fetch(`${gateway.url}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${gateway.keys[project]}`, 'Content-Type': 'application/json' }, body });
  return [response.status, await response.text()];
}

/** The rows of store/raw, by `otelgate query`. */
export function storedRaw(gateway: Gateway, what: 'logs' | 'spans' | 'metrics', project: string): Record<string, unknown>[] {
  const query = runCli(['query', what, '--project', project, '--exporter', 'store/raw', '--from', ALL.from, '--config', join(gateway.dir, 'config.yaml')]);
  expect(query.stderr).toBe('');
  return query.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The settings of processor `id` in the first YAML example of `src/processors/<type>/README.md`, as JSON (YAML reads it). */
export function readmeExample(type: string, id: string): string {
  const readme = readFileSync(join(ROOT, 'src', 'processors', type, 'README.md'), 'utf8');
  const example = parse(/```yaml\n([\s\S]*?)```/.exec(readme)?.[1] ?? '') as { processors: Record<string, unknown> };
  return JSON.stringify(example.processors[id]);
}
