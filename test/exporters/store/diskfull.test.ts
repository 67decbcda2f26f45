// Storage failures over real HTTP: a store whose disk fills up answers 503 (the contract's body,
// Retry-After: 5) and stays up, takes data again as soon as there is room, without a restart, and
// has stored every batch it answered 202 whole and nothing of any batch it answered 503; the same
// when another process holds the write lock past busy_timeout.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, STORE_CONFIG, type Gateway } from '../../helpers/gateway.js';
import { waitUntil } from '../../helpers/wait.js';

const UNAVAILABLE = '{"message":"Log storage is temporarily unavailable. Please retry."}';
const RECORDS_PER_BATCH = 100;
const PADDING = 'x'.repeat(400);

/** Whether this machine lets the test mount a tmpfs (root in a container that allows it). */
function mountable(): { ok: boolean; why: string } {
  const dir = mkdtempSync(join(tmpdir(), 'otelgate-canmount-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'pipe' });
    execFileSync('umount', [dir], { stdio: 'pipe' });
    return { ok: true, why: '' };
  } catch (error) {
    return { ok: false, why: error instanceof Error ? error.message.split('\n')[0] ?? '' : String(error) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const canMount = mountable();
if (!canMount.ok) console.log(`store disk-full test skipped: cannot mount a tmpfs here (${canMount.why}); it needs root and a mount-capable container`);

interface Answer {
  status: number;
  body: string;
  retryAfter: string | null;
}

async function post(gw: Gateway, path: string, body: string, key = gw.keys['default'] as string): Promise<Answer> {
  const response = await fetch(gw.url + path, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body });
  return { status: response.status, body: await response.text(), retryAfter: response.headers.get('retry-after') };
}

/** One simple JSON batch whose records carry `<prefix>-<n>-rec-<i>` as the first word of their message. */
function simpleBatch(prefix: string, n: number, records = RECORDS_PER_BATCH, padding = PADDING): string {
  return JSON.stringify(Array.from({ length: records }, (_, i) => ({ message: `${prefix}-${n}-rec-${i} ${padding}`, level: 'info', service: 'diskfull' })));
}

/** Every stored log body's marker, counted: marker → how many rows carry it. */
function storedMarkers(dbPath: string, project = 'default'): Map<string, number> {
  const db = new DatabaseSync(dbPath, { readOnly: true, timeout: 5_000 });
  try {
    const counts = new Map<string, number>();
    for (const row of db.prepare('SELECT body FROM logs WHERE project = ?').all(project) as { body: string }[]) {
      const marker = row.body.split(' ')[0] as string;
      counts.set(marker, (counts.get(marker) ?? 0) + 1);
    }
    return counts;
  } finally {
    db.close();
  }
}

/** Asserts every batch answered 202 is stored whole (each record exactly once) and nothing of a batch answered 503; returns the rows expected. */
function expectWholeOrNothing(stored: Map<string, number>, prefix: string, answers: Map<number, number>, records = RECORDS_PER_BATCH): number {
  let expected = 0;
  for (const [n, status] of answers) {
    const present = Array.from({ length: records }, (_, i) => stored.get(`${prefix}-${n}-rec-${i}`) ?? 0);
    if (status === 202) {
      expect(present, `${prefix} ${n} was answered 202`).toEqual(new Array<number>(records).fill(1));
      expected += records;
    } else {
      expect(status, `${prefix} ${n}`).toBe(503);
      expect(present, `${prefix} ${n} was answered 503`).toEqual(new Array<number>(records).fill(0));
    }
  }
  return expected;
}

const alive = (gw: Gateway): boolean => gw.run.child.exitCode === null && gw.run.child.signalCode === null;

describe.skipIf(!canMount.ok)('store on a disk that fills up', () => {
  let mountDir: string;
  let mounted = false;
  let gw: Gateway | undefined;

  beforeAll(() => {
    mountDir = mkdtempSync(join(tmpdir(), 'otelgate-diskfull-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mountDir], { stdio: 'pipe' });
    mounted = true;
  });
  afterAll(async () => {
    if (gw !== undefined && alive(gw)) await gw.stop();
    if (mounted) execFileSync('umount', [mountDir], { stdio: 'pipe' });
    rmSync(mountDir, { recursive: true, force: true });
  });

  it('answers 503 with the contract’s body and Retry-After: 5 while full, stays up, takes data again once there is room, and stores 202 batches whole and 503 batches not at all', async () => {
    // Half of the 4 MiB tmpfs is taken by a filler file, so the store (db, -wal, -shm) has about 2 MiB.
    const filler = join(mountDir, 'filler');
    writeFileSync(filler, Buffer.alloc(2 * 1024 * 1024, 0x5a));
    const dbPath = join(mountDir, 'otelgate.db');
    gw = await startGateway({ config: STORE_CONFIG(dbPath), projects: ['default'] });
    await gw.run.waitFor('Retention pass done');

    // Waves of 4 concurrent batches (group commits) until one is refused, then single batches until
    // 3 in a row are refused. A refused commit may be followed by an accepted smaller one that still
    // fits in the room left (a group of 4 refused, then 1 batch taken): both are fine.
    const answers = new Map<number, number>();
    const unavailable: Answer[] = [];
    let n = 0;
    const send = async (wave: number[]): Promise<(readonly [number, Answer])[]> => {
      const results = await Promise.all(wave.map(async (b) => [b, await post(gw as Gateway, '/api/v1/ingest', simpleBatch('batch', b))] as const));
      for (const [b, answer] of results) {
        answers.set(b, answer.status);
        if (answer.status === 202) expect(answer.body).toBe(`{"accepted":${RECORDS_PER_BATCH},"skipped":0}`);
        else if (answer.status === 503) unavailable.push(answer);
        else expect.fail(`batch ${b}: unexpected ${answer.status} ${answer.body}`);
      }
      return results;
    };
    const started = Date.now();
    while (unavailable.length === 0) {
      expect(n, 'the disk never filled up').toBeLessThan(2_000);
      await send([n, n + 1, n + 2, n + 3]);
      n += 4;
    }
    for (let refusedInARow = 0; refusedInARow < 3; n++) {
      expect(n, 'the disk never filled up').toBeLessThan(2_000);
      const [[, answer]] = (await send([n])) as [readonly [number, Answer]];
      refusedInARow = answer.status === 503 ? refusedInARow + 1 : 0;
    }
    const fillMs = Date.now() - started;
    const accepted = [...answers.values()].filter((s) => s === 202).length;
    console.log(`disk full after ${fillMs} ms: ${answers.size} batches sent, ${accepted} answered 202, ${unavailable.length} answered 503: ${[...answers.values()].join(' ')}`);
    expect(accepted).toBeGreaterThan(0);
    for (let b = n - 3; b < n; b++) expect(answers.get(b), `batch ${b}`).toBe(503);
    for (const answer of unavailable) expect(answer).toEqual({ status: 503, body: UNAVAILABLE, retryAfter: '5' });
    // OTLP answers the same (a batch twice the size of the simple ones that no longer fit).
    const logRecords = Array.from({ length: 2 * RECORDS_PER_BATCH }, (_, i) => ({ body: { stringValue: `otlp-0-rec-${i} ${PADDING}` } }));
    const otlp = await post(gw, '/v1/logs', JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords }] }] }));
    expect(otlp).toEqual({ status: 503, body: UNAVAILABLE, retryAfter: '5' });
    expect(alive(gw)).toBe(true);
    // Log lines come through a pipe of their own, maybe after the answers.
    const refusals = (): number => (gw as Gateway).run.lines.filter((l) => l.msg === 'Pipeline refused a batch; answered 503').length;
    await waitUntil(() => refusals() >= unavailable.length + 1);
    expect(refusals()).toBe(unavailable.length + 1);
    // Reads do not need room: they still work.
    expect((await gw.read('logs', gw.keys['default'], { limit: '1' })).status).toBe(200);

    // Room again, without a restart.
    rmSync(filler);
    expect(statfsSync(mountDir).bavail * statfsSync(mountDir).bsize).toBeGreaterThanOrEqual(2 * 1024 * 1024);
    const after = new Map<number, number>();
    for (let a = 0; a < 8; a++) {
      const answer = await post(gw, '/api/v1/ingest', simpleBatch('after', a));
      expect(answer, `after-${a}`).toEqual({ status: 202, body: `{"accepted":${RECORDS_PER_BATCH},"skipped":0}`, retryAfter: null });
      after.set(a, answer.status);
    }
    expect(alive(gw)).toBe(true);

    // Straight from the SQLite file (read-only, beside the running otelgate): whole or nothing, per batch.
    const stored = storedMarkers(dbPath);
    const expected = expectWholeOrNothing(stored, 'batch', answers) + expectWholeOrNothing(stored, 'after', after);
    expect(expected).toBe((accepted + 8) * RECORDS_PER_BATCH);
    expect([...stored.keys()].filter((marker) => marker.startsWith('otlp-'))).toEqual([]);
    expect([...stored.values()].reduce((a, b) => a + b, 0)).toBe(expected);
    // The read API agrees on the count.
    const read = await gw.read('logs', gw.keys['default'], { limit: '10000' });
    expect(read.body.rows).toHaveLength(Math.min(expected, 10_000));

    expect(await gw.stop()).toBe(0);
    expect(gw.run.lines.filter((l) => l.level === 'fatal')).toEqual([]);
  });
});

