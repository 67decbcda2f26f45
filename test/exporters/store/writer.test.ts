// The store's writer on a real SQLite file: group commit, a batch stored whole or not at all, and
// recovery after a failure, without a restart.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openForWriting } from '../../../src/exporters/store/database.js';
import { Writer } from '../../../src/exporters/store/writer.js';
import { PermanentError, ShuttingDownError, StorageError } from '../../../src/errors.js';
import { newAttributes } from '../../../src/model/anyvalue.js';
import type { Batch } from '../../../src/model/batch.js';
import type { Building } from '../../../src/model/building.js';
import type { LogRow } from '../../../src/model/logs.js';
import type { DataPointRow } from '../../../src/model/metrics.js';
import type { SpanEvent, SpanRow } from '../../../src/model/traces.js';
import { RECEIVED, logRow, metricKindsBatch, spanBatch } from '../../helpers/rows.js';

let db: DatabaseSync;
let writer: Writer;
/** What the writer committed so far: transactions, and the batches they held. */
let stats: { commits: number; batches: number };
/** Times the writer's commits held at the store's largest. */
let heldTimes: number;

beforeEach(() => {
  db = openForWriting(join(mkdtempSync(join(tmpdir(), 'otelgate-writer-')), 'store.db'), { synchronous: 'normal', busyTimeoutMs: 100 });
  stats = { commits: 0, batches: 0 };
  heldTimes = 0;
  writer = new Writer(db, (batches, held) => {
    stats.commits++;
    stats.batches += batches;
    heldTimes += held;
  });
});
afterEach(() => db.close());

function logs(project: string, count: number, body = (i: number) => `${project}-${i}`): Batch<'logs'> {
  return { signal: 'logs', project, receivedUnixNano: RECEIVED, exclusive: false, rows: Array.from({ length: count }, (_, i) => ({ ...logRow(i), body: body(i) })) };
}

const count = (where = '1'): number => Number((db.prepare(`SELECT count(*) AS n FROM logs WHERE ${where}`).get() as { n: number }).n);

