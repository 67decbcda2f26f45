// The sending queue's contract, held to by both queues, on disk and in memory: order, nack, ack,
// take waiting and ending, capacity by sizer, block_on_overflow.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { QueueFullError, ShuttingDownError } from '../../src/errors.js';
import { DiskQueue } from '../../src/queue/disk-queue.js';
import { MemoryQueue } from '../../src/queue/memory-queue.js';
import type { QueueSizer, SendingQueue, TakenEntry } from '../../src/queue/types.js';

const ROOT = mkdtempSync(join(tmpdir(), 'otelgate-queue-contract-'));
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

interface Meta {
  n: number;
  project: string;
}

interface Limits {
  sizer?: QueueSizer;
  capacity?: number;
  blockOnOverflow?: boolean;
}

let dirs = 0;
const QUEUES: [string, (limits?: Limits) => Promise<SendingQueue<Meta>>][] = [
  ['disk', (limits = {}) => DiskQueue.open<Meta>({ directory: join(ROOT, `q${++dirs}`), ...limits })],
  ['memory', async (limits = {}) => new MemoryQueue<Meta>(limits)],
];

const entry = (n: number, bytes = 10, items = 1) => ({ payload: Buffer.alloc(bytes, n % 256), metadata: { n, project: `p${n % 2}` }, items });

async function takeN(queue: SendingQueue<Meta>, count: number): Promise<TakenEntry<Meta>[]> {
  const out: TakenEntry<Meta>[] = [];
  for (let i = 0; i < count; i++) out.push((await queue.take()) as TakenEntry<Meta>);
  return out;
}

const ns = (taken: (TakenEntry<Meta> | undefined)[]): (number | undefined)[] => taken.map((t) => t?.metadata.n);

describe.each(QUEUES)('the %s queue', (_name, make) => {
  it('hands out entries oldest first with payload, metadata and items as given; nack puts one back first; ack removes it for good', async () => {
    const queue = await make();
    const ids = await Promise.all([1, 2, 3, 4].map((n) => queue.append(entry(n, 5 + n, n * 10))));
    expect(ids).toEqual([1, 2, 3, 4]);
    const [a, b, c] = await takeN(queue, 3);
    expect(a).toEqual({ id: 1, payload: Buffer.alloc(6, 1), metadata: { n: 1, project: 'p1' }, items: 10 });
    expect(ns([b, c])).toEqual([2, 3]);
    queue.nack(3);
    queue.nack(2);
    await queue.ack(1);
    expect(queue.stats()).toMatchObject({ requests: 3, items: 90, bytes: 24, inFlight: 0 });
    expect(ns(await takeN(queue, 3))).toEqual([2, 3, 4]);
    expect(queue.stats()).toMatchObject({ requests: 3, items: 90, bytes: 24, inFlight: 3 });
    await expect(queue.ack(1)).rejects.toThrow('queue entry 1 is not taken');
    expect(() => queue.nack(99)).toThrow('queue entry 99 is not taken');
    await queue.close();
  });

  it('take waits while the queue is empty, and resolves undefined once its signal aborts or the queue closes', async () => {
    const queue = await make();
    const waiting = queue.take();
    await new Promise((resolve) => setImmediate(resolve));
    await queue.append(entry(7));
    expect(ns([await waiting])).toEqual([7]);
    const controller = new AbortController();
    const aborted = queue.take(controller.signal);
    controller.abort();
    expect(await aborted).toBeUndefined();
    expect(await queue.take(controller.signal)).toBeUndefined();
    const closing = queue.take();
    await queue.close();
    expect(await closing).toBeUndefined();
    expect(await queue.take()).toBeUndefined();
    await expect(queue.append(entry(8))).rejects.toBeInstanceOf(ShuttingDownError);
  });

  it('counts by requests, items or bytes, refuses what does not fit with QueueFullError (retryable), and frees room on ack, not on take', async () => {
    const cases = [
      { sizer: 'requests', capacity: 3, sizes: [entry(1), entry(2), entry(3)], over: entry(4), size: 3 },
      { sizer: 'items', capacity: 10, sizes: [entry(1, 1, 4), entry(2, 1, 6)], over: entry(3, 1, 1), size: 10 },
      { sizer: 'bytes', capacity: 100, sizes: [entry(1, 60), entry(2, 40)], over: entry(3, 1), size: 100 },
    ] as const;
    for (const c of cases) {
      const queue = await make({ sizer: c.sizer, capacity: c.capacity });
      for (const e of c.sizes) await queue.append(e);
      const refusal = await queue.append(c.over).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(QueueFullError);
      expect(refusal).toMatchObject({ code: 'QUEUE_FULL', retryable: true, message: `the sending queue is full (queue_size ${c.capacity} ${c.sizer}); nothing queued is dropped to make room` });
      expect(queue.stats()).toMatchObject({ sizer: c.sizer, capacity: c.capacity, size: c.size });
      const [taken] = await takeN(queue, 1);
      await expect(queue.append(c.over)).rejects.toBeInstanceOf(QueueFullError);
      await queue.ack((taken as TakenEntry<Meta>).id);
      await queue.append(c.over);
      await queue.close();
    }
  });

  it('with block_on_overflow waits for room in arrival order; an abort refuses with QueueFullError, close with ShuttingDownError; an entry larger than the queue is refused at once', async () => {
    const queue = await make({ sizer: 'items', capacity: 10, blockOnOverflow: true });
    await queue.append(entry(1, 1, 6));
    await queue.append(entry(2, 1, 4));
    const order: number[] = [];
    const third = queue.append(entry(3, 1, 5)).then(() => order.push(3));
    const fourth = queue.append(entry(4, 1, 1)).then(() => order.push(4));
    const controller = new AbortController();
    const fifth = queue.append(entry(5, 1, 1), { signal: controller.signal });
    await expect(queue.append(entry(6, 1, 11))).rejects.toBeInstanceOf(QueueFullError);
    controller.abort();
    await expect(fifth).rejects.toBeInstanceOf(QueueFullError);
    const [first] = await takeN(queue, 1);
    await queue.ack((first as TakenEntry<Meta>).id);
    await Promise.all([third, fourth]);
    // The 1-item entry fitted earlier, but waited its turn behind the 5-item one.
    expect(order).toEqual([3, 4]);
    expect(queue.stats().size).toBe(10);
    const waiting = queue.append(entry(7, 1, 1)).catch((error: unknown) => error);
    await queue.close();
    expect(await waiting).toBeInstanceOf(ShuttingDownError);
  });
});
