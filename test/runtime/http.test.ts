// The built otelgate never loads undici (Node's fetch client) on its way to serving: 15 MB of RSS
// that an ESM import of node:http would bring in (src/runtime/http.ts).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

describe('runtime/http', () => {
  it('loading every command and component of the built otelgate leaves undici unloaded', () => {
    const script = `await import(${JSON.stringify(`${DIST}commands/run.js`)}); await import(${JSON.stringify(`${DIST}components.js`)});` + 'console.log(JSON.stringify(process.moduleLoadList.filter((m) => m.includes("undici"))));';
    const loaded = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(loaded)).toEqual([]);
  });

  it('would see undici loaded by an ESM import of node:http, which is why the servers use require()', () => {
    const loaded = execFileSync(process.execPath, ['--input-type=module', '-e', 'await import("node:http"); console.log(process.moduleLoadList.some((m) => m.includes("undici")))'], { encoding: 'utf8' });
    expect(loaded.trim()).toBe('true');
  });
});
