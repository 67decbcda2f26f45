// The store's reader thread: a query that runs too long is stopped without stopping the next
// one, too many waiting reads are refused, and reads never wait for ingest's thread.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openForWriting } from '../../../src/exporters/store/database.js';
import { ReaderThread } from '../../../src/exporters/store/reader.js';
import { Writer } from '../../../src/exporters/store/writer.js';
import { parseQuery } from '../../../src/query/params.js';
import { ReadRefused } from '../../../src/query/reader.js';
import { logRow } from '../../helpers/rows.js';

let path: string;
const readers: ReaderThread[] = [];
afterEach(async () => {
  for (const reader of readers.splice(0)) await reader.close();
});

beforeAll(async () => {
  path = join(mkdtempSync(join(tmpdir(), 'otelgate-reader-')), 'store.db');
  const db = openForWriting(path, { synchronous: 'normal', busyTimeoutMs: 100 });
  const writer = new Writer(db);
  // Enough rows that a substring scan of every body takes a while.
  for (let i = 0; i < 20; i++) await writer.write({ signal: 'logs', project: 'p', rows: Array.from({ length: 10_000 }, (_, j) => ({ ...logRow(j), body: `row ${i}-${j} ${'y'.repeat(200)}` })) });
  db.close();
}, 60_000);

function reader(timeoutMs: number, maxQueued = 8): ReaderThread {
  const made = new ReaderThread(path, { timeoutMs, maxQueued, maxBytes: 1 << 20 });
  readers.push(made);
  return made;
}

describe('store reader thread', () => {
  it('stops a query that runs past its time, says how to narrow it, and answers the next one', async () => {
    const slow = reader(20);
    const error = await slow.read('p', parseQuery('logs', [['q', 'no such text']])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReadRefused);
    expect((error as ReadRefused).retryable).toBe(false);
    expect((error as ReadRefused).message).toBe('the query ran for more than 0.02 s and was stopped; narrow it with from and to (or service, name, limit)');

    const fast = await slow.read('p', parseQuery('logs', [['limit', '2']]));
    expect(fast.rows).toHaveLength(2);
    expect(fast.truncated).toBe(false);
  });

  it('refuses a read beyond max_queued, to be retried', async () => {
    const busy = reader(10_000, 1);
    const first = busy.read('p', parseQuery('logs', [['q', 'no such text']]));
    const second = await busy.read('p', parseQuery('logs', [])).catch((e: unknown) => e);
    expect(second).toBeInstanceOf(ReadRefused);
    expect((second as ReadRefused).retryable).toBe(true);
    expect((await first).rows).toEqual([]);
  });

  it('runs a scan on its own thread: the main thread keeps turning meanwhile', async () => {
    const scan = reader(10_000);
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    const started = performance.now();
    await scan.read('p', parseQuery('logs', [['q', 'no such text']]));
    const elapsed = performance.now() - started;
    clearInterval(ticker);
    // Had the scan run on this thread, no tick could have happened until it ended.
    expect(elapsed).toBeGreaterThan(30);
    expect(ticks).toBeGreaterThan(2);
  });

  it('stops an answer after the row that takes it past maxBytes', async () => {
    const small = reader(10_000);
    const result = await small.read('p', parseQuery('logs', [['limit', '10000']]));
    expect(result.truncated).toBe(true);
    const bytes = result.rows.reduce((n, row) => n + row.length, 0);
    expect(bytes).toBeLessThanOrEqual(1 << 20);
    expect(bytes + (result.rows[0]?.length ?? 0)).toBeGreaterThan(1 << 20);
  });

  it('counts a query\'s time from when the thread takes it, not while it waits behind others', async () => {
    const scanQuery = parseQuery('logs', [['q', 'no such text']]);
    const probe = reader(10_000);
    await probe.read('p', scanQuery);
    // The second read, on a started thread: one scan's own time.
    let started = performance.now();
    await probe.read('p', scanQuery);
    const scan = performance.now() - started;
    // Eight scans queued at once take about eight scans; each may take three.
    const timeoutMs = 3 * scan;
    const queued = reader(timeoutMs);
    await queued.read('p', parseQuery('logs', [['limit', '1']]));
    started = performance.now();
    const answers = await Promise.allSettled(Array.from({ length: 8 }, () => queued.read('p', scanQuery)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill('fulfilled'));
    expect(performance.now() - started).toBeGreaterThan(timeoutMs);
  });

  it('refuses reads once closed, without starting a thread again', async () => {
    const closing = reader(10_000);
    expect((await closing.read('p', parseQuery('logs', [['limit', '1']]))).rows).toHaveLength(1);
    await closing.close();
    const after = await closing.read('p', parseQuery('logs', [])).catch((e: unknown) => e);
    expect(after).toBeInstanceOf(ReadRefused);
    expect((after as ReadRefused).message).toBe('otelgate is shutting down');
  });
});
