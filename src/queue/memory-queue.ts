// The sending queue in memory, for `storage: memory`: the same contract as DiskQueue (capacity by
// sizer, block_on_overflow, take/ack/nack) without the disk, so nothing survives a restart or a
// crash. It is the explicit opt-out, never the default.
import { ShuttingDownError } from '../errors.js';
import { Capacity } from './capacity.js';
import { NO_RECOVERY, sizeOf, type AppendOptions, type QueueEntry, type QueueSizer, type QueueStats, type SendingQueue, type TakenEntry } from './types.js';
import { waitForWake } from './wakeups.js';

export interface MemoryQueueOptions {
  sizer?: QueueSizer;
  capacity?: number;
  blockOnOverflow?: boolean;
}

export class MemoryQueue<M> implements SendingQueue<M> {
  private readonly capacity: Capacity;
  private readonly sizer: QueueSizer;
  private nextId = 1;
  /** Waiting to be taken, oldest first; ids only grow, so order is id order. */
  private readonly queued = new Map<number, QueueEntry<M>>();
  private readonly inFlight = new Map<number, QueueEntry<M>>();
  /** Given back by nack, in id order. */
  private readonly redeliver: number[] = [];
  private readonly counts = { requests: 0, items: 0, bytes: 0 };
  private readonly waitingTakes = new Set<() => void>();
  private closing = false;

  constructor(options: MemoryQueueOptions = {}) {
    this.sizer = options.sizer ?? 'requests';
    const capacity = options.capacity ?? 1000;
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`queue capacity must be a whole number above 0, not ${capacity}`);
    this.capacity = new Capacity(this.sizer, capacity, options.blockOnOverflow ?? false);
  }

  async append(entry: QueueEntry<M>, options?: AppendOptions): Promise<number> {
    if (this.closing) throw new ShuttingDownError();
    const size = sizeOf(this.sizer, entry);
    await this.capacity.admit(size, options?.signal);
    if (this.closing) {
      this.capacity.unreserve(size);
      throw new ShuttingDownError();
    }
    const id = this.nextId++;
    this.queued.set(id, entry);
    this.counts.requests++;
    this.counts.items += entry.items;
    this.counts.bytes += entry.payload.byteLength;
    this.capacity.written(size, this.counts[this.sizer]);
    this.wakeTakes();
    return id;
  }

  async take(signal?: AbortSignal): Promise<TakenEntry<M> | undefined> {
    const stopped = (): boolean => this.closing || signal?.aborted === true;
    while (!stopped()) {
      const id = this.redeliver.shift() ?? this.queued.keys().next().value;
      if (id !== undefined) {
        const entry = (this.inFlight.get(id) ?? this.queued.get(id)) as QueueEntry<M>;
        this.queued.delete(id);
        this.inFlight.set(id, entry);
        return { ...entry, id };
      }
      await waitForWake(this.waitingTakes, signal);
    }
    return undefined;
  }

  async ack(id: number): Promise<void> {
    const entry = this.inFlight.get(id);
    if (entry === undefined || this.redeliver.includes(id)) throw new Error(`queue entry ${id} is not taken`);
    this.inFlight.delete(id);
    this.counts.requests--;
    this.counts.items -= entry.items;
    this.counts.bytes -= entry.payload.byteLength;
    this.capacity.release(this.counts[this.sizer]);
  }

  nack(id: number): void {
    if (!this.inFlight.has(id) || this.redeliver.includes(id)) throw new Error(`queue entry ${id} is not taken`);
    let i = this.redeliver.length;
    while (i > 0 && (this.redeliver[i - 1] as number) > id) i--;
    this.redeliver.splice(i, 0, id);
    this.wakeTakes();
  }

  private wakeTakes(): void {
    for (const wake of this.waitingTakes) wake();
  }

  async close(): Promise<void> {
    this.closing = true;
    this.capacity.close();
    this.wakeTakes();
  }

  stats(): QueueStats {
    return {
      sizer: this.sizer,
      capacity: this.capacity.capacity,
      size: this.counts[this.sizer],
      ...this.counts,
      inFlight: this.inFlight.size - this.redeliver.length,
      segments: 0,
      diskBytes: 0,
      corruptRecords: 0,
      recovery: { ...NO_RECOVERY },
    };
  }
}
