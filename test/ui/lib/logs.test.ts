// The logs view's pure helpers: the histogram's buckets from log_counts, the virtualised table's
// window, and live mode's merge.
import { describe, expect, it } from 'vitest';
import { histogramOf } from '../../../ui/src/lib/histogram.js';
import { LIVE_OVERLAP_NS, mergeLive, nextWindow, rowTime, type LiveRows, type TimeWindow } from '../../../ui/src/lib/logs.js';
import { scrollToRow, visibleRows } from '../../../ui/src/lib/virtual.js';

const ZERO = { unspecified: 0, trace: 0, debug: 0, info: 0, warn: 0, error: 0, fatal: 0 };

describe('histogram', () => {
  it('makes every bucket of the range, the empty ones too, and sums each band', () => {
    const histogram = histogramOf({
      step_nano: '10',
      from: '1000',
      to: '1035',
      rows: [
        { time_unix_nano: '1000', severity: 'info', count: 2 },
        { time_unix_nano: '1000', severity: 'error', count: 1 },
        { time_unix_nano: '1030', severity: 'info', count: 5 },
      ],
    });
    expect(histogram.buckets.map((bucket) => [bucket.start, bucket.total])).toEqual([
      [1000n, 3],
      [1010n, 0],
      [1020n, 0],
      [1030n, 5],
    ]);
    expect(histogram.buckets[0]?.counts).toEqual({ ...ZERO, info: 2, error: 1 });
    expect(histogram.totals).toEqual({ ...ZERO, info: 7, error: 1 });
    expect([histogram.total, histogram.max, histogram.step, histogram.from, histogram.to]).toEqual([8, 5, 10n, 1000n, 1035n]);
  });

  it('leaves out a count outside the range, and has no buckets for an empty range', () => {
    const outside = histogramOf({
      step_nano: '10',
      from: '1000',
      to: '1020',
      rows: [
        { time_unix_nano: '990', severity: 'warn', count: 1 },
        { time_unix_nano: '1020', severity: 'warn', count: 1 },
        { time_unix_nano: '1019', severity: 'fatal', count: 4 },
      ],
    });
    expect([outside.buckets.length, outside.total, outside.totals.fatal, outside.buckets[1]?.counts.fatal]).toEqual([2, 4, 4, 4]);
    expect(histogramOf({ step_nano: '10', from: '5', to: '5', rows: [] }).buckets).toEqual([]);
  });
});

describe('virtual', () => {
  it('renders the rows in view and the overscan, within the list', () => {
    expect(visibleRows(0, 320, 32, 10_000, 10)).toEqual({ start: 0, end: 20 });
    expect(visibleRows(3200, 320, 32, 10_000, 10)).toEqual({ start: 90, end: 120 });
    // Scrolled half a row: the partly shown rows count.
    expect(visibleRows(16, 320, 32, 10_000, 0)).toEqual({ start: 0, end: 11 });
    expect(visibleRows(319_680, 320, 32, 10_000, 10)).toEqual({ start: 9_980, end: 10_000 });
    expect(visibleRows(0, 320, 32, 0, 10)).toEqual({ start: 0, end: 0 });
  });

  it('scrolls as little as brings a row into view', () => {
    expect(scrollToRow(5, 0, 320, 32)).toBe(0);
    expect(scrollToRow(10, 0, 320, 32)).toBe(32);
    expect(scrollToRow(2, 320, 320, 32)).toBe(64);
    expect(scrollToRow(0, 0, 10, 32)).toBe(0);
  });
});

describe('logs', () => {
  const row = (time: string, observed = '0', body = time) => ({ time_unix_nano: time, observed_time_unix_nano: observed, body });

  it('orders a log by its time, else its observed time', () => {
    expect([rowTime(row('7', '9')), rowTime(row('0', '9')), rowTime(row('0', '0'))]).toEqual([7n, 9n, undefined]);
  });

  it('puts new rows where their time puts them, shown rows read again once, drops those the range left behind, and keeps the limit', () => {
    const shown = [row('50'), row('0'), row('30'), row('10')];
    const live = (rows: typeof shown) => ({ rows, to: 55n, missed: false });
    const merged = (answer: typeof shown, rangeFrom: bigint, limit: number) => mergeLive(live(shown), { from: 0n, to: 80n }, { rows: answer }, rangeFrom, limit).rows.map((r) => r.body);
    expect(merged([row('70'), row('60')], 20n, 10)).toEqual(['70', '60', '50', '0', '30']);
    expect(merged([row('70'), row('60')], 0n, 3)).toEqual(['70', '60', '50']);
    // 40 arrived late; 50 and 30 are shown already; a row without a time goes with the row before it in the answer, before a shown row of that time.
    expect(merged([row('70'), row('50'), row('0', '0', 'untimed'), row('40'), row('30')], 0n, 10)).toEqual(['70', 'untimed', '50', '0', '40', '30', '10']);
    // Two identical rows, one of them shown: the other is new.
    expect(merged([row('50'), row('50')], 0n, 10)).toEqual(['50', '50', '0', '30', '10']);
  });
});

