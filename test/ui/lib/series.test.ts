import { describe, expect, it } from 'vitest';
import { bucketQuantile, hasQuantile, histogramCounts, histogramMeans, histogramQuantiles, rates, summaryQuantiles, unitLabel, values, withoutBuckets, type HistogramPoint } from '../../../ui/src/lib/series.js';

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

  it('takes the elapsed time from the nanoseconds, not from epoch seconds as doubles, whose difference is off', () => {
    const at = (ms: number, value: number) => ({ time_unix_nano: String(BigInt(ms) * 1_000_000n), start_time_unix_nano: '0', value });
    const t0 = 1_764_000_123_457;
    expect(rates([at(t0, 5), at(t0 + 61_234, 7), at(t0 + 61_235, 12)]).values).toEqual([2 / 61.234, 5 / 0.001]);
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

  it('draws no interval at a cumulative point whose bounds changed without a new start, as at the first; after a reset with new bounds, the point itself', () => {
    const rebucketed = { ...hist(20, 14, 540, [4, 10, 0, 0]), explicit_bounds: [20, 200, 2000] };
    const cumulative = [hist(10, 4, 40, [4, 0, 0, 0]), rebucketed, { ...hist(30, 16, 740, [4, 11, 1, 0]), explicit_bounds: [20, 200, 2000] }];
    expect(histogramCounts(cumulative, true)).toEqual({ times: [S + 30], values: [2] });
    expect(histogramQuantiles(cumulative, true, 0.5).values).toEqual([200]);
    const reset = [hist(10, 4, 40, [4, 0, 0, 0]), { ...hist(20, 3, 30, [1, 2, 0, 0], 15), explicit_bounds: [20, 200, 2000] }];
    expect(histogramCounts(reset, true)).toEqual({ times: [S + 20], values: [3] });
    expect(histogramQuantiles(reset, true, 0.5).values).toEqual([65]);
    // Delta points are each their own interval, whatever the bounds.
    expect(histogramCounts(cumulative, false).values).toEqual([4, 14, 16]);
  });
});

describe('summaries and points without buckets', () => {
  const summary = (t: number, count: number, quantiles: { quantile: number; value: number | string }[]) => ({ time_unix_nano: ns(t), start_time_unix_nano: ns(0), count, sum: count, quantiles });

  it('takes a summary’s quantile from each point, null where a point has none, and says whether any has it', () => {
    const points = [summary(10, 1, [{ quantile: 0.5, value: 3 }]), summary(20, 2, [{ quantile: 0.9, value: 4 }]), summary(30, 3, [{ quantile: 0.5, value: 'NaN' }])];
    expect(summaryQuantiles(points, 0.5)).toEqual({ times: [S + 10, S + 20, S + 30], values: [3, null, null] });
    expect([hasQuantile(points, 0.9), hasQuantile(points, 0.99)]).toEqual([true, false]);
  });

  it('gives count and sum points no buckets, so that counts and means are taken as for histograms', () => {
    const points = withoutBuckets([
      { time_unix_nano: ns(10), start_time_unix_nano: ns(0), count: 4, sum: 10 },
      { time_unix_nano: ns(20), start_time_unix_nano: ns(0), count: 6, sum: 30 },
    ]);
    expect([histogramCounts(points, true).values, histogramMeans(points, true).values]).toEqual([[2], [10]]);
  });
});

describe('unitLabel', () => {
  it('shows UCUM units as an axis would', () => {
    expect([unitLabel('ms'), unitLabel('By'), unitLabel('1'), unitLabel(''), unitLabel('{request}'), unitLabel('m/s')]).toEqual(['ms', 'bytes', '', '', 'request', 'm/s']);
  });
});
