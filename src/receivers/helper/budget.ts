// A cap on the decompressed body bytes that requests under way hold at once: past it, the
// request that would go over is answered 503 (retry later) instead of growing memory.
export class ByteBudget {
  private used = 0;

  constructor(readonly limit: number) {}

  get inUse(): number {
    return this.used;
  }

  /** Takes `bytes` if they fit; false (taking nothing) if they would go over the limit. */
  take(bytes: number): boolean {
    if (this.used + bytes > this.limit) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used -= bytes;
  }
}