describe('live mode', () => {
  type Row = { time_unix_nano: string; observed_time_unix_nano: string; body: string };
  const T = 1_800_000_000_000_000_000n;
  /** `ms` milliseconds after T. */
  const at = (ms: number): bigint => T + BigInt(ms) * 1_000_000n;
  /** A store as the read API reads it: the rows stored by the read, time in [from, to), newest first (of equal times the last stored first), at most `limit`. */
  class Store {
    private stored: Row[] = [];
    send(time: bigint, body: string): void {
      this.stored.push({ time_unix_nano: String(time), observed_time_unix_nano: String(time), body });
    }
    read(window: TimeWindow, limit: number): { rows: Row[] } {
      const rows = this.stored.filter((row) => BigInt(row.time_unix_nano) >= window.from && BigInt(row.time_unix_nano) < window.to);
      return { rows: rows.reverse().sort((a, b) => Number(BigInt(b.time_unix_nano) - BigInt(a.time_unix_nano))).slice(0, limit) };
    }
  }
  const RANGE = 3_600_000_000_000n;
  /** The view's first read (its range up to `now`), then a live read at each of `polls`, the store's sends made before each: what is shown after each. */
  function run(store: Store, now: bigint, limit: number, polls: { at: bigint; before?: () => void }[]): LiveRows<Row>[] {
    let live: LiveRows<Row> = { rows: store.read({ from: now - RANGE, to: now }, limit).rows, to: now, missed: false };
    const states = [live];
    for (const poll of polls) {
      poll.before?.();
      const window = nextWindow(live.to, poll.at - RANGE, poll.at);
      if (window !== undefined) live = mergeLive(live, window, store.read(window, limit), poll.at - RANGE, limit);
      states.push(live);
    }
    return states;
  }
  const bodies = (live: LiveRows<Row>): string[] => live.rows.map((row) => row.body);

  it('reads from a little before the end of the read before up to now, not before the range, and nothing while now is not past that end', () => {
    expect(nextWindow(at(50_000), at(0), at(52_000))).toEqual({ from: at(50_000) - LIVE_OVERLAP_NS, to: at(52_000) });
    expect(nextWindow(at(5_000), at(0), at(7_000))).toEqual({ from: at(0), to: at(7_000) });
    expect(nextWindow(at(5_000), at(0), at(5_000))).toBeUndefined();
    expect(nextWindow(at(5_000), at(0), at(4_000))).toBeUndefined();
  });

  it('is not held back by a row timestamped ahead of the clock: later rows come in, and it does once its time has come', () => {
    const store = new Store();
    store.send(at(0), 'before');
    const states = run(store, at(10), 100, [
      { at: at(2_010), before: () => store.send(at(1_800_000), 'ahead') },
      { at: at(4_010), before: () => store.send(at(4_000), 'now') },
      { at: at(6_010), before: () => store.send(at(6_000), 'later') },
      { at: at(1_800_001) },
    ]);
    expect(states.map(bodies)).toEqual([['before'], ['before'], ['now', 'before'], ['later', 'now', 'before'], ['ahead', 'later', 'now', 'before']]);
    expect(states.map((live) => live.to)).toEqual([at(10), at(2_010), at(4_010), at(6_010), at(1_800_001)]);
  });

  it('shows every row of one time, those stored after a read too, and one that arrives a few seconds after its time, each once', () => {
    const store = new Store();
    store.send(at(5_000), 'first at 5 s');
    const live = run(store, at(5_000), 100, [
      { at: at(5_000), before: () => store.send(at(5_000), 'second at 5 s') },
      { at: at(7_000), before: () => store.send(at(5_000), 'third at 5 s') },
      { at: at(9_000), before: () => store.send(at(5_000), 'fourth at 5 s') },
      { at: at(11_000), before: () => store.send(at(8_000), 'at 8 s, late') },
      { at: at(13_000) },
    ]).at(-1)!;
    expect(bodies(live)).toEqual(['at 8 s, late', 'fourth at 5 s', 'third at 5 s', 'second at 5 s', 'first at 5 s']);
    expect(live.missed).toBe(false);
  });

  it('says when a full answer did not reach back to the end of the read before: rows between were not read', () => {
    const store = new Store();
    store.send(at(0), 'before');
    const fill = (from: number, to: number) => () => {
      for (let ms = from; ms < to; ms++) store.send(at(ms), `at ${ms}`);
    };
    // Full, but reaching back past the read before's end: nothing in between was left out.
    const overlapping = run(store, at(10), 3, [{ at: at(2_000), before: fill(8, 12) }]).at(-1)!;
    expect([bodies(overlapping), overlapping.missed]).toEqual([['at 11', 'at 10', 'at 9'], false]);
    const full = run(store, at(2_000), 3, [{ at: at(4_000), before: fill(2_001, 2_005) }, { at: at(6_000) }]).at(-1)!;
    expect(bodies(full)).toEqual(['at 2004', 'at 2003', 'at 2002']);
    expect(full.missed).toBe(true);
    const cut = mergeLive({ rows: [], to: 10n, missed: false }, { from: 10n, to: 20n }, { rows: [], truncated: true }, 0n, 3);
    expect([cut.missed, cut.to]).toEqual([true, 20n]);
  });
});
