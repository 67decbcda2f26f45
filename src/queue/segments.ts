// The segment files of a queue, as a summary per file: a segment holds records with consecutive
// ids from the one in its name, and is removed whole once every record in it is done. Nothing
// per record is kept here, so memory follows the number of segments, not of records.
import { join } from 'node:path';

const NAME = /^(\d{16})\.seg$/;

export interface Segment {
  readonly firstId: number;
  readonly path: string;
  /** Whole records in the file. */
  records: number;
  /** Records finished: acknowledged, or lost to damage. The segment goes once done === records and it is sealed. */
  done: number;
  /** Where its whole, written records end: nothing past it is read. */
  end: number;
  /** One past the highest id it holds or will hold. */
  nextId: number;
  /** No record is added any more (every segment but the one being written). */
  sealed: boolean;
  /** Removed from the queue (all done): a reader still on it moves on. */
  removed: boolean;
  /** Sealed by this process with nothing past its records: its file may be written over once done (spares.ts). */
  reusable?: boolean;
}

function segmentName(firstId: number): string {
  return `${String(firstId).padStart(16, '0')}.seg`;
}

/** The first id a segment file's name gives, or undefined for a file that is not a segment. */
export function parseSegmentName(name: string): number | undefined {
  const match = NAME.exec(name);
  return match === null ? undefined : Number(match[1]);
}

export function newSegment(directory: string, firstId: number): Segment {
  return { firstId, path: join(directory, segmentName(firstId)), records: 0, done: 0, end: 0, nextId: firstId, sealed: false, removed: false };
}

/** The live segments in id order. */
export class SegmentList {
  private readonly list: Segment[] = [];

  get length(): number {
    return this.list.length;
  }

  all(): readonly Segment[] {
    return this.list;
  }

  first(): Segment | undefined {
    return this.list[0];
  }

  last(): Segment | undefined {
    return this.list[this.list.length - 1];
  }

  push(segment: Segment): void {
    this.list.push(segment);
  }

  /** The segment after `segment` in id order (also when `segment` itself was removed). */
  after(segment: Segment): Segment | undefined {
    return this.list.find((s) => s.firstId > segment.firstId);
  }

  remove(segment: Segment): void {
    const i = this.list.indexOf(segment);
    if (i !== -1) this.list.splice(i, 1);
    segment.removed = true;
  }
}
