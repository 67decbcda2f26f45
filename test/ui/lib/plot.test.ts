import { describe, expect, it } from 'vitest';
import { modeFor, parseSelection, plotOf, pointsPerSeries, quantileFor, selectionParam, seriesKey, seriesLabel, SERIES_LIMIT, type MetricShape } from '../../../ui/src/lib/plot.js';
import type { MetricSeries } from '../../../ui/src/rows.js';

const S = 1_800_000_000;
const ns = (s: number): string => String(BigInt(S + s) * 1_000_000_000n);
const common = { metric_name: 'm', description: '', service_name: 'web', attributes: {}, truncated: false };

const shapeOf = (series: MetricSeries): MetricShape => series;

describe('plotOf', () => {
  it('draws a gauge as its values, in its unit', () => {
    const gauge: MetricSeries = { ...common, type: 'gauge', unit: 'By', temporality: 0, is_monotonic: false, points: [{ time_unix_nano: ns(0), start_time_unix_nano: '0', value: 5 }] };
    const plot = plotOf(shapeOf(gauge), [gauge], undefined, 0.5);
    expect([plot.lines, plot.axis]).toEqual([[{ times: [S], values: [5] }], 'bytes']);
  });

  it('draws a monotonic cumulative sum as per-second rates, "/s" on the axis, and other sums as values', () => {
    const points = [0, 60, 120].map((t, i) => ({ time_unix_nano: ns(t), start_time_unix_nano: ns(-10), value: [10, 25, 40][i]! }));
    const counter: MetricSeries = { ...common, type: 'sum', unit: '{request}', temporality: 2, is_monotonic: true, points };
    const plot = plotOf(shapeOf(counter), [counter], undefined, 0.5);
    expect([plot.lines, plot.axis]).toEqual([[{ times: [S + 60, S + 120], values: [0.25, 0.25] }], 'request/s']);
    const delta: MetricSeries = { ...counter, temporality: 1 };
    expect(plotOf(shapeOf(delta), [delta], undefined, 0.5)).toMatchObject({ lines: [{ values: [10, 25, 40] }], axis: 'request' });
    const updown: MetricSeries = { ...counter, is_monotonic: false };
    expect(plotOf(shapeOf(updown), [updown], undefined, 0.5).lines[0]?.values).toEqual([10, 25, 40]);
  });

  it('draws a histogram as its count, its mean or a quantile per interval', () => {
    const point = (t: number, count: number, sum: number, bucket_counts: number[]) => ({ time_unix_nano: ns(t), start_time_unix_nano: ns(-10), count, sum, bucket_counts, explicit_bounds: [10, 50, 100, 500] });
    const histogram: MetricSeries = { ...common, type: 'histogram', unit: 'ms', temporality: 2, is_monotonic: false, points: [point(0, 10, 1234.5, [2, 3, 3, 1, 1]), point(120, 25, 3010, [5, 8, 7, 3, 2])] };
    const shape = shapeOf(histogram);
    expect(plotOf(shape, [histogram], 'count', 0.5)).toMatchObject({ lines: [{ times: [S + 120], values: [15] }], axis: 'count' });
    expect(plotOf(shape, [histogram], 'mean', 0.5)).toMatchObject({ lines: [{ values: [(3010 - 1234.5) / 15] }], axis: 'ms' });
    // Buckets of the interval: 3, 5, 4, 2, 1; ranks 7.5 (in 10-50), 13.5 (in 100-500), 14.85 (+Inf).
    expect([0.5, 0.9, 0.99].map((q) => plotOf(shape, [histogram], 'quantile', q).lines[0]?.values)).toEqual([[46], [400], [500]]);
  });

  it('draws a summary’s quantile from its points, or its count when no point has that quantile', () => {
    const point = (t: number, count: number, quantiles: { quantile: number; value: number }[]) => ({ time_unix_nano: ns(t), start_time_unix_nano: ns(-10), count, sum: count * 2, quantiles });
    const summary: MetricSeries = {
      ...common,
      type: 'summary',
      unit: 's',
      temporality: 0,
      is_monotonic: false,
      points: [point(0, 4, [{ quantile: 0.5, value: 1.5 }]), point(60, 10, [{ quantile: 0.5, value: 2.5 }])],
    };
    expect(plotOf(shapeOf(summary), [summary], 'quantile', 0.5)).toMatchObject({ lines: [{ values: [1.5, 2.5] }], axis: 's' });
    const fallback = plotOf(shapeOf(summary), [summary], 'quantile', 0.99);
    expect([fallback.lines, fallback.axis, fallback.note.startsWith('No point has the 0.99 quantile')]).toEqual([[{ times: [S + 60], values: [6] }], 'count', true]);
    expect(plotOf(shapeOf(summary), [summary], 'mean', 0.5).lines[0]?.values).toEqual([2]);
  });

  it('draws an exponential histogram as its count or mean only, and says so', () => {
    const point = (t: number, count: number, sum: number) => ({
      time_unix_nano: ns(t),
      start_time_unix_nano: ns(0),
      count,
      sum,
      scale: 2,
      zero_count: 0,
      positive: { offset: 0, bucket_counts: [count] },
      negative: { offset: 0, bucket_counts: [] },
    });
    const exponential: MetricSeries = { ...common, type: 'exponential_histogram', unit: 'ms', temporality: 1, is_monotonic: false, points: [point(10, 4, 20), point(20, 2, 30)] };
    expect(plotOf(shapeOf(exponential), [exponential], 'count', 0.5)).toMatchObject({ lines: [{ values: [4, 2] }], axis: 'count' });
    expect(plotOf(shapeOf(exponential), [exponential], 'mean', 0.5).lines[0]?.values).toEqual([5, 15]);
    expect(plotOf(shapeOf(exponential), [exponential], 'count', 0.5).note).toContain('no quantile is estimated');
    expect(modeFor('exponential_histogram', 'quantile')).toBe('count');
  });
});

