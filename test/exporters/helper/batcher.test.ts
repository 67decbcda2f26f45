// Batching after the queue: per partition, by min_size, max_size and flush_timeout, on a clock the
// test controls; an entry is never split, and partitions never share a batch.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Batcher } from '../../../src/exporters/helper/batcher.js';

interface Entry {
  name: string;
  items: number;
}

let flushed: string[][];
const batcher = (minSize: number, maxSize: number) => new Batcher<Entry>({ flushTimeoutMs: 200, minSize, maxSize }, (entries) => flushed.push(entries.map((e) => e.name)));

beforeEach(() => {
  flushed = [];
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

describe('Batcher', () => {
  it('sends a batch once it holds min_size items', () => {
    const b = batcher(10, 0);
    b.add('p', { name: 'a', items: 4 });
    b.add('p', { name: 'b', items: 5 });
    expect(flushed).toEqual([]);
    b.add('p', { name: 'c', items: 1 });
    expect(flushed).toEqual([['a', 'b', 'c']]);
    expect(b.held).toBe(0);
  });

  it('sends a partial batch flush_timeout after its first entry, and not before', () => {
    const b = batcher(10, 0);
    b.add('p', { name: 'a', items: 1 });
    vi.advanceTimersByTime(150);
    b.add('p', { name: 'b', items: 1 });
    vi.advanceTimersByTime(49);
    expect(flushed).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(flushed).toEqual([['a', 'b']]);
  });

  it('keeps partitions apart: a batch never mixes two', () => {
    const b = batcher(3, 0);
    b.add('shop', { name: 's1', items: 2 });
    b.add('blog', { name: 'b1', items: 2 });
    b.add('shop', { name: 's2', items: 1 });
    expect(flushed).toEqual([['s1', 's2']]);
    expect(b.held).toBe(1);
    vi.advanceTimersByTime(200);
    expect(flushed).toEqual([['s1', 's2'], ['b1']]);
  });

  it('starts a new batch where the next entry would pass max_size, and sends an entry larger than max_size alone, whole', () => {
    const b = batcher(100, 10);
    b.add('p', { name: 'a', items: 6 });
    b.add('p', { name: 'b', items: 6 });
    expect(flushed).toEqual([['a']]);
    b.add('p', { name: 'huge', items: 25 });
    expect(flushed).toEqual([['a'], ['b'], ['huge']]);
    b.add('p', { name: 'c', items: 10 });
    expect(flushed).toEqual([['a'], ['b'], ['huge'], ['c']]);
  });

  it('hands back what it holds at shutdown, batch by batch, and its timers no longer fire', () => {
    const b = batcher(100, 0);
    b.add('shop', { name: 's1', items: 1 });
    b.add('blog', { name: 'b1', items: 1 });
    b.add('shop', { name: 's2', items: 1 });
    expect(b.drain().map((entries) => entries.map((e) => e.name))).toEqual([['s1', 's2'], ['b1']]);
    vi.advanceTimersByTime(1000);
    expect(flushed).toEqual([]);
    expect(b.held).toBe(0);
  });
});
