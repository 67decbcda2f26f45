import { describe, expect, it } from 'vitest';
import { bucketQuantile, histogramCounts, histogramMeans, histogramQuantiles, rates, unitLabel, values, type HistogramPoint } from '../../../ui/src/lib/series.js';

const S = 1_800_000_000; // seconds
const ns = (s: number): string => String(BigInt(S + s) * 1_000_000_000n);
const point = (t: number, value: number | string, start = 0) => ({ time_unix_nano: ns(t), start_time_unix_nano: ns(start), value });

describe('values and rates', () => {
  it('draws gauge values as they are, NaN and infinities as gaps', () => {
    expect(values([point(10, 1.5), point(20, 'NaN'), point(30, '12345678901234567890')])).toEqual({
      times: [S + 10, S + 20, S + 30],
      values: [1.5, null, 12345678901234567000],
    });
  });

  it('turns a cumulative counter into per-second rates, counting a reset from zero at its new start', () => {
    const line = rates([point(10, 100), point(20, 150), point(30, 150), point(40, 20, 35), point(50, 40, 35)]);
    expect(line).toEqual({ times: [S + 20, S + 30, S + 40, S + 50], values: [5, 0, 4, 2] });
  });

  it('treats a counter that fell without a new start as a reset', () => {
    expect(rates([point(10, 100), point(20, 30)]).values).toEqual([3]);
  });
});

const hist = (t: number, count: number, sum: number, buckets: number[], start = 0): HistogramPoint => ({
  time_unix_nano: ns(t),
  start_time_unix_nano: ns(start),
  count,
  sum,
  bucket_counts: buckets,
  explicit_bounds: [10, 100, 1000],
});

describe('histograms', () => {
  it('estimates quantiles as histogram_quantile: linear in the bucket, 0 below a positive first bound, the top bound in +Inf', () => {
    expect(bucketQuantile(0.5, [10, 0, 0, 0], [10, 100, 1000])).toBe(5);
    expect(bucketQuantile(0.5, [0, 10, 0, 0], [10, 100, 1000])).toBe(55);
    expect(bucketQuantile(0.9, [5, 4, 0, 1], [10, 100, 1000])).toBe(100);
    expect(bucketQuantile(0.95, [5, 4, 0, 1], [10, 100, 1000])).toBe(1000);
    expect(bucketQuantile(0.75, [2, 2, 0, 0], [10, 100, 1000])).toBe(55);
    expect(bucketQuantile(0.5, [0, 0, 0, 0], [10, 100, 1000])).toBeNull();
    expect(bucketQuantile(0.5, [1, 1], [10, 100])).toBeNull();
  });

  it('takes each cumulative interval as the difference from the point before, and a delta point as itself', () => {
    const cumulative = [hist(10, 4, 40, [4, 0, 0, 0]), hist(20, 14, 540, [4, 10, 0, 0]), hist(30, 2, 1000, [0, 0, 2, 0], 25)];
    expect(histogramCounts(cumulative, true)).toEqual({ times: [S + 20, S + 30], values: [10, 2] });
    expect(histogramMeans(cumulative, true).values).toEqual([50, 500]);
    expect(histogramQuantiles(cumulative, true, 0.5).values).toEqual([55, 550]);
    expect(histogramCounts(cumulative, false).values).toEqual([4, 14, 2]);
    expect(histogramMeans([hist(10, 0, 0, [0, 0, 0, 0])], false).values).toEqual([null]);
  });
});

describe('unitLabel', () => {
  it('shows UCUM units as an axis would', () => {
    expect([unitLabel('ms'), unitLabel('By'), unitLabel('1'), unitLabel(''), unitLabel('{request}'), unitLabel('m/s')]).toEqual(['ms', 'bytes', '', '', 'request', 'm/s']);
  });
});
