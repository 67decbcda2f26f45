// The store's reader thread: a query that runs too long is stopped without stopping the next
// one, too many waiting reads are refused, and reads never wait for ingest's thread. A query's
// time runs on a fake clock here (setTimeout only: the thread and SQLite run for real), so that
// "too long" is the test's to say, not the machine's speed.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openForWriting } from '../../../src/exporters/store/database.js';
import { ReaderThread } from '../../../src/exporters/store/reader.js';
import { Writer } from '../../../src/exporters/store/writer.js';
import { parseQuery } from '../../../src/query/params.js';
import { ReadRefused } from '../../../src/query/reader.js';
import { RECEIVED, logRow } from '../../helpers/rows.js';

let path: string;
const readers: ReaderThread[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const reader of readers.splice(0)) await reader.close();
});

const SCAN = parseQuery('logs', [['q', 'no such text']]);
const fakeClock = (): void => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });

beforeAll(async () => {
  path = join(mkdtempSync(join(tmpdir(), 'otelgate-reader-')), 'store.db');
  const db = openForWriting(path, { synchronous: 'normal', busyTimeoutMs: 100 });
  const writer = new Writer(db);
  // Enough rows that a substring scan of every body takes a while.
  for (let i = 0; i < 20; i++) await writer.write({ signal: 'logs', project: 'p', receivedUnixNano: RECEIVED, exclusive: false, rows: Array.from({ length: 10_000 }, (_, j) => ({ ...logRow(j), body: `row ${i}-${j} ${'y'.repeat(200)}` })) });
  db.close();
}, 60_000);

function reader(timeoutMs: number, maxQueued = 8): ReaderThread {
  const made = new ReaderThread(path, { timeoutMs, maxQueued, maxBytes: 1 << 20 });
  readers.push(made);
  return made;
}

describe('store reader thread', () => {
  it('stops a query that runs past its time, says how to narrow it, and answers the next one', async () => {
    fakeClock();
    const slow = reader(2000);
    // Once the thread has started and is free, a read is handed to it at once, its time starting then.
    await slow.read('p', parseQuery('logs', [['limit', '1']]));
    const scan = slow.read('p', SCAN).catch((e: unknown) => e);
    // Its time runs out before its answer can come (nothing from the thread is heard before the next turn of the event loop).
    vi.advanceTimersByTime(2000);
    const error = await scan;
    expect(error).toBeInstanceOf(ReadRefused);
    expect((error as ReadRefused).retryable).toBe(false);
    expect((error as ReadRefused).message).toBe('the query ran for more than 2 s and was stopped; narrow it with from and to (or service, name, limit)');

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

  it('runs a scan on its own thread: the main thread does next to none of its work', async () => {
    const scan = reader(10_000);
    await scan.read('p', parseQuery('logs', [['limit', '1']]));
    // CPU time, not time on the clock: a loaded machine slows both threads alike.
    const process0 = process.cpuUsage();
    const main0 = process.threadCpuUsage();
    await scan.read('p', SCAN);
    const all = process.cpuUsage(process0);
    const main = process.threadCpuUsage(main0);
    const ms = (usage: NodeJS.CpuUsage): number => (usage.user + usage.system) / 1000;
    // Had the scan run on this thread, this thread would have done nearly all of the work.
    expect(ms(all)).toBeGreaterThan(0);
    expect(ms(main)).toBeLessThan(ms(all) / 4);
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
    fakeClock();
    const queued = reader(1000);
    await queued.read('p', parseQuery('logs', [['limit', '1']]));
    const reads = Array.from({ length: 8 }, () => queued.read('p', SCAN));
    // 600 ms pass while each runs: 4.8 s in all, far past the 1 s of any one of them, which only a
    // time counted from the queue would add up. (The next is handed over as the one before answers.)
    for (const read of reads) {
      vi.advanceTimersByTime(600);
      expect((await read).rows).toEqual([]);
    }
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
