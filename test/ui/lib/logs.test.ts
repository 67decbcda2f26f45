// The logs view's pure helpers: the histogram's buckets from log_counts, the virtualised table's
// window, and live mode's merge.
import { describe, expect, it } from 'vitest';
import { histogramOf } from '../../../ui/src/lib/histogram.js';
import { mergeNewer, nextFrom, rowTime } from '../../../ui/src/lib/logs.js';
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

  it('reads on from just after the newest row with a time, not before the range', () => {
    expect(nextFrom([row('0'), row('50'), row('40')], 10n)).toBe(51n);
    expect(nextFrom([row('50')], 100n)).toBe(100n);
    expect(nextFrom([], 100n)).toBe(100n);
  });

  it('puts newer rows on top, drops those the range left behind, and keeps the limit', () => {
    const shown = [row('50'), row('0'), row('30'), row('10')];
    expect(mergeNewer([row('70'), row('60')], shown, 20n, 10).map((r) => r.body)).toEqual(['70', '60', '50', '0', '30']);
    expect(mergeNewer([row('70'), row('60')], shown, 0n, 3).map((r) => r.body)).toEqual(['70', '60', '50']);
  });
});
