// The log-count histogram's bars from the read API's log_counts: one bucket per step over the whole
// range, the empty ones included (lib/buckets.ts), each with the counts of every severity band.
import { perBucket, type BucketAnswer } from './buckets.js';
import { SEVERITY_BANDS, type SeverityBand } from './format.js';

export interface BandCount {
  /** The bucket's start, nanoseconds since the epoch. */
  time_unix_nano: string;
  severity: SeverityBand;
  count: number;
}

export interface Bucket {
  start: bigint;
  counts: Record<SeverityBand, number>;
  total: number;
}

export interface Histogram {
  step: bigint;
  from: bigint;
  to: bigint;
  buckets: Bucket[];
  /** Over the whole range, every band (0 where none). */
  totals: Record<SeverityBand, number>;
  total: number;
  /** The largest bucket's total: the height of the chart. */
  max: number;
}

const sum = (counts: readonly number[]): number => counts.reduce((a, b) => a + b, 0);

/** log_counts' answer → every bucket from `from` to `to`; a count whose bucket is outside the range is left out. */
export function histogramOf(answer: BucketAnswer & { rows: readonly BandCount[] }): Histogram {
  const byBand = Object.fromEntries(SEVERITY_BANDS.map((band) => [band, perBucket(answer, answer.rows.filter((row) => row.severity === band))])) as Record<SeverityBand, number[]>;
  const step = BigInt(answer.step_nano);
  const from = BigInt(answer.from);
  const buckets = byBand.unspecified.map((_, k): Bucket => {
    const counts = Object.fromEntries(SEVERITY_BANDS.map((band) => [band, byBand[band][k] ?? 0])) as Record<SeverityBand, number>;
    return { start: from + BigInt(k) * step, counts, total: sum(Object.values(counts)) };
  });
  const totals = Object.fromEntries(SEVERITY_BANDS.map((band) => [band, sum(byBand[band])])) as Record<SeverityBand, number>;
  return { step, from, to: BigInt(answer.to), buckets, totals, total: sum(Object.values(totals)), max: Math.max(0, ...buckets.map((bucket) => bucket.total)) };
}
