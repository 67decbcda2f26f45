// Copy-on-write for processors that change what rows share. A Resource, Scope or Metric is one
// object for all the rows under it; a processor that changes one makes one new object per distinct
// original within a batch, so the rows stay grouped as they came (a copy per row made store
// encoding 16 times slower in a measurement, and would make every row its own resource on the wire).
import { batchOf, type Batch, type RowOf } from './batch.js';
import type { Signal } from './signal.js';

/**
 * `change` applied once per distinct object: the same original always gives the same result. Make
 * one per batch; a result equal to its original (the same object) keeps the original shared.
 */
export function sharedRewrite<T extends object>(change: (original: T) => T): (original: T) => T {
  const done = new Map<T, T>();
  return (original) => {
    let result = done.get(original);
    if (result === undefined) {
      result = change(original);
      done.set(original, result);
    }
    return result;
  };
}

/**
 * Rows with `change` applied, and the same array when no row changed: a processor that has nothing
 * to do hands the batch on as it came.
 */
export function mapRows<R>(rows: readonly R[], change: (row: R) => R): readonly R[] {
  return keepRows(rows, change);
}

/**
 * Rows with `change` applied, leaving out those it gives undefined for; the same array when it
 * kept every row as it was: a processor that drops nothing hands the batch on as it came.
 */
export function keepRows<R>(rows: readonly R[], change: (row: R) => R | undefined): readonly R[] {
  let out: R[] | undefined;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as R;
    const changed = change(row);
    if (changed !== row && out === undefined) out = rows.slice(0, i);
    if (changed !== undefined) out?.push(changed);
  }
  return out ?? rows;
}

/**
 * `batch` with `rows` in place of its own: the batch itself when they are its own array. The new
 * batch is exclusive only when the batch was and `kept` says that each row's attributes map is
 * still that of one row of the batch (a filter's rows: some left out, a span kept with fewer
 * events): rows made anew may share their maps.
 */
export function withRows<S extends Signal>(batch: Batch<S>, rows: readonly RowOf<S>[], kept = false): Batch<S> {
  return rows === (batch.rows as readonly RowOf<S>[]) ? batch : batchOf(batch.signal as S, batch.project, batch.receivedUnixNano, rows, kept && batch.exclusive);
}
