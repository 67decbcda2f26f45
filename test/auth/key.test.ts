import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { presentedKey } from '../../src/auth/authenticator.js';
import { generateKey, hashesEqual, hashKey, keyId } from '../../src/auth/key.js';
import { readKeysFile, writeKeysFile } from '../../src/auth/keysfile.js';
import { KeyStore } from '../../src/auth/keystore.js';

describe('API keys', () => {
  it('look like otg_<id>_<secret> in [A-Za-z0-9_] only, and differ every time', () => {
    const keys = Array.from({ length: 200 }, () => generateKey());
    for (const { id, key, sha256 } of keys) {
      expect(key).toMatch(/^otg_[a-z0-9]{10}_[A-Za-z0-9]{32}$/);
      expect(keyId(key)).toBe(id);
      expect(sha256).toBe(createHash('sha256').update(key).digest('hex'));
    }
    expect(new Set(keys.map((k) => k.key)).size).toBe(200);
    expect(new Set(keys.map((k) => k.id)).size).toBe(200);
  });

  it('resolve to their project by hash; a wrong secret, a revoked key or a malformed one resolve to nothing', () => {
    const [a, b, c] = [generateKey(), generateKey(), generateKey()];
    const store = new KeyStore();
    store.replace([
      { id: a.id, project: 'shop', sha256: a.sha256 },
      { id: b.id, project: 'blog', sha256: b.sha256 },
      { id: c.id, project: 'old', sha256: c.sha256, revoked: '2026-01-01T00:00:00Z' },
    ]);
    expect(store.resolve(a.key, 'ingest')).toEqual({ project: 'shop', keyId: a.id });
    expect(store.resolve(b.key, 'ingest')).toEqual({ project: 'blog', keyId: b.id });
    expect(store.resolve(c.key, 'ingest')).toBeUndefined();
    expect(store.resolve(`${a.key.slice(0, -1)}${a.key.endsWith('A') ? 'B' : 'A'}`, 'ingest')).toBeUndefined();
    expect(store.resolve(`otg_${a.id}_${b.key.slice(-32)}`, 'ingest')).toBeUndefined();
    expect(store.resolve('otg_short_x', 'ingest')).toBeUndefined();
  });

  it('compare digests whole: equal only when every character is, and never for one of another length', () => {
    const digest = generateKey().sha256;
    expect(hashesEqual(digest, digest)).toBe(true);
    const flip = (at: number): string => `${digest.slice(0, at)}${digest[at] === '0' ? '1' : '0'}${digest.slice(at + 1)}`;
    for (const at of [0, 1, 31, 32, 62, 63]) {
      expect(hashesEqual(digest, flip(at))).toBe(false);
      expect(hashesEqual(flip(at), digest)).toBe(false);
    }
    expect(hashesEqual(digest, digest.slice(0, 63))).toBe(false);
    expect(hashesEqual(`${digest}0`, `${digest}0`)).toBe(false);
    expect(hashesEqual('', '')).toBe(false);
    expect(hashesEqual(digest, generateKey().sha256)).toBe(false);
  });

  it('resolve only for a scope their entry grants; an entry without scopes (from before them) grants both', () => {
    const [sends, reads, both, old] = [generateKey(), generateKey(), generateKey(), generateKey()];
    const store = new KeyStore();
    store.replace([
      { id: sends.id, project: 'p', sha256: sends.sha256, scopes: ['ingest'] },
      { id: reads.id, project: 'p', sha256: reads.sha256, scopes: ['read'] },
      { id: both.id, project: 'p', sha256: both.sha256, scopes: ['read', 'ingest'] },
      { id: old.id, project: 'p', sha256: old.sha256 },
    ]);
    const may = (key: string) => (['ingest', 'read'] as const).filter((scope) => store.resolve(key, scope) !== undefined);
    expect([may(sends.key), may(reads.key), may(both.key), may(old.key)]).toEqual([['ingest'], ['read'], ['ingest', 'read'], ['ingest', 'read']]);
  });

  it.each([
    [{ authorization: 'Bearer otg_x' }, 'otg_x'],
    [{ authorization: 'bearer   otg_y  ' }, 'otg_y'],
    [{ 'x-service-key': ' otg_z ' }, 'otg_z'],
    [{ authorization: 'Basic abc', 'x-service-key': 'otg_w' }, 'otg_w'],
    [{ authorization: 'Basic abc' }, undefined],
    [{}, undefined],
  ])('are found in the request headers %j', (headers, expected) => {
    expect(presentedKey(headers)).toBe(expected);
  });
});

describe('the keys file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'otelgate-keys-'));

  it('round-trips and keeps only hashes', () => {
    const key = generateKey();
    const file = join(dir, 'round.yaml');
    writeKeysFile(file, [{ id: key.id, project: 'shop', sha256: hashKey(key.key), created: '2026-11-22T00:00:00.000Z' }]);
    expect(readKeysFile(file)).toEqual([{ id: key.id, project: 'shop', sha256: key.sha256, created: '2026-11-22T00:00:00.000Z' }]);
  });

  it.each([
    ['keys: [{id: abc, project: p, sha256: zz}]', /keys\[0\]\.id: .*pattern/],
    ['keys: [{id: aaaaaaaaaa, project: p, sha256: 00}]', /keys\[0\]\.sha256/],
    ['keys: [{id: aaaaaaaaaa, project: p, sha256: "' + '0'.repeat(64) + '", secret: x}]', /unknown setting "secret"/],
    ['keys: [{id: aaaaaaaaaa, project: p, sha256: "' + 'a'.repeat(64) + '"}, {id: aaaaaaaaaa, project: q, sha256: "' + 'b'.repeat(64) + '"}]', /listed more than once/],
    ['keys: [{id: aaaaaaaaaa, project: p, sha256: ' + '1'.repeat(64) + '}]', /keys\[0\]\.sha256: must be a string \(got number/],
    ['keys: [', /YAML syntax/],
  ])('refuses %s, naming the file and the entry', (text, message) => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, text);
    expect(() => readKeysFile(file)).toThrow(message);
    expect(() => readKeysFile(file)).toThrow(file);
  });
});
