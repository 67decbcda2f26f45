// Batching after the queue: per partition, by min_size, max_size and flush_timeout, on a clock the
// test controls; an entry is never split, and partitions never share a batch.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Batcher } from '../../../src/exporters/helper/batcher.js';

interface Entry {
  name: string;
  items: number;
  payload: Uint8Array;
}

let flushed: string[][];
const batcher = (minSize: number, maxSize: number, maxBytes = 1_000_000, maxOpen = 100) =>
  new Batcher<Entry>({ flushTimeoutMs: 200, sizer: 'items', minSize, maxSize, maxBytes, maxOpen }, (entries) => flushed.push(entries.map((e) => e.name)));
const entry = (name: string, items: number, bytes = 10): Entry => ({ name, items, payload: new Uint8Array(bytes) });

beforeEach(() => {
  flushed = [];
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

describe('Batcher', () => {
  it('sends a batch once it holds min_size items', () => {
    const b = batcher(10, 0);
    b.add('p', entry('a', 4));
    b.add('p', entry('b', 5));
    expect(flushed).toEqual([]);
    b.add('p', entry('c', 1));
    expect(flushed).toEqual([['a', 'b', 'c']]);
    expect(b.held).toBe(0);
  });

  it('sends a partial batch flush_timeout after its first entry, and not before', () => {
    const b = batcher(10, 0);
    b.add('p', entry('a', 1));
    vi.advanceTimersByTime(150);
    b.add('p', entry('b', 1));
    vi.advanceTimersByTime(49);
    expect(flushed).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(flushed).toEqual([['a', 'b']]);
  });

  it('keeps partitions apart: a batch never mixes two', () => {
    const b = batcher(3, 0);
    b.add('shop', entry('s1', 2));
    b.add('blog', entry('b1', 2));
    b.add('shop', entry('s2', 1));
    expect(flushed).toEqual([['s1', 's2']]);
    expect(b.held).toBe(1);
    vi.advanceTimersByTime(200);
    expect(flushed).toEqual([['s1', 's2'], ['b1']]);
  });

  it('starts a new batch where the next entry would pass max_size, and sends an entry larger than max_size alone, whole', () => {
    const b = batcher(100, 10);
    b.add('p', entry('a', 6));
    b.add('p', entry('b', 6));
    expect(flushed).toEqual([['a']]);
    b.add('p', entry('huge', 25));
    expect(flushed).toEqual([['a'], ['b'], ['huge']]);
    b.add('p', entry('c', 10));
    expect(flushed).toEqual([['a'], ['b'], ['huge'], ['c']]);
  });

  it('hands back what it holds at shutdown, batch by batch, and its timers no longer fire', () => {
    const b = batcher(100, 0);
    b.add('shop', entry('s1', 1));
    b.add('blog', entry('b1', 1));
    b.add('shop', entry('s2', 1));
    expect(b.drain().map((entries) => entries.map((e) => e.name))).toEqual([['s1', 's2'], ['b1']]);
    vi.advanceTimersByTime(1000);
    expect(flushed).toEqual([]);
    expect(b.held).toBe(0);
  });

  it('starts a new batch where the next entry would pass the byte limit, whatever the items say', () => {
    const b = batcher(1000, 0, 100);
    b.add('p', entry('a', 1, 60));
    b.add('p', entry('b', 1, 40));
    expect(flushed).toEqual([]);
    b.add('p', entry('c', 1, 1));
    expect(flushed).toEqual([['a', 'b']]);
  });

  it('sends the oldest open batch when a partition past maxOpen arrives', () => {
    const b = batcher(1000, 0, 1_000_000, 2);
    b.add('one', entry('1a', 1));
    b.add('two', entry('2a', 1));
    b.add('one', entry('1b', 1));
    expect(flushed).toEqual([]);
    b.add('three', entry('3a', 1));
    expect(flushed).toEqual([['1a', '1b']]);
    expect(b.held).toBe(2);
  });

  it('counts bytes instead of items with sizer bytes', () => {
    const b = new Batcher<Entry>({ flushTimeoutMs: 200, sizer: 'bytes', minSize: 100, maxSize: 150, maxBytes: 1_000_000, maxOpen: 10 }, (entries) => flushed.push(entries.map((e) => e.name)));
    b.add('p', entry('a', 1000, 60));
    expect(flushed).toEqual([]);
    b.add('p', entry('b', 1, 40));
    expect(flushed).toEqual([['a', 'b']]);
    b.add('p', entry('c', 1, 90));
    b.add('p', entry('d', 1, 90));
    expect(flushed).toEqual([['a', 'b'], ['c']]);
  });
});
