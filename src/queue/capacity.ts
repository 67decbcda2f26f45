// How full a queue is, in the unit its sizer names (the Collector's requests | items | bytes), and
// who waits for room. An entry takes room when it is admitted, before it is written, so appends
// under way can never together pass the capacity; nothing queued is ever dropped to make room.
import { QueueFullError, ShuttingDownError } from '../errors.js';
import type { QueueSizer } from './types.js';

interface Waiter {
  need: number;
  resolve(): void;
  reject(error: Error): void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

export class Capacity {
  /** Queued and not yet acknowledged, in the sizer's unit; `reserved` is admitted but not yet written. */
  used = 0;
  reserved = 0;
  private readonly waiters: Waiter[] = [];
  private closed = false;

  constructor(
    readonly sizer: QueueSizer,
    readonly capacity: number,
    private readonly blockOnOverflow: boolean,
  ) {}

  /** Reserves `need`; when there is no room, rejects at once, or waits for it with block_on_overflow until `signal` aborts (QueueFullError) or the queue closes (ShuttingDownError). */
  admit(need: number, signal?: AbortSignal): Promise<void> | undefined {
    if (this.closed) return Promise.reject(new ShuttingDownError());
    // Before anyone who already waits, no newcomer gets in: room goes in arrival order.
    if (this.waiters.length === 0 && this.fits(need)) {
      this.reserved += need;
      return undefined;
    }
    // An entry larger than the whole queue would wait for ever.
    if (!this.blockOnOverflow || need > this.capacity || signal?.aborted === true) return Promise.reject(new QueueFullError(this.capacity, this.sizer));
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        need,
        resolve,
        reject,
        signal,
        onAbort: () => {
          this.drop(waiter);
          reject(new QueueFullError(this.capacity, this.sizer));
          this.wake();
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  private fits(need: number): boolean {
    return this.used + this.reserved + need <= this.capacity;
  }

  private drop(waiter: Waiter): void {
    const i = this.waiters.indexOf(waiter);
    if (i !== -1) this.waiters.splice(i, 1);
    waiter.signal?.removeEventListener('abort', waiter.onAbort);
  }

  /** Reserved entries of `size` in all are written: `used` is what the queue holds now. */
  written(size: number, used: number): void {
    this.reserved -= size;
    this.used = used;
  }

  /** Reserved entries were not written after all. */
  unreserve(size: number): void {
    this.reserved -= size;
    this.wake();
  }

  /** Entries left the queue (acknowledged, or lost to damage): `used` is what it holds now. */
  release(used: number): void {
    this.used = used;
    this.wake();
  }

  /** Lets in whoever waits first, as long as each fits. */
  private wake(): void {
    for (let head = this.waiters[0]; head !== undefined && this.fits(head.need); head = this.waiters[0]) {
      this.drop(head);
      this.reserved += head.need;
      head.resolve();
    }
  }

  /** Turns every waiting append away: the queue is closing. */
  close(): void {
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) {
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.reject(new ShuttingDownError());
    }
  }
}