describe('store writer', () => {
  it('gives a log record without a time of its own its observed time, else the time its batch was received', async () => {
    const rows = [{ ...logRow(0), timeUnixNano: 0n, observedTimeUnixNano: 0n }, { ...logRow(1), timeUnixNano: 0n, observedTimeUnixNano: 42n }, logRow(2)];
    await writer.write({ signal: 'logs', project: 'p', receivedUnixNano: RECEIVED, exclusive: false, rows });
    const select = db.prepare('SELECT ts FROM logs ORDER BY rowid');
    select.setReadBigInts(true);
    expect(select.all().map((r) => (r as { ts: bigint }).ts)).toEqual([RECEIVED, 42n, logRow(2).timeUnixNano]);
  });

  it('holds every time past 2^63 - 1 ns at 2^63 - 1 alike, columns and the times inside events and exemplars, and counts each', async () => {
    const far = 2n ** 64n - 1n;
    const MAX = '9223372036854775807';
    const traces = spanBatch();
    const span = traces.rows[0] as Building<SpanRow>;
    span.startTimeUnixNano = 2n ** 63n + 5n;
    span.endTimeUnixNano = far;
    span.events = [{ ...(span.events[0] as SpanEvent), timeUnixNano: far }, { ...(span.events[0] as SpanEvent), timeUnixNano: 7n }];
    const metrics = metricKindsBatch();
    const point = metrics.rows[0] as Building<DataPointRow>;
    point.timeUnixNano = far;
    point.exemplars = [{ timeUnixNano: 2n ** 63n, value: 1, filteredAttributes: newAttributes(), traceId: '', spanId: '' }];
    const log = logs('p', 1);
    (log.rows[0] as Building<LogRow>).observedTimeUnixNano = far;
    await Promise.all([writer.write(traces), writer.write(metrics), writer.write(log)]);

    const stored = db.prepare('SELECT CAST(start_time_unix_nano AS TEXT) AS s, CAST(end_time_unix_nano AS TEXT) AS e, CAST(duration_nano AS TEXT) AS d, events FROM spans').get() as Record<string, string | number>;
    expect([stored['s'], stored['e'], stored['d']]).toEqual([MAX, MAX, String(2n ** 63n - 6n)]);
    expect((JSON.parse(stored['events'] as string) as { time_unix_nano: string }[]).map((e) => e.time_unix_nano)).toEqual([MAX, '7']);
    const points = db.prepare("SELECT CAST(time_unix_nano AS TEXT) AS t, exemplars FROM datapoints WHERE metric_name = 'orders' ORDER BY time_unix_nano").all() as Record<string, string>[];
    expect(points.map((p) => p['t'])).toEqual([String(metrics.rows[1]?.timeUnixNano), MAX]);
    expect((JSON.parse(points[1]?.['exemplars'] as string) as { time_unix_nano: string }[])[0]?.time_unix_nano).toBe(MAX);
    const logRowStored = db.prepare('SELECT CAST(observed_time_unix_nano AS TEXT) AS o, CAST(time_unix_nano AS TEXT) AS t FROM logs').get() as Record<string, string>;
    expect(logRowStored['o']).toBe(MAX);
    // Span start and end, one event, a point's time, an exemplar's, a log's observed time: the log's
    // `ts` and the span's duration are made of those and not counted again.
    expect(heldTimes).toBe(6);
    // The rows handed over keep the times as sent.
    expect(span.endTimeUnixNano).toBe(far);
  });

  it('commits the batches handed over in one turn of the event loop together, and answers each after the commit', async () => {
    const answers = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => writer.write(logs(`p${i}`, 100))));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill('fulfilled'));
    expect(stats).toEqual({ commits: 1, batches: 10 });
    expect(count()).toBe(1000);

    await writer.write(logs('q', 1));
    await writer.write(logs('q', 1));
    expect(stats).toEqual({ commits: 3, batches: 12 });
  });

  describe('with a commit interval', () => {
    afterEach(() => vi.useRealTimers());

    /** A writer committing at most every 50 ms (fake time), counting into `stats`. */
    function intervalWriter(): Writer {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'performance'] });
      return new Writer(
        db,
        (batches) => {
          stats.commits++;
          stats.batches += batches;
        },
        50,
      );
    }

    /** A first batch of 5 records (project a), committed in the turn it came: the interval starts from it. */
    async function firstCommit(w: Writer): Promise<void> {
      const first = w.write(logs('a', 5));
      await vi.advanceTimersByTimeAsync(0);
      await first;
    }

    it('commits a batch after a pause at once, and batches in a steady stream together once the interval since the last commit is over', async () => {
      const w = intervalWriter();
      const answered: string[] = [];
      const write = (name: string): Promise<void> => w.write(logs(name, 10)).then(() => void answered.push(name));
      const first = write('first');
      await vi.advanceTimersByTimeAsync(0);
      await first;
      expect(stats).toEqual({ commits: 1, batches: 1 });

      await vi.advanceTimersByTimeAsync(10);
      const second = write('second');
      await vi.advanceTimersByTimeAsync(10);
      const third = write('third');
      await vi.advanceTimersByTimeAsync(29);
      // 49 ms after the first commit began: the two wait, unanswered and not yet stored.
      expect(stats).toEqual({ commits: 1, batches: 1 });
      expect(answered).toEqual(['first']);
      expect(count()).toBe(10);
      await vi.advanceTimersByTimeAsync(1);
      await Promise.all([second, third]);
      expect(stats).toEqual({ commits: 2, batches: 3 });
      expect(answered).toEqual(['first', 'second', 'third']);
      expect(count()).toBe(30);

      // After a pause longer than the interval, the next batch commits in the turn it came.
      await vi.advanceTimersByTimeAsync(200);
      const later = write('later');
      await vi.advanceTimersByTimeAsync(0);
      await later;
      expect(stats).toEqual({ commits: 3, batches: 4 });
    });

    it('commits what waited through a hold at the next turn once released, whatever timer was set for it', async () => {
      const w = intervalWriter();
      await firstCommit(w);
      const waiting = w.write(logs('b', 5));
      await vi.advanceTimersByTimeAsync(5);
      w.hold();
      // The timer set for 50 ms after the first commit fires while held: nothing is committed.
      await vi.advanceTimersByTimeAsync(50);
      expect(stats).toEqual({ commits: 1, batches: 1 });
      const more = w.write(logs('c', 5));
      await vi.advanceTimersByTimeAsync(1);
      expect(count()).toBe(5);
      w.release();
      await vi.advanceTimersByTimeAsync(1);
      await Promise.all([waiting, more]);
      expect(stats).toEqual({ commits: 2, batches: 3 });
      expect(count()).toBe(15);

      // Released while the timer of a batch handed over during the hold still runs: at once.
      await vi.advanceTimersByTimeAsync(5);
      w.hold();
      const during = w.write(logs('d', 5));
      await vi.advanceTimersByTimeAsync(5);
      w.release();
      await vi.advanceTimersByTimeAsync(1);
      expect(stats).toEqual({ commits: 3, batches: 4 });
      await during;
      expect(count()).toBe(20);
    });

    it('goes on with a backlog of more than one commit at the next turn, not after the interval', async () => {
      const w = intervalWriter();
      const answers = Promise.all([w.write(logs('a', 15_000)), w.write(logs('b', 15_000))]);
      // Fake timers run an immediate up to 1 ms on: both commits are done 2 ms on, not 50.
      await vi.advanceTimersByTimeAsync(2);
      expect(stats).toEqual({ commits: 2, batches: 2 });
      await answers;
      expect(count()).toBe(30_000);
    });

    it('writes a waiting batch when closed, without waiting for the interval', async () => {
      const w = intervalWriter();
      await firstCommit(w);
      const waiting = w.write(logs('b', 5));
      await vi.advanceTimersByTimeAsync(5);
      expect(count()).toBe(5);
      w.close();
      await waiting;
      expect(count()).toBe(10);
      expect(stats).toEqual({ commits: 2, batches: 2 });
      await expect(w.write(logs('c', 1))).rejects.toBeInstanceOf(ShuttingDownError);
    });
  });

  it('splits a large group so that one transaction stays bounded', async () => {
    await Promise.all([writer.write(logs('a', 15_000)), writer.write(logs('b', 15_000)), writer.write(logs('c', 4_000))]);
    // 15,000 + 15,000 would pass 20,000 rows; 15,000 + 4,000 does not.
    expect(stats).toEqual({ commits: 2, batches: 3 });
    expect(count()).toBe(34_000);
  });

  it('stores a batch whole or not at all: a batch with a value SQLite refuses leaves nothing behind, is refused for good, and the others of its group are stored', async () => {
    db.exec(`CREATE TRIGGER poison BEFORE INSERT ON logs WHEN NEW.body = 'poison' BEGIN SELECT RAISE(ABORT, 'poisoned row'); END`);
    const answers = await Promise.allSettled([
      writer.write(logs('first', 300)),
      writer.write(logs('middle', 300, (i) => (i === 150 ? 'poison' : `middle-${i}`))),
      writer.write(logs('last', 300)),
    ]);
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    // A constraint refuses the same rows on every retry: the client must not be told to retry.
    const error = (answers[1] as PromiseRejectedResult).reason as PermanentError;
    expect(error).toBeInstanceOf(PermanentError);
    expect(error.code).toBe('DATA_PERMANENT');
    expect(error.retryable).toBe(false);
    expect(error.message).toBe('the store refused the batch: poisoned row');
    expect([count("project = 'first'"), count("project = 'middle'"), count("project = 'last'")]).toEqual([300, 0, 300]);
    // The group was rolled back and each batch written again alone: two of those commits held.
    expect(stats).toEqual({ commits: 2, batches: 2 });
  });

  it('leaves nothing of a batch whose value of the wrong type comes part-way through it, and stores the rest of its group', async () => {
    // A STRICT table refuses a text severity number at the row itself: SQLite has inserted the rows
    // before it in the same statement, and only rolling the transaction back takes them away.
    const wrongType = logs('wrong', 300);
    const row = wrongType.rows[150];
    if (row === undefined) throw new Error('no row 150');
    (row as Building<LogRow>).severityNumber = 'nine' as unknown as number;
    const answers = await Promise.allSettled([writer.write(logs('before', 100)), writer.write(wrongType), writer.write(logs('after', 100))]);
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((answers[1] as PromiseRejectedResult).reason).toBeInstanceOf(PermanentError);
    expect([count("project = 'before'"), count("project = 'wrong'"), count("project = 'after'")]).toEqual([100, 0, 100]);
    expect(db.isTransaction).toBe(false);
    await writer.write(logs('next', 5));
    expect(count()).toBe(205);
  });

  it('fails every batch of a group the database refuses, and writes again once it can, without reopening', async () => {
    db.exec('PRAGMA query_only = ON');
    const refused = await Promise.allSettled([writer.write(logs('a', 10)), writer.write(logs('b', 10))]);
    expect(refused.map((a) => a.status)).toEqual(['rejected', 'rejected']);
    expect(refused.every((a) => a.status === 'rejected' && a.reason instanceof StorageError && a.reason.retryable)).toBe(true);
    expect(db.isTransaction).toBe(false);
    expect(count()).toBe(0);

    db.exec('PRAGMA query_only = OFF');
    await writer.write(logs('a', 10));
    expect(count()).toBe(10);
  });

  it('waits for a lock another process holds once per group, not once per batch', async () => {
    const other = new DatabaseSync(db.location() as string, { timeout: 0 });
    other.exec('BEGIN IMMEDIATE');
    // Each BEGIN IMMEDIATE waits busy_timeout for the lock: counting them counts the waits, on any machine.
    const exec = vi.spyOn(db, 'exec');
    try {
      const answers = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => writer.write(logs(`p${i}`, 1))));
      expect(answers.every((a) => a.status === 'rejected' && a.reason instanceof StorageError && a.reason.retryable)).toBe(true);
      expect(exec.mock.calls.filter(([sql]) => sql === 'BEGIN IMMEDIATE')).toHaveLength(1);
    } finally {
      exec.mockRestore();
      other.exec('ROLLBACK');
      other.close();
    }
    await writer.write(logs('after', 1));
    expect(count()).toBe(1);
  });

  it('writes what is pending when closed, then refuses with ShuttingDownError', async () => {
    const pending = writer.write(logs('a', 5));
    writer.close();
    await pending;
    expect(count()).toBe(5);
    await expect(writer.write(logs('a', 1))).rejects.toBeInstanceOf(ShuttingDownError);
  });

  it('holds its commits while held (the checkpointer empties the WAL meanwhile), takes batches all the same, and commits them once released', async () => {
    writer.hold();
    const answered: string[] = [];
    const first = writer.write(logs('a', 10)).then(() => answered.push('a'));
    const second = writer.write(logs('b', 10)).then(() => answered.push('b'));
    // A turn of the event loop: the flush it scheduled has run, and committed nothing.
    await new Promise((resolve) => setImmediate(resolve));
    const third = writer.write(logs('c', 10)).then(() => answered.push('c'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stats).toEqual({ commits: 0, batches: 0 });
    expect(answered).toEqual([]);
    expect(count()).toBe(0);

    writer.release();
    await Promise.all([first, second, third]);
    expect(stats).toEqual({ commits: 1, batches: 3 });
    expect(answered).toEqual(['a', 'b', 'c']);
    expect(count()).toBe(30);
  });

  it('writes what is pending when closed even while held', async () => {
    writer.hold();
    const pending = writer.write(logs('a', 5));
    writer.close();
    await pending;
    expect(count()).toBe(5);
    expect(stats).toEqual({ commits: 1, batches: 1 });
  });
});
