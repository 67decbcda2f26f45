// The log rows a view holds: their time as the read API orders and filters them, live mode's
// windows of time read one after another, and its merge of what they read into the rows shown.

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

/** A read's time window: [from, to) in nanoseconds, as the read API's `from` and `to` take it. */
export interface TimeWindow {
  from: bigint;
  to: bigint;
}

/**
 * How far before the end of the read before each live read starts again: a row that arrives up to
 * this long after its time (an SDK exports its logs in batches, a second or more apart; a client's
 * clock may run slow) is read still. The rows shown again are told apart by mergeLive.
 */
export const LIVE_OVERLAP_NS = 10_000_000_000n;

/**
 * Live mode's next read: from LIVE_OVERLAP_NS before where the read before ended (for the first,
 * the end of the view's own read), not before the range's start, up to now; none while now is not
 * past that end. A row's time past now is not read until the clock reaches it, so a row timestamped
 * ahead of the clock holds back none of those after it.
 */
export function nextWindow(lastTo: bigint, rangeFrom: bigint, now: bigint): TimeWindow | undefined {
  const back = lastTo - LIVE_OVERLAP_NS;
  const from = back > rangeFrom ? back : rangeFrom;
  return now > lastTo ? { from, to: now } : undefined;
}

/** The rows live mode shows, where its next read starts, and whether a read missed rows. */
export interface LiveRows<R> {
  rows: R[];
  to: bigint;
  missed: boolean;
}

/** Later than any time: a list's first rows when they have none. */
const LATEST = 1n << 64n;

/** Each row's time to merge by, newest first as the list is: a row without a time takes that of the row before it. */
function mergeTimes(rows: readonly TimedRow[]): bigint[] {
  let last = LATEST;
  return rows.map((row) => (last = rowTime(row) ?? last));
}

/**
 * Live mode's state after a read of `window` answered `answer` (newest first): the rows it read that
 * are not shown yet (a row is told by its whole content: of identical rows, as many are shown as
 * were read) merged by time into those shown, newest first, of equal times the new first, without
 * the shown rows that the range, moving with the clock, has left behind (a row without a time
 * stays), and at most `limit`. The next read goes on from the window's end. `missed` once an answer
 * was full (`limit` rows, or cut at 32 MiB) and did not reach back before the end of the read before:
 * rows after that end and older than its last were not read. It stays until the view reads its range again.
 */
export function mergeLive<R extends TimedRow>(live: LiveRows<R>, window: TimeWindow, answer: { rows: readonly R[]; truncated?: boolean }, rangeFrom: bigint, limit: number): LiveRows<R> {
  const key = (row: R): string => JSON.stringify(row);
  const shownAgain = new Map<string, number>();
  for (const row of live.rows) shownAgain.set(key(row), (shownAgain.get(key(row)) ?? 0) + 1);
  const answerTimes = mergeTimes(answer.rows);
  const isFresh = answer.rows.map((row) => {
    const left = shownAgain.get(key(row)) ?? 0;
    if (left === 0) return true;
    shownAgain.set(key(row), left - 1);
    return false;
  });
  const fresh = answer.rows.filter((_, i) => isFresh[i]);
  const freshTimes = answerTimes.filter((_, i) => isFresh[i]);
  const kept = live.rows.filter((row) => {
    const time = rowTime(row);
    return time === undefined || time >= rangeFrom;
  });
  const keptTimes = mergeTimes(kept);
  const rows: R[] = [];
  let i = 0;
  let j = 0;
  while (rows.length < limit && (i < fresh.length || j < kept.length)) {
    if (j >= kept.length || (i < fresh.length && freshTimes[i]! >= keptTimes[j]!)) rows.push(fresh[i++]!);
    else rows.push(kept[j++]!);
  }
  const oldest = answerTimes.at(-1);
  const full = answer.truncated === true || answer.rows.length >= limit;
  return { rows, to: window.to, missed: live.missed || (full && !(oldest !== undefined && oldest < live.to)) };
}
