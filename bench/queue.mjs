// The disk queue alone (npm run build first; node bench/queue.mjs [--quick]): appends of 10 KB
// entries with fsync off and on, one at a time and 64 at once (group commit); take+ack with 1 and
// 10 consumers; and the memory a queue of 1 M small entries takes, as it grows and reopened.
// Medians of three runs; memory is measured in a process of its own.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DiskQueue } from '../dist/queue/disk-queue.js';

const QUICK = process.argv.includes('--quick');
const RUNS = QUICK ? 1 : 3;
const ENTRY = 10 * 1024;
const payload = Buffer.alloc(ENTRY, 7);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function appends(fsync, concurrency, seconds) {
  const dir = mkdtempSync(join(tmpdir(), 'otelgate-bench-queue-'));
  const queue = await DiskQueue.open({ directory: dir, fsync, capacity: 10_000_000 });
  let count = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        await queue.append({ payload, metadata: { signal: 'logs', project: 'p' }, items: 100 });
        count++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  await queue.close();
  rmSync(dir, { recursive: true, force: true });
  return count / elapsed;
}

async function takeAck(consumers, entries) {
  const dir = mkdtempSync(join(tmpdir(), 'otelgate-bench-queue-'));
  const queue = await DiskQueue.open({ directory: dir, capacity: 10_000_000 });
  await Promise.all(Array.from({ length: 64 }, async (_, c) => {
    for (let i = c; i < entries; i += 64) await queue.append({ payload, metadata: { signal: 'logs', project: 'p' }, items: 100 });
  }));
  const started = performance.now();
  let left = entries;
  await Promise.all(
    Array.from({ length: consumers }, async () => {
      while (left > 0) {
        left--;
        const taken = await queue.take();
        await queue.ack(taken.id);
      }
    }),
  );
  const rate = entries / ((performance.now() - started) / 1000);
  await queue.close();
  rmSync(dir, { recursive: true, force: true });
  return rate;
}

/**
 * In a process of its own: 64 appenders queue `count` small entries (a backend that is down),
 * RSS sampled as the queue grows; then the queue is reopened (all of it read and checked) and
 * 1,000 entries are taken.
 */
async function memoryChild(count) {
  const dir = mkdtempSync(join(tmpdir(), 'otelgate-bench-queue-'));
  const mb = (bytes) => Math.round(bytes / 1048576);
  const small = Buffer.alloc(100, 1);
  const samples = [];
  const marks = [count / 10, count / 2, count];
  let queue = await DiskQueue.open({ directory: dir, capacity: 10_000_000 });
  let n = 0;
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (n < count) {
        n++;
        await queue.append({ payload: small, metadata: { signal: 'logs', project: 'p' }, items: 1 });
        if (marks.length > 0 && queue.stats().requests >= marks[0]) samples.push(`${marks.shift().toLocaleString('en')}: ${mb(process.memoryUsage.rss())} MB`);
      }
    }),
  );
  globalThis.gc?.();
  const heapWritten = mb(process.memoryUsage().heapUsed);
  const diskMb = mb(queue.stats().diskBytes);
  await queue.close();
  const opening = performance.now();
  queue = await DiskQueue.open({ directory: dir, capacity: 10_000_000 });
  const openMs = Math.round(performance.now() - opening);
  for (let i = 0; i < 1000; i++) await queue.take();
  globalThis.gc?.();
  const reopened = { rss: mb(process.memoryUsage.rss()), heap: mb(process.memoryUsage().heapUsed), segments: queue.stats().segments, requests: queue.stats().requests };
  await queue.close();
  rmSync(dir, { recursive: true, force: true });
  process.stdout.write(JSON.stringify({ count, samples, heapWritten, diskMb, openMs, reopened }));
}

if (process.argv[2] === 'memory') {
  await memoryChild(Number(process.argv[3]));
} else {
  const seconds = QUICK ? 1 : 3;
  const rows = [];
  for (const fsync of [false, true]) {
    for (const concurrency of [1, 64]) {
      const rates = [];
      for (let r = 0; r < RUNS; r++) rates.push(await appends(fsync, concurrency, seconds));
      const rate = median(rates);
      rows.push(`appends, 10 KB, fsync ${fsync ? 'on ' : 'off'}, ${String(concurrency).padStart(2)} at once: ${Math.round(rate).toLocaleString('en')}/s, ${((rate * ENTRY) / 1048576).toFixed(1)} MB/s`);
    }
  }
  for (const consumers of [1, 10]) {
    const rates = [];
    for (let r = 0; r < RUNS; r++) rates.push(await takeAck(consumers, QUICK ? 5000 : 20000));
    rows.push(`take+ack, 10 KB, fsync off, ${String(consumers).padStart(2)} consumers: ${Math.round(median(rates)).toLocaleString('en')}/s`);
  }
  const count = QUICK ? 100_000 : 1_000_000;
  const child = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), 'memory', String(count)], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(child.stderr);
  const m = JSON.parse(child.stdout);
  rows.push(
    `${m.count.toLocaleString('en')} entries of 100 bytes queued by 64 appenders (${m.diskMb} MB on disk): RSS ${m.samples.join(', ')}; V8 heap in use ${m.heapWritten} MB. ` +
      `Reopened (${m.reopened.segments} segments read and checked in ${m.openMs} ms) with 1,000 taken: RSS ${m.reopened.rss} MB, heap in use ${m.reopened.heap} MB`,
  );
  for (const row of rows) console.log(row);
}
