// `otelgate keys` on the built CLI, against a running otelgate that must follow the keys file.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startGateway, type Gateway } from '../helpers/gateway.js';
import { waitUntil } from '../helpers/wait.js';

let gw: Gateway;
let config: string;

beforeAll(async () => {
  gw = await startGateway({ projects: ['alpha'] });
  config = `${gw.dir}/config.yaml`;
});

afterAll(async () => {
  await gw.stop();
});

const send = (key: string) =>
  fetch(`${gw.url}/api/v1/ingest`, { method: 'POST', body: JSON.stringify({ message: 'hi' }), headers: { 'X-Service-Key': key } }).then((r) => r.status);

describe('otelgate keys', () => {
  let key = '';
  let id = '';

  it('create prints the key once, its last line the key alone, and stores only its hash', () => {
    const result = runCli(['keys', 'create', '--project', 'beta', '--config', config]);
    expect(result.status).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    key = lines[lines.length - 1] ?? '';
    expect(key).toMatch(/^otg_[a-z0-9]{10}_[A-Za-z0-9]{32}$/);
    id = key.split('_')[1] ?? '';
    const file = readFileSync(gw.keysFile, 'utf8');
    expect(file).not.toContain(key.slice(15));
    expect(file).not.toMatch(/otg_[a-z0-9]{10}_[A-Za-z0-9]{32}/);
    expect(file).toContain(`id: ${id}`);
  });

  // That a change takes effect at the next reload_interval is the extension's own test, on a fake clock.
  it('a key created while otelgate runs works without a restart', async () => {
    expect(await waitUntil(async () => (await send(key)) === 202)).toBe(true);
    // Its log line comes through a pipe of its own, maybe after the answer.
    expect(await waitUntil(() => gw.run.lines.some((l) => l.msg === 'Reloaded API keys' && l['keys'] === 2))).toBe(true);
  });

  it('list shows id, project, scopes, created and revoked, never a secret', () => {
    const result = runCli(['keys', 'list', '--config', config]);
    expect(result.status).toBe(0);
    const rows = result.stdout.trimEnd().split('\n').map((line) => line.split(/\s+/));
    expect(rows[0]).toEqual(['ID', 'PROJECT', 'SCOPES', 'CREATED', 'REVOKED']);
    // alpha's entry has no scopes (the test's keys file is written as one from before them): both.
    expect(rows.slice(1).map((row) => row.slice(0, 3))).toEqual([
      [expect.stringMatching(/^[a-z0-9]{10}$/), 'alpha', 'ingest,read'],
      [id, 'beta', 'ingest'],
    ]);
    expect(result.stdout).not.toMatch(/otg_/);
  });

  it('a revoked key gets 401 without a restart', async () => {
    const result = runCli(['keys', 'revoke', id, '--config', config]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`Revoked key ${id}`);
    expect(await waitUntil(async () => (await send(key)) === 401)).toBe(true);
    expect(await send(gw.keys['alpha'] as string)).toBe(202);
    expect(runCli(['keys', 'list', '--config', config]).stdout).toMatch(new RegExp(`${id}\\s+beta\\s+ingest\\s+\\S+\\s+\\S+`));
  });

  it('revoke also takes the whole key, matched by its hash, and never prints the secret', async () => {
    const created = runCli(['keys', 'create', '--project', 'gamma', '--config', config]).stdout.trimEnd().split('\n');
    const whole = created[created.length - 1] ?? '';
    const wholeId = whole.split('_')[1] ?? '';
    const secret = whole.split('_')[2] ?? '';
    expect(await waitUntil(async () => (await send(whole)) === 202)).toBe(true);
    const result = runCli(['keys', 'revoke', whole, '--config', config]);
    expect(result).toMatchObject({ status: 0, stdout: `Revoked key ${wholeId} (project "gamma"); a running otelgate refuses it within seconds.\n`, stderr: '' });
    expect(await waitUntil(async () => (await send(whole)) === 401)).toBe(true);
    expect(runCli(['keys', 'revoke', whole, '--config', config]).stdout).toMatch(new RegExp(`^Key ${wholeId} was already revoked on `));

    // The id of a real key with another secret is not that key: refused, nothing revoked, no secret echoed.
    const alpha = gw.keys['alpha'] as string;
    const forged = `${alpha.slice(0, 15)}${'A'.repeat(32)}`;
    const refused = runCli(['keys', 'revoke', forged, '--config', config]);
    expect(refused).toMatchObject({ status: 1, stdout: '', stderr: `otelgate keys: no key in ${gw.keysFile} is the key given (id ${alpha.split('_')[1]}); nothing was revoked\n` });
    const garbled = runCli(['keys', 'revoke', `${whole}x`, '--config', config]);
    expect(garbled.status).toBe(1);
    expect(garbled.stderr).toBe(
      `otelgate keys: no key in ${gw.keysFile} matches what was given: keys revoke takes a key id, as keys list shows it, or the whole key (otg_<id>_<secret>)\n`,
    );
    for (const output of [result.stdout, refused.stderr, garbled.stderr]) expect(output).not.toContain(secret);
    expect(refused.stderr).not.toContain('A'.repeat(32));
    expect(await send(alpha)).toBe(202);
  });

  it('create --scope makes a key that may send, read or both; ingest when not given', async () => {
    const made = (scope: string | undefined): string => {
      const result = runCli(['keys', 'create', '--project', 'delta', ...(scope === undefined ? [] : ['--scope', scope]), '--config', config]);
      expect(result.status).toBe(0);
      expect(result.stdout).toContain(`for project "delta" (scopes: ${scope === undefined ? 'ingest' : scope.split(',').sort().join(', ')})`);
      return result.stdout.trimEnd().split('\n').at(-1) ?? '';
    };
    const [plain, sends, reads, both] = [made(undefined), made('ingest'), made('read'), made('read,ingest')];
    // Once every new key is loaded: 401 for a key that may only read, as for an unknown key (what
    // each may read: test/receivers/ingest/scopes.test.ts, against a store).
    expect(await waitUntil(async () => (await send(both)) === 202)).toBe(true);
    expect([await send(plain), await send(sends), await send(reads), await send(both)]).toEqual([202, 202, 401, 202]);
    const listed = runCli(['keys', 'list', '--config', config]).stdout;
    for (const [key, scopes] of [[plain, 'ingest'], [reads, 'read'], [both, 'ingest,read']] as const) expect(listed).toMatch(new RegExp(`${key.split('_')[1]}\\s+delta\\s+${scopes}\\s`));
  });

  it('keeps the keys it had when the file turns unreadable, and says so', async () => {
    const { renameSync, writeFileSync } = await import('node:fs');
    // Written whole, as `otelgate keys` and editors do: a reload between the truncate and the write
    // of writeFileSync would read an empty file, which is a valid file with no keys.
    const replace = (text: string): void => {
      writeFileSync(`${gw.keysFile}.tmp`, text);
      renameSync(`${gw.keysFile}.tmp`, gw.keysFile);
    };
    const good = readFileSync(gw.keysFile, 'utf8');
    replace('keys: [');
    try {
      await gw.run.waitFor('Keys file is unreadable', 5_000);
      expect(await send(gw.keys['alpha'] as string)).toBe(202);
    } finally {
      replace(good);
    }
  });

  it('refuses bad uses with a message and exit 1', () => {
    expect(runCli(['keys', 'create', '--config', config])).toMatchObject({ status: 1, stderr: 'otelgate keys: keys create needs --project NAME\n' });
    expect(runCli(['keys', 'revoke', 'nosuchkey0', '--config', config])).toMatchObject({ status: 1, stderr: `otelgate keys: no key with id nosuchkey0 in ${gw.keysFile}\n` });
    expect(runCli(['keys', 'rotate', '--config', config]).status).toBe(1);
    for (const scope of ['write', 'ingest,', '', 'read,read,admin']) {
      expect(runCli(['keys', 'create', '--project', 'x', '--scope', scope, '--config', config])).toMatchObject({ status: 1, stderr: `otelgate keys: --scope takes ingest, read or ingest,read (got "${scope}")\n` });
    }
  });
});
