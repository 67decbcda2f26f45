// The log rows a view holds: their time as the read API orders and filters them, and live mode's
// merge of the rows that arrived since into those shown.

export interface TimedRow {
  time_unix_nano: string;
  observed_time_unix_nano: string;
}

/**
 * The time the read API orders a log by and filters `from`/`to` on: its time, else its observed
 * time (else its arrival, which a row does not carry: undefined then).
 */
export function rowTime(row: TimedRow): bigint | undefined {
  if (row.time_unix_nano !== '0') return BigInt(row.time_unix_nano);
  if (row.observed_time_unix_nano !== '0') return BigInt(row.observed_time_unix_nano);
  return undefined;
}

/** Where live mode's next read starts: just after the newest row shown, or at the range's start when none has a time. */
export function nextFrom(rows: readonly TimedRow[], rangeFrom: bigint): bigint {
  for (const row of rows) {
    const time = rowTime(row);
    if (time !== undefined) return time + 1n > rangeFrom ? time + 1n : rangeFrom;
  }
  return rangeFrom;
}

/**
 * Newer rows (newest first) on top of those shown (newest first), without the shown rows that the
 * range, moving with the clock, has left behind (a row without a time stays), and at most `limit`.
 */
export function mergeNewer<R extends TimedRow>(newer: readonly R[], shown: readonly R[], rangeFrom: bigint, limit: number): R[] {
  const kept = shown.filter((row) => {
    const time = rowTime(row);
    return time === undefined || time >= rangeFrom;
  });
  return [...newer, ...kept].slice(0, limit);
}
