// The apikeyauth extension follows its keys file while it runs, on a fake clock: a key added or
// revoked takes effect at the next reload_interval, not before, and without a restart. (The CLI
// test does the same against the built otelgate, where only "eventually" can be asked of it.)
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Authenticator } from '../../../src/auth/authenticator.js';
import { generateKey } from '../../../src/auth/key.js';
import { writeKeysFile, type KeyEntry } from '../../../src/auth/keysfile.js';
import { builtinRegistry } from '../../../src/components.js';
import type { ApiKeyAuthConfig } from '../../../src/extensions/apikeyauth/config.js';
import { apiKeyAuthExtensionFactory } from '../../../src/extensions/apikeyauth/factory.js';
import type { Component } from '../../../src/runtime/component.js';
import { testContext } from '../../helpers/components.js';
import { configFrom } from '../../helpers/config.js';

const running: Component[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const component of running.splice(0)) await component.shutdown();
});

function settings(keysFile: string): ApiKeyAuthConfig {
  const resolved = configFrom(
    `extensions: {apikeyauth: {keys_file: ${keysFile}, reload_interval: 1s}}\nreceivers: {nop: }\nexporters: {nop: }\n` +
      'service: {extensions: [apikeyauth], pipelines: {logs: {receivers: [nop], exporters: [nop]}}}\n',
    builtinRegistry(),
  );
  return resolved.components.extension.get('apikeyauth')?.config as ApiKeyAuthConfig;
}

function entry(project: string): { key: string; entry: KeyEntry } {
  const made = generateKey();
  return { key: made.key, entry: { id: made.id, project, sha256: made.sha256 } };
}

describe('apikeyauth', () => {
  it('takes a key added to the file at the next reload_interval, and refuses a revoked one at the next after that', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const keysFile = join(mkdtempSync(join(tmpdir(), 'otelgate-apikeyauth-')), 'keys.yaml');
    const alpha = entry('alpha');
    const beta = entry('beta');
    writeKeysFile(keysFile, [alpha.entry]);
    const auth = apiKeyAuthExtensionFactory.create(settings(keysFile), testContext('apikeyauth', 'extension').ctx) as Authenticator;
    await auth.start();
    running.push(auth);
    const project = (key: string): string | undefined => auth.authenticate({ authorization: `Bearer ${key}` }, 'ingest')?.project;
    expect([project(alpha.key), project(beta.key)]).toEqual(['alpha', undefined]);

    writeKeysFile(keysFile, [alpha.entry, beta.entry]);
    vi.advanceTimersByTime(999);
    expect(project(beta.key)).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect([project(alpha.key), project(beta.key)]).toEqual(['alpha', 'beta']);

    writeKeysFile(keysFile, [alpha.entry, { ...beta.entry, revoked: new Date().toISOString() }]);
    vi.advanceTimersByTime(999);
    expect(project(beta.key)).toBe('beta');
    vi.advanceTimersByTime(1);
    expect([project(alpha.key), project(beta.key)]).toEqual(['alpha', undefined]);
  });
});
