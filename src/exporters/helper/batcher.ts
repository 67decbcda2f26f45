// Batching after the queue, as the Collector's sending_queue.batch, partitioned: queued requests
// of one partition (signal, project, and whatever client metadata the exporter routes by) are
// merged; two partitions never share a request, so no request to a backend mixes two tenants.

export interface BatchLimits {
  flushTimeoutMs: number;
  /** What min_size and max_size count: items (log records, spans, data points) or encoded bytes. */
  sizer: 'items' | 'bytes';
  /** Size a batch waits for before it goes early. */
  minSize: number;
  /** Size a batch holds at most (0: no limit); an entry larger than this goes alone, never split. */
  maxSize: number;
  /** Bytes a batch holds at most, whatever the items say: a backend refuses a request past its body limit. */
  maxBytes: number;
  /**
   * Partitions open at once at most; a new one past this sends the oldest open batch first, so a
   * client that sends a new header value with every request cannot make the batcher hold without bound.
   */
  maxOpen: number;
}

export interface Batchable {
  readonly items: number;
  readonly payload: Uint8Array;
}

interface Open<E> {
  entries: E[];
  size: number;
  bytes: number;
  timer: NodeJS.Timeout;
}

/**
 * Collects entries per partition and hands each finished batch to `flush`: when it reaches
 * min_size, when the next entry would take it past max_size or the byte limit, flush_timeout after
 * its first entry, or when a new partition needs the room of the oldest.
 */
export class Batcher<E extends Batchable> {
  private readonly open = new Map<string, Open<E>>();

  constructor(
    private readonly limits: BatchLimits,
    private readonly flush: (entries: E[]) => void,
  ) {}

  /** Entries held, not yet handed on. */
  get held(): number {
    let count = 0;
    for (const batch of this.open.values()) count += batch.entries.length;
    return count;
  }

  add(partition: string, entry: E): void {
    const { maxSize, minSize, maxBytes } = this.limits;
    const bytes = entry.payload.byteLength;
    const size = this.limits.sizer === 'items' ? entry.items : bytes;
    let batch = this.open.get(partition);
    if (batch !== undefined && ((maxSize > 0 && batch.size + size > maxSize) || batch.bytes + bytes > maxBytes)) {
      this.close(partition, batch);
      batch = undefined;
    }
    if (batch === undefined) {
      if (this.open.size >= this.limits.maxOpen) {
        const [oldest, held] = this.open.entries().next().value as [string, Open<E>];
        this.close(oldest, held);
      }
      const timer = setTimeout(() => {
        const current = this.open.get(partition);
        if (current !== undefined) this.close(partition, current);
      }, this.limits.flushTimeoutMs);
      batch = { entries: [], size: 0, bytes: 0, timer };
      this.open.set(partition, batch);
    }
    batch.entries.push(entry);
    batch.size += size;
    batch.bytes += bytes;
    if (batch.size >= minSize || (maxSize > 0 && batch.size >= maxSize)) this.close(partition, batch);
  }

  /** Every entry held, batch by batch, without waiting (shutdown): the caller decides their fate. */
  drain(): E[][] {
    const batches: E[][] = [];
    for (const [partition, batch] of this.open) {
      clearTimeout(batch.timer);
      this.open.delete(partition);
      batches.push(batch.entries);
    }
    return batches;
  }

  private close(partition: string, batch: Open<E>): void {
    clearTimeout(batch.timer);
    this.open.delete(partition);
    this.flush(batch.entries);
  }
}
