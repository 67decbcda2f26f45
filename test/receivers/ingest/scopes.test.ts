// Key scopes over real HTTP against the built otelgate and its store: a key that may only send
// (ingest) reads nothing, one that may only read sends nothing, one with both (or an entry from
// before scopes existed) does both; each refusal is the same 401 as an unknown key's. Every ingest
// path and every read API endpoint, for every kind of key.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../../src/auth/authenticator.js';
import { generateKey } from '../../../src/auth/key.js';
import { writeKeysFile } from '../../../src/auth/keysfile.js';
import { startGateway, STORE_CONFIG, type Gateway } from '../../helpers/gateway.js';
import { waitUntil } from '../../helpers/wait.js';

const NOW = BigInt(Date.now()) * 1_000_000n;
const TRACE = '5b8efff798038103d269b633813fc60c';

/** One record of each signal, and the simple endpoint's, each with `mark` in it. */
const bodies = (mark: string): [string, string][] => [
  ['/v1/logs', JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ timeUnixNano: String(NOW), body: { stringValue: mark } }] }] }] })],
  [
    '/v1/traces',
    JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: TRACE, spanId: 'eee19b7ec3c1b174', name: mark, startTimeUnixNano: String(NOW), endTimeUnixNano: String(NOW + 1000n) }] }] }] }),
  ],
  ['/v1/metrics', JSON.stringify({ resourceMetrics: [{ scopeMetrics: [{ metrics: [{ name: mark, gauge: { dataPoints: [{ timeUnixNano: String(NOW), asDouble: 1 }] } }] }] }] })],
  ['/api/v1/ingest', JSON.stringify({ message: mark })],
];

// The kinds of key, each in project "p"; undefined: an entry written before scopes existed.
const KINDS: [string, Scope[] | undefined][] = [
  ['ingest', ['ingest']],
  ['read', ['read']],
  ['ingest,read', ['ingest', 'read']],
  ['no scopes (an older keys file)', undefined],
];
const mayIngest = (scopes: Scope[] | undefined): boolean => scopes === undefined || scopes.includes('ingest');
const mayRead = (scopes: Scope[] | undefined): boolean => scopes === undefined || scopes.includes('read');

let gw: Gateway;
const keys = new Map<string, string>();

beforeAll(async () => {
  gw = await startGateway({ config: STORE_CONFIG(join(mkdtempSync(join(tmpdir(), 'otelgate-scopes-')), 'store.db')) });
  const entries = KINDS.map(([kind, scopes]) => {
    const key = generateKey();
    keys.set(kind, key.key);
    return { id: key.id, project: 'p', sha256: key.sha256, ...(scopes === undefined ? {} : { scopes }) };
  });
  writeKeysFile(gw.keysFile, entries);
  expect(await waitUntil(() => gw.run.lines.some((l) => l.msg === 'Reloaded API keys' && l['keys'] === KINDS.length))).toBe(true);
});

afterAll(async () => {
  await gw.stop();
});

const post = async (path: string, body: string, key: string): Promise<[number, string]> => {
  const response = await fetch(`${gw.url}${path}`, { method: 'POST', body, headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` } });
  return [response.status, await response.text()];
};

describe('key scopes', () => {
  it.each(KINDS)('a key with scopes %s sends on every ingest path exactly when it may ingest', async (kind, scopes) => {
    const answers = [];
    for (const [path, body] of bodies(`from ${kind}`)) answers.push(await post(path, body, keys.get(kind) as string));
    expect(answers).toEqual(
      mayIngest(scopes)
        ? [
            [200, '{}'],
            [200, '{}'],
            [200, '{}'],
            [202, '{"accepted":1,"skipped":0}'],
          ]
        : Array.from({ length: 4 }, () => [401, '{"message":"API key invalid."}']),
    );
  });

  it.each(KINDS)('a key with scopes %s reads every endpoint of the read API exactly when it may read', async (kind, scopes) => {
    const key = keys.get(kind) as string;
    const answers = await Promise.all((['logs', 'spans', 'metrics'] as const).map((what) => gw.read(what, key)));
    if (!mayRead(scopes)) {
      expect(answers.map((a) => [a.status, a.text])).toEqual(Array.from({ length: 3 }, () => [401, '{"message":"API key invalid."}']));
      return;
    }
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    // What the keys that may send wrote to project "p", read back by any key that may read it.
    const senders = KINDS.filter(([, s]) => mayIngest(s)).map(([k]) => `from ${k}`).sort();
    const [logs, spans, metrics] = answers.map((a) => a.body.rows ?? []);
    expect(logs?.map((row) => row['body']).sort()).toEqual([...senders, ...senders].sort());
    expect(spans?.map((row) => row['name']).sort()).toEqual(senders);
    expect(metrics?.map((row) => row['metric_name']).sort()).toEqual(senders);
  });
});