describe('store locked by another process past busy_timeout', () => {
  let gw: Gateway | undefined;
  let locker: DatabaseSync | undefined;
  afterEach(async () => {
    if (locker?.isOpen === true) {
      if (locker.isTransaction) locker.exec('ROLLBACK');
      locker.close();
    }
    if (gw !== undefined && alive(gw)) await gw.stop();
  });

  it('answers 503 with the contract’s body and Retry-After: 5 while the write lock is held, 202 again once it is released; the refused batch is absent', async () => {
    const dbPath = join(mkdtempSync(join(tmpdir(), 'otelgate-locked-')), 'otelgate.db');
    gw = await startGateway({ config: STORE_CONFIG(dbPath, '    busy_timeout: 200ms'), projects: ['default'] });
    await gw.run.waitFor('Retention pass done');
    const key = gw.keys['default'] as string;
    const ok = `{"accepted":5,"skipped":0}`;
    expect(await post(gw, '/api/v1/ingest', simpleBatch('before', 0, 5, ''))).toEqual({ status: 202, body: ok, retryAfter: null });

    locker = new DatabaseSync(dbPath, { timeout: 1_000 });
    locker.exec('BEGIN IMMEDIATE');
    const started = performance.now();
    expect(await post(gw, '/api/v1/ingest', simpleBatch('locked', 0, 5, ''))).toEqual({ status: 503, body: UNAVAILABLE, retryAfter: '5' });
    // It waited busy_timeout for the lock first (never less; a loaded machine may take longer).
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    const otlp = JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ body: { stringValue: 'locked-otlp-rec-0' } }] }] }] });
    expect(await post(gw, '/v1/logs', otlp)).toEqual({ status: 503, body: UNAVAILABLE, retryAfter: '5' });
    expect(alive(gw)).toBe(true);
    // WAL: a reader is not held up by the writer's lock.
    const during = await gw.read('logs', key, { limit: '10000' });
    expect(during.status).toBe(200);
    expect(during.body.rows?.map((r) => r['body'])).toEqual(['before-0-rec-4', 'before-0-rec-3', 'before-0-rec-2', 'before-0-rec-1', 'before-0-rec-0'].map((m) => `${m} `));

    locker.exec('ROLLBACK');
    locker.close();
    expect(await post(gw, '/api/v1/ingest', simpleBatch('after', 0, 5, ''))).toEqual({ status: 202, body: ok, retryAfter: null });

    const rows = (await gw.read('logs', key, { limit: '10000' })).body.rows ?? [];
    const markers = rows.map((r) => String(r['body']).split(' ')[0]).sort();
    expect(markers).toEqual([0, 1, 2, 3, 4].flatMap((i) => [`after-0-rec-${i}`, `before-0-rec-${i}`]).sort());
    const stored = storedMarkers(dbPath);
    expect(stored.size).toBe(10);
    expect([...stored.values()].reduce((a, b) => a + b, 0)).toBe(10);
    const refusals = (): number => (gw as Gateway).run.lines.filter((l) => l.msg === 'Pipeline refused a batch; answered 503').length;
    await waitUntil(() => refusals() >= 2);
    expect(refusals()).toBe(2);
    expect(await gw.stop()).toBe(0);
  });
});
