// What the metrics view draws from a series' points: values as they are for gauges and sums that
// are not cumulative counters, per-second rates for cumulative counters, and for histograms the
// count, the mean or a quantile of each interval, estimated as Prometheus's histogram_quantile does.

export interface ValuePoint {
  time_unix_nano: string;
  start_time_unix_nano: string;
  value: number | string;
}

export interface HistogramPoint {
  time_unix_nano: string;
  start_time_unix_nano: string;
  count: number | string;
  sum?: number | string;
  bucket_counts: (number | string)[];
  explicit_bounds: (number | string)[];
}

/** [seconds since the epoch, value] pairs, as a chart takes them; null where there is no value. */
export type Line = { times: number[]; values: (number | null)[] };

const seconds = (ns: string): number => Number(BigInt(ns) / 1000n) / 1e6;

/** The read API writes big integers and NaN/±Infinity as strings. */
export function toNumber(value: number | string | undefined): number {
  if (value === undefined) return Number.NaN;
  return typeof value === 'number' ? value : Number(value);
}

const finite = (n: number): number | null => (Number.isFinite(n) ? n : null);

export function values(points: readonly ValuePoint[]): Line {
  return { times: points.map((p) => seconds(p.time_unix_nano)), values: points.map((p) => finite(toNumber(p.value))) };
}

/**
 * Per-second rates of a cumulative counter, one per point after the first. A point whose value fell,
 * or whose start time moved (the counter restarted), counts from zero, as Prometheus's rate() treats
 * a reset: since its new start when that lies after the point before, else since the point before.
 */
export function rates(points: readonly ValuePoint[]): Line {
  const line: Line = { times: [], values: [] };
  for (let i = 1; i < points.length; i++) {
    const previous = points[i - 1]!;
    const point = points[i]!;
    const v = toNumber(point.value);
    const restarted = point.start_time_unix_nano !== previous.start_time_unix_nano;
    const reset = restarted || v < toNumber(previous.value);
    const time = BigInt(point.time_unix_nano);
    const start = BigInt(point.start_time_unix_nano);
    const before = BigInt(previous.time_unix_nano);
    const from = restarted && start > before ? start : before;
    // The elapsed time from the nanoseconds, not from epoch seconds as doubles, whose difference can
    // be off by a fraction of a microsecond: a rate is then exactly the increase over the seconds.
    const elapsed = Number(time - from) / 1e9;
    line.times.push(seconds(point.time_unix_nano));
    line.values.push(elapsed > 0 ? finite((reset ? v : v - toNumber(previous.value)) / elapsed) : null);
  }
  return line;
}

interface Interval {
  time: number;
  count: number;
  sum: number;
  buckets: number[];
  bounds: number[];
}

/** Whether two points count into the same buckets: the same bounds, and as many counts. */
const sameBuckets = (a: HistogramPoint, b: HistogramPoint): boolean =>
  a.bucket_counts.length === b.bucket_counts.length && a.explicit_bounds.length === b.explicit_bounds.length && a.explicit_bounds.every((bound, i) => toNumber(bound) === toNumber(b.explicit_bounds[i]));

/**
 * Each point's own interval: for delta points the point itself; for cumulative ones the difference
 * from the point before, or the point itself after a reset (another start, or a lower count). A
 * point whose counts are since a start before the point before with no difference to take (the
 * first point; one whose bounds changed) has no interval to draw.
 */
function intervals(points: readonly HistogramPoint[], cumulative: boolean): Interval[] {
  const out: Interval[] = [];
  for (let i = 0; i < points.length; i++) {
    const point = points[i]!;
    const buckets = point.bucket_counts.map(toNumber);
    const bounds = point.explicit_bounds.map(toNumber);
    let count = toNumber(point.count);
    let sum = toNumber(point.sum);
    const previous = cumulative && i > 0 ? points[i - 1] : undefined;
    const continued = previous !== undefined && previous.start_time_unix_nano === point.start_time_unix_nano && toNumber(previous.count) <= count;
    if (continued && sameBuckets(previous, point)) {
      count -= toNumber(previous.count);
      sum -= toNumber(previous.sum);
      for (let b = 0; b < buckets.length; b++) buckets[b]! -= toNumber(previous.bucket_counts[b]);
    } else if (cumulative && (i === 0 || continued)) {
      continue;
    }
    out.push({ time: seconds(point.time_unix_nano), count, sum, buckets, bounds });
  }
  return out;
}

