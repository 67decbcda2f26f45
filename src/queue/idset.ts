// A set of record ids kept as sorted, disjoint ranges: the acknowledged ids of a queue. Entries
// are acknowledged nearly in order, so a million acknowledged ids are a handful of ranges; its
// size follows the gaps (entries still out), not the ids.

export class IdSet {
  /** [start0, end0, start1, end1, ...]: each range holds start..end-1; ranges neither touch nor overlap. */
  private bounds: number[] = [];

  /** The index of the first range whose end is above `id`. */
  private firstEndingAbove(id: number): number {
    let lo = 0;
    let hi = this.bounds.length / 2;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.bounds[2 * mid + 1] as number) > id) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  has(id: number): boolean {
    const i = this.firstEndingAbove(id);
    return i < this.bounds.length / 2 && (this.bounds[2 * i] as number) <= id;
  }

  add(id: number): void {
    this.addRange(id, id + 1);
  }

  /** Adds start..end-1. */
  addRange(start: number, end: number): void {
    if (end <= start) return;
    // Every range that touches or overlaps start..end merges with it.
    const first = this.firstEndingAbove(start - 1);
    let last = first;
    let lo = start;
    let hi = end;
    while (last < this.bounds.length / 2 && (this.bounds[2 * last] as number) <= end) {
      lo = Math.min(lo, this.bounds[2 * last] as number);
      hi = Math.max(hi, this.bounds[2 * last + 1] as number);
      last++;
    }
    this.bounds.splice(2 * first, 2 * (last - first), lo, hi);
  }

  /** The ids of start..end-1 that are not in the set, as ranges [start, end). */
  missingRanges(start: number, end: number): [number, number][] {
    const out: [number, number][] = [];
    let at = start;
    for (let i = this.firstEndingAbove(start); i < this.bounds.length / 2 && at < end; i++) {
      const lo = this.bounds[2 * i] as number;
      if (lo >= end) break;
      if (lo > at) out.push([at, lo]);
      at = Math.max(at, this.bounds[2 * i + 1] as number);
    }
    if (at < end) out.push([at, end]);
    return out;
  }

  /** One past the highest id in the set, or 0 when it is empty. */
  end(): number {
    return this.bounds.length === 0 ? 0 : (this.bounds[this.bounds.length - 1] as number);
  }

  /** Counts every id below `id` as in the set: what lies below the oldest segment no longer matters, only that it is done. */
  fillBelow(id: number): void {
    this.addRange(0, id);
  }

  ranges(): readonly number[] {
    return this.bounds;
  }
}
