// Segment files kept for reuse once every record in them is done: the next segment is written
// over one of them instead of into a new file. Removing a file and growing a new one has the
// kernel free and then allocate and charge every page again; writing over pages it has costs
// only the copy. On the loki bench (a segment every 40 pushes) that was 3-6 % of otelgate's CPU.
//
// A reused file holds records of its earlier life past what the new segment has written; their
// ids are all below the new segment's first id, since ids only grow, which is how reading at
// open (recover.ts) tells them apart. The file is cut to its own records when it is sealed or
// closed, so only the newest segment of a process that died has such a tail. Spares are not
// carried across restarts: open removes them.
import { join } from 'node:path';
import type { QueueDisk } from './disk.js';

/** Spare files kept at most: one to write the next segment into while another is being filled. */
export const MAX_SPARES = 2;
const SUFFIX = '.spare';

export const isSpareName = (name: string): boolean => name.endsWith(SUFFIX);

export class SpareSegments {
  private readonly ready: string[] = [];
  /** Renames under way: they count against MAX_SPARES. */
  private readonly renaming = new Set<Promise<void>>();
  private named = 0;

  constructor(
    private readonly disk: QueueDisk,
    private readonly directory: string,
    private readonly max = MAX_SPARES,
  ) {}

  /** A segment that is done: kept as a spare when there is room for one, else removed. */
  async retire(path: string): Promise<void> {
    if (this.ready.length + this.renaming.size >= this.max) return this.disk.remove(path);
    const spare = join(this.directory, `${++this.named}${SUFFIX}`);
    const renamed = this.disk.rename(path, spare).then(() => {
      this.ready.push(spare);
    });
    this.renaming.add(renamed);
    try {
      await renamed;
    } finally {
      this.renaming.delete(renamed);
    }
  }

  /** A spare to write the next segment into, now its own: undefined when there is none. */
  take(): string | undefined {
    return this.ready.shift();
  }

  /** Removes the spares, those being made too: at close, so that a closed queue leaves only its segments, and when the disk is full. */
  async removeAll(): Promise<void> {
    await Promise.allSettled([...this.renaming]);
    await Promise.all(this.ready.splice(0).map((path) => this.disk.remove(path)));
  }
}