export function histogramCounts(points: readonly HistogramPoint[], cumulative: boolean): Line {
  const list = intervals(points, cumulative);
  return { times: list.map((i) => i.time), values: list.map((i) => i.count) };
}

export function histogramMeans(points: readonly HistogramPoint[], cumulative: boolean): Line {
  const list = intervals(points, cumulative);
  return { times: list.map((i) => i.time), values: list.map((i) => (i.count > 0 ? finite(i.sum / i.count) : null)) };
}

/**
 * The q-quantile (0 ≤ q ≤ 1) of a histogram's buckets, as Prometheus's histogram_quantile estimates
 * it: linear within the bucket it falls in; the first bucket's lower end is 0 when its upper bound
 * is positive; a quantile in the last (+Inf) bucket is the highest finite bound.
 */
export function bucketQuantile(q: number, buckets: readonly number[], bounds: readonly number[]): number | null {
  const total = buckets.reduce((a, b) => a + b, 0);
  if (total <= 0 || buckets.length !== bounds.length + 1 || !(q >= 0 && q <= 1)) return null;
  const rank = q * total;
  let below = 0;
  for (let b = 0; b < buckets.length; b++) {
    const inBucket = buckets[b]!;
    if (below + inBucket >= rank && inBucket > 0) {
      if (b === bounds.length) return bounds.length > 0 ? bounds[bounds.length - 1]! : null;
      const upper = bounds[b]!;
      const lower = b === 0 ? (upper > 0 ? 0 : upper) : bounds[b - 1]!;
      return lower + (upper - lower) * ((rank - below) / inBucket);
    }
    below += inBucket;
  }
  return bounds.length > 0 ? bounds[bounds.length - 1]! : null;
}

export function histogramQuantiles(points: readonly HistogramPoint[], cumulative: boolean, q: number): Line {
  const list = intervals(points, cumulative);
  return { times: list.map((i) => i.time), values: list.map((i) => bucketQuantile(q, i.buckets, i.bounds)) };
}

/** A point with a count and a sum and no explicit buckets: an exponential histogram's, a summary's. */
export interface CountSumPoint {
  time_unix_nano: string;
  start_time_unix_nano: string;
  count: number | string;
  sum?: number | string;
}

/** Such points as histogramCounts and histogramMeans take them, with no buckets. */
export function withoutBuckets(points: readonly CountSumPoint[]): HistogramPoint[] {
  return points.map((p) => ({ ...p, bucket_counts: [], explicit_bounds: [] }));
}

export interface SummaryPoint extends CountSumPoint {
  quantiles: { quantile: number; value: number | string }[];
}

/** Whether two quantiles are the same one, whichever way each was written and read as a double. */
const sameQuantile = (a: number, b: number): boolean => Math.abs(a - b) < 1e-9;

/** A summary's q-quantile at each point, as the SDK computed it; null at a point that does not have it. */
export function summaryQuantiles(points: readonly SummaryPoint[], q: number): Line {
  return {
    times: points.map((p) => seconds(p.time_unix_nano)),
    values: points.map((p) => {
      const found = p.quantiles.find((quantile) => sameQuantile(quantile.quantile, q));
      return found === undefined ? null : finite(toNumber(found.value));
    }),
  };
}

/** Whether any point of a summary has the q-quantile. */
export function hasQuantile(points: readonly SummaryPoint[], q: number): boolean {
  return points.some((p) => p.quantiles.some((quantile) => sameQuantile(quantile.quantile, q)));
}

/** An OTLP unit (UCUM) as an axis shows it: `ms`, `By` → bytes, `1` → none, `{request}` → request. */
export function unitLabel(unit: string): string {
  if (unit === '' || unit === '1') return '';
  const named: Record<string, string> = { By: 'bytes', KiBy: 'KiB', MiBy: 'MiB', GiBy: 'GiB', s: 's', ms: 'ms', us: 'µs', ns: 'ns', '%': '%' };
  if (named[unit] !== undefined) return named[unit];
  return unit.replace(/\{([^}]*)\}/g, '$1');
}
