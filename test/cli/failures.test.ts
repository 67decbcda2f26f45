// A failure the user can fix is one clear line: its message (which names the file or port and the
// fix), no stack trace, exit 1, for every command.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunningCli, runCli } from '../helpers/cli.js';

function configFile(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'otelgate-failures-')), 'config.yaml');
  writeFileSync(file, text);
  return file;
}

const INGEST = (endpoint: string, keysFile: string): string => `
extensions:
  apikeyauth: {keys_file: ${keysFile}}
receivers:
  ingest: {endpoint: "${endpoint}", auth: {authenticator: apikeyauth}}
exporters:
  nop:
service:
  extensions: [apikeyauth]
  pipelines:
    logs: {receivers: [ingest], exporters: [nop]}
`;

async function startFailure(config: string): Promise<string[]> {
  const run = new RunningCli(['--config', config]);
  expect(await run.exit()).toBe(1);
  expect(run.lines.some((l) => JSON.stringify(l).includes('    at '))).toBe(false);
  expect(run.lines.some((l) => l.level === 'raw')).toBe(false);
  return run.lines.filter((l) => l.level === 'error').map((l) => l.msg);
}

describe('failures are one clear line', () => {
  it('run: a port in use', async () => {
    const taken = createServer();
    const port = await new Promise<number>((resolve) => taken.listen(0, '127.0.0.1', () => resolve((taken.address() as AddressInfo).port)));
    try {
      const dir = mkdtempSync(join(tmpdir(), 'otelgate-failures-'));
      writeFileSync(join(dir, 'keys.yaml'), 'keys: []\n');
      const errors = await startFailure(configFile(INGEST(`127.0.0.1:${port}`, join(dir, 'keys.yaml'))));
      expect(errors).toEqual([`otelgate could not start: ingest could not start: listen EADDRINUSE: address already in use 127.0.0.1:${port}`]);
    } finally {
      taken.close();
    }
  });

  it('run: a missing keys file', async () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'otelgate-failures-')), 'keys.yaml');
    const errors = await startFailure(configFile(INGEST('127.0.0.1:0', missing)));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(new RegExp(`^otelgate could not start: apikeyauth could not start: .*${missing.replaceAll('.', '\\.')}`));
  });

  it('keys list: a keys file that cannot be read, as its message alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'otelgate-failures-'));
    const keysFile = join(dir, 'keys.yaml');
    mkdirSync(keysFile);
    const result = runCli(['keys', 'list', '--config', configFile(INGEST('127.0.0.1:0', keysFile))]);
    expect(result).toEqual({ status: 1, stdout: '', stderr: 'otelgate: EISDIR: illegal operation on a directory, read\n' });
  });

  it.each([['keys', 'create', '--project', 'p'], ['keys', 'list'], ['query', 'logs', '--project', 'p'], ['validate']].map((args) => [args.join(' '), args] as const))(
    '%s: a config with a mistake',
    (_name, args) => {
    const result = runCli([...args, '--config', 'testdata/config/bad_unknown_setting.yaml']);
    expect(result).toEqual({
      status: 1,
      stdout: '',
      stderr: 'testdata/config/bad_unknown_setting.yaml:5:5: exporters.debug.verbosty: unknown setting "verbosty". Did you mean "verbosity"?\n',
    });
  },
  );
});
