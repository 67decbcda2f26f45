// An aggregate's counts per time bucket (log_counts, error_groups) as one number per bucket of its
// range, zeros included: the read API writes rows only for buckets that counted something.

export interface BucketAnswer {
  step_nano: string;
  from: string;
  to: string;
}

/** Bucket k covers [from + k × step, from + (k+1) × step); a row outside the range is left out. */
export function perBucket(answer: BucketAnswer, rows: readonly { time_unix_nano: string; count: number }[]): number[] {
  const from = BigInt(answer.from);
  const step = BigInt(answer.step_nano);
  const to = BigInt(answer.to);
  if (step <= 0n || to <= from) return [];
  const buckets = new Array<number>(Number((to - from + step - 1n) / step)).fill(0);
  for (const row of rows) {
    const offset = BigInt(row.time_unix_nano) - from;
    if (offset < 0n) continue;
    const k = Number(offset / step);
    if (k < buckets.length) buckets[k]! += row.count;
  }
  return buckets;
}
