import { describe, expect, it } from 'vitest';
import { axisTicks, rootOf, waterfall, type WaterfallSpan } from '../../../ui/src/lib/waterfall.js';

const T = 1_800_000_000_000_000_000n;
const span = (span_id: string, parent_span_id: string, startMs: number, endMs: number): WaterfallSpan & { name: string } => ({
  span_id,
  parent_span_id,
  name: span_id,
  start_time_unix_nano: String(T + BigInt(startMs) * 1_000_000n),
  end_time_unix_nano: String(T + BigInt(endMs) * 1_000_000n),
});

const shape = (spans: WaterfallSpan[]) => waterfall(spans).rows.map((r) => [r.span.span_id, r.depth, r.offset, r.width]);

describe('waterfall', () => {
  it('nests children under their parents, siblings by start, with offsets and widths of the whole trace', () => {
    const spans = [span('c2', 'b', 60, 90), span('b', 'a', 10, 100), span('a', '', 0, 200), span('c1', 'b', 20, 50), span('d', 'a', 120, 200)];
    expect(shape(spans)).toEqual([
      ['a', 0, 0, 1],
      ['b', 1, 0.05, 0.45],
      ['c1', 2, 0.1, 0.15],
      ['c2', 2, 0.3, 0.15],
      ['d', 1, 0.6, 0.4],
    ]);
    const w = waterfall(spans);
    expect(w.startNano).toBe(T);
    expect(w.durationNano).toBe(200_000_000n);
  });

  it('shows a span whose parent has not arrived as a root, after earlier roots', () => {
    expect(shape([span('x', 'missing', 50, 60), span('a', '', 0, 100), span('y', 'x', 55, 58)])).toEqual([
      ['a', 0, 0, 1],
      ['x', 0, 0.5, 0.1],
      ['y', 1, 0.55, 0.03],
    ]);
  });

  it('keeps every span of a cycle of parents once, and a span that ends before it starts has no width', () => {
    const rows = waterfall([span('p', 'q', 0, 10), span('q', 'p', 5, 4), span('r', 'r', 2, 3)]).rows;
    expect(rows.map((r) => [r.span.span_id, r.depth, r.width])).toEqual([
      ['r', 0, 0.1],
      ['p', 0, 1],
      ['q', 1, 0],
    ]);
  });

  it('orders by nanoseconds beyond a double, and an empty trace is empty', () => {
    const a = { span_id: 'a', parent_span_id: '', start_time_unix_nano: '1800000000000000002', end_time_unix_nano: '1800000000000000010' };
    const b = { span_id: 'b', parent_span_id: '', start_time_unix_nano: '1800000000000000001', end_time_unix_nano: '1800000000000000003' };
    expect(waterfall([a, b]).rows.map((r) => r.span.span_id)).toEqual(['b', 'a']);
    expect(waterfall([a, b]).durationNano).toBe(9n);
    expect(waterfall([])).toEqual({ rows: [], startNano: 0n, durationNano: 0n });
  });

  it('marks the time axis at a round step, at most five steps, from 0 up to the duration', () => {
    const ticks = (ns: bigint) => axisTicks(ns).map((t) => [t.atNano, t.fraction]);
    expect(ticks(400_000_000n)).toEqual([0n, 1n, 2n, 3n, 4n].map((i) => [i * 100_000_000n, Number(i) / 4]));
    expect(ticks(5_000_000n)).toEqual([0n, 1n, 2n, 3n, 4n, 5n].map((i) => [i * 1_000_000n, Number(i) / 5]));
    expect(ticks(7n)).toEqual([[0n, 0], [2n, 2 / 7], [4n, 4 / 7], [6n, 6 / 7]]);
    expect(ticks(1_000_000_001n)).toEqual([
      [0n, 0],
      [500_000_000n, 500_000_000 / 1_000_000_001],
      [1_000_000_000n, 1_000_000_000 / 1_000_000_001],
    ]);
    expect(ticks(0n)).toEqual([[0n, 0]]);
    expect(axisTicks(90n, 3).map((t) => t.atNano)).toEqual([0n, 50n]);
  });
});

describe('rootOf', () => {
  it('names a trace as trace_summaries does: a span without a parent before an earlier one whose parent has not arrived', () => {
    // Newest first, as /spans answers.
    const spans = [span('b', 'a', 30, 40), span('root', '', 20, 100), span('orphan', 'missing', 10, 50)];
    expect(rootOf(spans)?.span_id).toBe('root');
    expect(waterfall(spans).rows[0]?.span.span_id).toBe('orphan');
  });

  it('takes the earliest of several without a parent, of equal starts the one stored first; with none, the earliest span', () => {
    expect(rootOf([span('late', '', 30, 40), span('early', '', 10, 50), span('child', 'early', 5, 8)])?.span_id).toBe('early');
    // Of equal starts the last stored comes first in the answer: the first stored is the last.
    expect(rootOf([span('stored-second', '', 10, 40), span('stored-first', '', 10, 50)])?.span_id).toBe('stored-first');
    expect(rootOf([span('x', 'p', 30, 40), span('y', 'q', 10, 50), span('z', 'y', 20, 30)])?.span_id).toBe('y');
    expect(rootOf([])).toBeUndefined();
  });
});
