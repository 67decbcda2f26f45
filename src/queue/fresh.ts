// The records just written that the reader hands out from memory (reader.ts), oldest first, in a
// ring of fixed size whose slots are emptied as the reader passes them.
//
// Not a Map, nor an array that grows: both move their contents to a new backing store as they grow
// or tidy up, and V8 leaves the old store pointing at what it held. Once such a store has been
// promoted to the old generation it is a root of every young collection until the next full one,
// so the records it points to, and their payloads of some hundred kB outside the heap, outlive
// their delivery and are promoted in turn. Under load that was tens of MB a second of dead
// payloads in the old generation, and a full collection about once a second for external memory
// pressure, in most runs of the loki bench; with the ring, one in 11 runs of 7 s.

/** What a fresh record needs to be kept. */
interface Kept {
  readonly id: number;
  readonly payloadBytes: number;
}

export class FreshRecords<R extends Kept> {
  private readonly slots: (R | undefined)[];
  /** The oldest record's slot, and how many there are. */
  private head = 0;
  private count = 0;
  private bytes = 0;

  /** At most `capacity` records and `maxBytes` payload bytes. */
  constructor(
    private readonly capacity: number,
    private readonly maxBytes: number,
  ) {
    this.slots = new Array<R | undefined>(capacity).fill(undefined);
  }

  get size(): number {
    return this.count;
  }

  /** Keeps `record` when there is room; its id is above every id kept. */
  add(record: R): boolean {
    if (this.count === this.capacity || this.bytes + record.payloadBytes > this.maxBytes) return false;
    this.slots[(this.head + this.count) % this.capacity] = record;
    this.count++;
    this.bytes += record.payloadBytes;
    return true;
  }

  /** The record kept with this id, when it is the oldest one kept. */
  oldest(id: number): R | undefined {
    const record = this.count === 0 ? undefined : this.slots[this.head];
    return record !== undefined && record.id === id ? record : undefined;
  }

  /** Lets go of the records with ids up to `id`. */
  dropThrough(id: number): void {
    while (this.count > 0) {
      const record = this.slots[this.head] as R;
      if (record.id > id) return;
      this.slots[this.head] = undefined;
      this.head = (this.head + 1) % this.capacity;
      this.count--;
      this.bytes -= record.payloadBytes;
    }
  }

  clear(): void {
    this.slots.fill(undefined);
    this.head = 0;
    this.count = 0;
    this.bytes = 0;
  }
}
