// The built CLI as users run it: help, version, components, and the run lifecycle.
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readKeysFile } from '../../src/auth/keysfile.js';
import { CLI, ROOT, RunningCli, runCli } from '../helpers/cli.js';

const PACKAGE = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as { version: string; scripts: Record<string, string> };
const VERSION = PACKAGE.version;

describe('otelgate CLI', () => {
  it('prints its version', () => {
    expect(runCli(['--version'])).toEqual({ status: 0, stdout: `otelgate version ${VERSION}\n`, stderr: '' });
  });

  it('starts through npm start with the young-generation size the benchmark measures it with', () => {
    const flags = (PACKAGE.scripts['start'] as string).split(' ').filter((word) => word.startsWith('--'));
    expect(flags).toEqual(['--max-semi-space-size=32']);
    // The bin keeps a plain shebang: `env -S` is not in every image's env (BusyBox has none).
    expect(readFileSync(CLI, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
    // Executable as built: npx links to it where it is (a clone's folder), and runs it by its shebang.
    expect(statSync(CLI).mode & 0o111).toBe(0o111);
  });

  it('prints help naming every command', () => {
    const result = runCli(['--help']);
    expect(result.status).toBe(0);
    for (const command of ['run', 'validate', 'components', '--config']) expect(result.stdout).toContain(command);
  });

  it('refuses an unknown command or flag with usage and exit 2', () => {
    const command = runCli(['frobnicate']);
    expect(command.status).toBe(2);
    expect(command.stderr).toMatch(/^otelgate: unknown command "frobnicate"\n\nUsage: otelgate/);
    const flag = runCli(['run', '--confgi', 'x.yaml']);
    expect(flag.status).toBe(2);
    expect(flag.stderr).toMatch(/^otelgate: Unknown option '--confgi'/);
  });

  it('lists every component type with its signals and stability', () => {
    const result = runCli(['components']);
    expect(result.status).toBe(0);
    const listing = parse(result.stdout) as Record<string, { name: string; stability: Record<string, string> }[]>;
    const summary = (kind: string) => (listing[kind] ?? []).map((c) => [c.name, c.stability]);
    expect(listing['buildinfo']).toEqual({ command: 'otelgate', version: VERSION });
    const all = (level: string) => ({ logs: level, traces: level, metrics: level });
    expect(summary('receivers')).toEqual([
      ['ingest', all('Alpha')],
      ['nop', all('Beta')],
      ['otlp', all('Alpha')],
    ]);
    expect(summary('processors')).toEqual([
      ['attributes', all('Alpha')],
      ['batch', all('Alpha')],
      ['filter', all('Alpha')],
      ['memory_limiter', all('Beta')],
      ['probabilistic_sampler', { logs: 'Alpha', traces: 'Alpha' }],
      ['redaction', { logs: 'Alpha', traces: 'Beta', metrics: 'Alpha' }],
      ['resource', all('Alpha')],
      ['span', { traces: 'Alpha' }],
      ['transform', all('Alpha')],
    ]);
    expect(summary('exporters')).toEqual([
      ['debug', all('Development')],
      ['loki', { logs: 'Alpha' }],
      ['nop', all('Beta')],
      ['otlp', all('Alpha')],
      ['otlp_http', all('Alpha')],
      ['otlphttp', all('Alpha')],
      ['prometheusremotewrite', { metrics: 'Alpha' }],
      ['store', all('Alpha')],
    ]);
    expect((listing['extensions'] ?? []).map((c) => [c.name, c.stability])).toEqual([
      ['apikeyauth', { extension: 'Alpha' }],
      ['file_storage', { extension: 'Alpha' }],
      ['health_check', { extension: 'Alpha' }],
    ]);
  });

  it('does not start on a bad config: error lines naming file and path, no stack trace, exit 1', async () => {
    const run = new RunningCli(['--config', 'testdata/config/bad_unknown_setting.yaml']);
    expect(await run.exit()).toBe(1);
    const errors = run.lines.filter((l) => l.level === 'error');
    expect(errors.map((l) => l.msg)).toEqual([
      'testdata/config/bad_unknown_setting.yaml:5:5: exporters.debug.verbosty: unknown setting "verbosty". Did you mean "verbosity"?',
      'Invalid configuration; otelgate did not start. Check it with: otelgate validate --config FILE',
    ]);
    expect(errors[0]).toMatchObject({ file: 'testdata/config/bad_unknown_setting.yaml', line: 5, path: 'exporters.debug.verbosty' });
    expect(run.lines.some((l) => JSON.stringify(l).includes('    at '))).toBe(false);
    expect(run.lines.some((l) => l.level === 'raw')).toBe(false);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('runs the default pipeline until %s, then shuts down cleanly', async (signal) => {
    // The shipped default pipeline, merged with an override that keeps the test off ports 4318, 8888 and 13133 and out of ./data.
    const dir = mkdtempSync(join(tmpdir(), 'otelgate-default-'));
    const override = join(dir, 'override.yaml');
    writeFileSync(
      override,
      `extensions: {apikeyauth: {keys_file: ${dir}/keys.yaml}, health_check: {endpoint: "127.0.0.1:0"}}\nreceivers: {ingest: {endpoint: "127.0.0.1:0"}}\n` +
        `exporters: {store: {path: ${dir}/otelgate.db}}\n` +
        'service: {telemetry: {metrics: {readers: [{pull: {exporter: {prometheus: {host: 127.0.0.1, port: 0}}}}]}}}\n',
    );
    const run = new RunningCli(['--config', 'pipelines/default.yaml', '--config', override]);
    await run.waitFor('Everything is ready. Begin running and processing data.');
    expect(run.lines.find((l) => l.msg === 'Created the first API key')).toMatchObject({ project: 'default', keys_file: `${dir}/keys.yaml` });
    run.child.kill(signal);
    expect(await run.exit()).toBe(0);
    const messages = run.lines.map((l) => l.msg);
    // The store's first retention pass begins in its start and, on this empty store, ends there: it
    // is logged before ready, and nothing of it can come between the signal and the end.
    expect(messages.indexOf('Retention pass done')).toBeGreaterThan(-1);
    expect(messages.indexOf('Retention pass done')).toBeLessThan(messages.indexOf('Everything is ready. Begin running and processing data.'));
    expect(messages.slice(-3)).toEqual(['Received signal from OS', 'Starting shutdown...', 'Shutdown complete.']);
    expect(run.lines.find((l) => l.msg === 'Received signal from OS')?.['signal']).toBe(signal);
    expect(run.lines.every((l) => l.level !== 'raw' && typeof l['time'] === 'string')).toBe(true);
    expect(readFileSync(`${dir}/keys.yaml`, 'utf8')).not.toMatch(/otg_[a-z0-9]{10}_[A-Za-z0-9]{32}/);
    // The first key may send and read: the README's first steps send with it, then read back.
    expect(readKeysFile(`${dir}/keys.yaml`).map((entry) => entry.scopes)).toEqual([['ingest', 'read']]);
  });
});
