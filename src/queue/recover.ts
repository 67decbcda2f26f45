// What a queue finds in its directory at open: each segment is read whole and its records checked
// one by one. A torn end of the newest segment (a write cut off by a crash) is cut away; damaged
// records elsewhere are counted, by the ids missing between the whole records around them, and
// set aside: the segment is rewritten without them and the damaged file kept in corrupt/ for a
// look, so the damage is found, counted and logged once, not at every start. Nothing here throws
// on damage; a segment that cannot even be read is set aside whole.
import { basename, join } from 'node:path';
import type { Logger } from 'pino';
import { errorMessage } from '../errors.js';
import { writeFully, type QueueDisk } from './disk.js';
import { RECORD_HEADER, RECORD_MAGIC, recordAt, recordHeaderBegins, scanFrames, type RecordHeader } from './frame.js';
import type { IdSet } from './idset.js';
import { newSegment, parseSegmentName, SegmentList, type Segment } from './segments.js';
import { isSpareName } from './spares.js';

const CORRUPT_DIR = 'corrupt';

/** What open found, for stats and the one log line. */
export interface QueueRecovery {
  /** Segment files read. */
  segments: number;
  /** Whole records not yet acknowledged: what the queue holds at start, to be delivered (again). */
  records: number;
  /** Records lost to damage (not counting any already acknowledged). */
  corruptRecords: number;
  /** Bytes of segments that held no whole record, the torn end aside. */
  corruptBytes: number;
  /** Bytes cut off the end of the newest segment: a write a crash interrupted. */
  tornBytes: number;
  /** Segment files that could not be read at all, set aside whole. */
  unreadableSegments: number;
  /** Bytes of the acknowledgement log that held no whole frame: acknowledgements lost, so their records come again. */
  ackLogDamagedBytes: number;
}

export interface RecoveredQueue {
  segments: SegmentList;
  nextId: number;
  recovery: QueueRecovery;
  /** Not yet acknowledged, in each sizer's unit. */
  requests: number;
  items: number;
  bytes: number;
  /** Ids found lost to damage: done from now on, to be written to the acknowledgement log. */
  lost: number;
}

interface Options {
  disk: QueueDisk;
  directory: string;
  fsync: boolean;
  acked: IdSet;
  /** Also rewrite segments that are partly acknowledged, keeping only what is still to deliver. */
  compact: boolean;
  logger: Logger | undefined;
}

export async function recoverSegments(options: Options): Promise<RecoveredQueue> {
  const { disk, directory, acked } = options;
  const names = await disk.list(directory);
  for (const name of names) if (name.endsWith('.tmp') || isSpareName(name)) await disk.remove(join(directory, name));
  const firstIds = names
    .map(parseSegmentName)
    .filter((id): id is number => id !== undefined)
    .sort((a, b) => a - b);

  const result: RecoveredQueue = {
    segments: new SegmentList(),
    nextId: 1,
    recovery: { segments: firstIds.length, records: 0, corruptRecords: 0, corruptBytes: 0, tornBytes: 0, unreadableSegments: 0, ackLogDamagedBytes: 0 },
    requests: 0,
    items: 0,
    bytes: 0,
    lost: 0,
  };
  let lastNextId = 1;
  for (let i = 0; i < firstIds.length; i++) {
    const firstId = firstIds[i] as number;
    const following = firstIds[i + 1];
    const segment = await recoverSegment(options, result, newSegment(directory, firstId), following);
    lastNextId = Math.max(lastNextId, segment.nextId);
    if (segment.done >= segment.records) await disk.remove(segment.path);
    else result.segments.push(segment);
  }
  result.nextId = Math.max(lastNextId, acked.end(), 1);
  return result;
}

/** Marks the ids of start..end-1 that were not done as lost; returns how many. */
function markLost(result: RecoveredQueue, acked: IdSet, start: number, end: number): number {
  let lost = 0;
  for (const [lo, hi] of acked.missingRanges(start, end)) {
    lost += hi - lo;
    acked.addRange(lo, hi);
  }
  result.lost += lost;
  return lost;
}