describe('modes and quantiles from the address', () => {
  it('takes a mode the type offers, else the type’s default; none for gauges and sums', () => {
    expect([modeFor('histogram', 'mean'), modeFor('histogram', ''), modeFor('summary', 'nonsense'), modeFor('gauge', 'count'), modeFor('sum', '')]).toEqual([
      'mean',
      'count',
      'quantile',
      undefined,
      undefined,
    ]);
  });

  it('takes one of the offered quantiles, else 0.95', () => {
    expect(['0.5', '0.99', '0.3', '', 'x'].map(quantileFor)).toEqual([0.5, 0.99, 0.95, 0.95, 0.95]);
  });
});

describe('series: labels, keys and the address’s choice', () => {
  it('labels a series by its service and attributes', () => {
    expect(seriesLabel({ service_name: 'web', attributes: { 'http.route': '/cart', code: 200, ok: true } })).toBe('web · http.route=/cart, code=200, ok=true');
    expect(seriesLabel({ service_name: '', attributes: {} })).toBe('(no service)');
  });

  it('keys a series by its service and attributes, whatever their order', () => {
    expect(seriesKey({ service_name: 'web', attributes: { b: 1, a: { y: [1], x: 'v' } } })).toBe('["web",{"a":{"x":"v","y":[1]},"b":1}]');
    expect(seriesKey({ service_name: 'web', attributes: { a: 1, b: 2 } })).toBe(seriesKey({ service_name: 'web', attributes: { b: 2, a: 1 } }));
  });

  it('writes a choice of series into the address and reads it back; what is no choice is every series', () => {
    const keys = [seriesKey({ service_name: 'web', attributes: { 'http.route': '/cart' } }), seriesKey({ service_name: 'db', attributes: {} })];
    expect(parseSelection(selectionParam(keys))).toEqual(new Set(keys));
    expect(parseSelection(selectionParam([]))).toEqual(new Set());
    expect(parseSelection('[["web",{"b":2,"a":1}]]')).toEqual(new Set(['["web",{"a":1,"b":2}]']));
    expect([parseSelection(''), parseSelection('{'), parseSelection('{}')]).toEqual([undefined, undefined, undefined]);
    expect(parseSelection('[1, ["web"], ["web", []], ["web", {}]]')).toEqual(new Set(['["web",{}]']));
  });
});

describe('pointsPerSeries', () => {
  const HOUR = 3_600_000_000_000n;
  it('asks the read API’s default up to an hour, and fewer for a longer range, for all series of kilobyte points to stay well under 32 MiB', () => {
    expect([pointsPerSeries(0n, 15n * 60_000_000_000n), pointsPerSeries(5n, 5n + HOUR), pointsPerSeries(5n, 6n + HOUR), pointsPerSeries(0n, 7n * 24n * HOUR)]).toEqual([1000, 1000, 200, 200]);
    expect(SERIES_LIMIT * pointsPerSeries(0n, 24n * HOUR) * 1024).toBeLessThan(32 * 1024 * 1024 * 0.75);
  });
});
