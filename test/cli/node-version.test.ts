// The built CLI on a Node too old to run otelgate (the system Node 20 that installs it, say): one
// line saying so and what to do, exit 1, before any command starts.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLI, ROOT } from '../helpers/cli.js';

const SYSTEM_NODE = '/usr/bin/node';
const line = (version: string): string =>
  `otelgate needs Node.js 22.13 or newer, and this is ${version}: run it through npm (npm start, npx otelgate), which uses the Node 24 installed with otelgate, or install a newer Node.\n`;

function systemNodeVersion(): string | undefined {
  if (!existsSync(SYSTEM_NODE)) return undefined;
  return spawnSync(SYSTEM_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim();
}

const version = systemNodeVersion();
const [major = 0, minor = 0] = (version ?? 'v0.0').slice(1).split('.').map(Number);
const systemNodeIsOld = version !== undefined && (major < 22 || (major === 22 && minor < 13));

describe('otelgate on a Node older than 22.13', () => {
  it.skipIf(!systemNodeIsOld)(`says so in one line and exits 1 under ${SYSTEM_NODE} (${version ?? 'absent'})`, () => {
    const result = spawnSync(SYSTEM_NODE, [CLI, 'validate'], { cwd: ROOT, encoding: 'utf8', timeout: 20_000 });
    expect(result).toMatchObject({ status: 1, stdout: '', stderr: line(version as string) });
  });

  it('says so in one line and exits 1 when Node reports an old version (made to, under the Node running the tests)', () => {
    const pretend = "Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '20.19.0' } }); Object.defineProperty(process, 'version', { value: 'v20.19.0' });";
    const result = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(pretend)}`, CLI, 'validate'], { cwd: ROOT, encoding: 'utf8', timeout: 20_000 });
    expect(result).toMatchObject({ status: 1, stdout: '', stderr: line('v20.19.0') });
  });
});