async function recoverSegment(options: Options, result: RecoveredQueue, segment: Segment, following: number | undefined): Promise<Segment> {
  const { disk, acked, logger } = options;
  segment.sealed = true;
  segment.nextId = following ?? segment.firstId;
  let buf: Buffer;
  try {
    buf = await disk.readFile(segment.path);
  } catch (error) {
    logger?.error({ file: segment.path, err: errorMessage(error) }, 'Sending queue segment cannot be read; setting it aside whole');
    result.recovery.unreadableSegments++;
    if (following !== undefined) result.recovery.corruptRecords += markLost(result, acked, segment.firstId, following);
    await setAside(options, segment.path);
    return segment;
  }

  // One pass that keeps nothing per record (a segment holds tens of thousands): whatever lies
  // between one whole record and the next is damage, and the ids missing there are what it cost.
  let lastId = segment.firstId - 1;
  let expected = 0;
  let ackedSeen = false;
  let damaged = false;
  /** Where the records of the file's earlier life start, in a file reused from a spare (spares.ts). */
  let earlierLife = buf.length;
  const isRecord = (at: number): RecordHeader | undefined => {
    const record = recordAt(buf, at);
    if (record !== undefined && record.id < segment.firstId) earlierLife = Math.min(earlierLife, at);
    return record === undefined || record.id <= lastId || (following !== undefined && record.id >= following) ? undefined : record;
  };
  scanFrames(buf, RECORD_MAGIC, RECORD_HEADER, (at) => {
    const record = isRecord(at);
    if (record === undefined) return false;
    if (at !== expected) {
      damaged = true;
      result.recovery.corruptRecords += markLost(result, acked, lastId + 1, record.id);
      result.recovery.corruptBytes += at - expected;
    }
    lastId = record.id;
    expected = at + record.length;
    segment.records++;
    if (acked.has(record.id)) {
      segment.done++;
      ackedSeen = true;
    } else {
      result.recovery.records++;
      result.requests++;
      result.items += record.items;
      result.bytes += record.length - RECORD_HEADER - record.metaLength;
    }
    return true;
  });
  const validEnd = expected;
  // Older records past the segment's own are no damage, nor is the rest of the older record the
  // segment's last write ended in, before them: they count only when they are a write of the
  // segment's own, cut off (its next record's header) or, in a sealed segment, when ids are missing.
  const reused = earlierLife >= validEnd && earlierLife < buf.length;
  const ownWriteCut = reused && recordHeaderBegins(buf, validEnd, lastId + 1);
  const idsMissing = following !== undefined && lastId + 1 < following;
  const end = !reused ? buf.length : ownWriteCut || idsMissing ? earlierLife : validEnd;
  let cutEnd = end < buf.length;
  if (validEnd < end) {
    if (following === undefined) {
      // The end of the newest segment past its last whole record is a torn write, not damage:
      // its record was never acknowledged to anyone, and its id is given again.
      cutEnd = true;
      result.recovery.tornBytes += end - validEnd;
    } else {
      damaged = true;
      result.recovery.corruptRecords += markLost(result, acked, lastId + 1, following);
      result.recovery.corruptBytes += end - validEnd;
    }
  }
  if (following === undefined) segment.nextId = lastId + 1;
  segment.end = validEnd;

  const compact = options.compact && ackedSeen && segment.done < segment.records;
  if (damaged || compact) {
    // Rare: the records to keep, found again, and written to a new file.
    const keep: [number, number][] = [];
    let keptDone = 0;
    lastId = segment.firstId - 1;
    scanFrames(buf, RECORD_MAGIC, RECORD_HEADER, (at) => {
      const record = isRecord(at);
      if (record === undefined) return false;
      lastId = record.id;
      const done = acked.has(record.id);
      if (compact && done) return true;
      if (done) keptDone++;
      keep.push([at, record.length]);
      return true;
    });
    // A rewrite that failed left the file as it was: the reader then meets the damage again but
    // counts nothing twice (the lost ids are done now), and never reads past the last whole record.
    if (await rewrite(options, segment.path, buf, keep, damaged)) {
      segment.records = keep.length;
      segment.done = keptDone;
      segment.end = keep.reduce((sum, [, length]) => sum + length, 0);
    }
  } else if (cutEnd) {
    await cutTornEnd(options, segment.path, validEnd);
  }
  return segment;
}

/**
 * Writes the kept records to a new file and renames it over the segment; the damaged original
 * goes to corrupt/ when `setAsideOriginal`. Whether it did.
 */
async function rewrite(options: Options, path: string, buf: Buffer, keep: [number, number][], setAsideOriginal: boolean): Promise<boolean> {
  const { disk, directory, fsync, logger } = options;
  const tmp = `${path}.tmp`;
  try {
    const file = await disk.open(tmp, 'w');
    try {
      await writeFully(
        file,
        keep.map(([at, length]) => buf.subarray(at, at + length)),
        0,
      );
      if (fsync) await file.datasync();
    } finally {
      await file.close();
    }
    if (setAsideOriginal) await setAside(options, path, false);
    await disk.rename(tmp, path);
    if (fsync) await disk.syncDirectory(directory);
    return true;
  } catch (error) {
    logger?.error({ file: path, err: errorMessage(error) }, 'Sending queue segment could not be rewritten; it is read as it is');
    await disk.remove(tmp).catch(() => undefined);
    return false;
  }
}

async function cutTornEnd(options: Options, path: string, validEnd: number): Promise<void> {
  try {
    const file = await options.disk.open(path, 'r+');
    try {
      await file.truncate(validEnd);
      if (options.fsync) await file.datasync();
    } finally {
      await file.close();
    }
  } catch (error) {
    options.logger?.error({ file: path, err: errorMessage(error) }, 'Sending queue segment: its torn end could not be cut off; it is never read');
  }
}

/** Keeps a damaged segment file under corrupt/ for a look; `move` also removes it from the queue's own files. */
async function setAside(options: Options, path: string, move = true): Promise<void> {
  const { disk, directory, logger } = options;
  try {
    await disk.mkdir(join(directory, CORRUPT_DIR));
    await disk.link(path, join(directory, CORRUPT_DIR, basename(path)));
    if (move) await disk.remove(path);
  } catch (error) {
    logger?.error({ file: path, err: errorMessage(error) }, 'Sending queue segment could not be set aside');
    if (move) await disk.remove(path).catch(() => undefined);
  }
}
