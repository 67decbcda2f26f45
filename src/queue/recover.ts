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
import { RECORD_HEADER, RECORD_MAGIC, recordAt, scanFrames, type DamagedSpan } from './frame.js';
import type { IdSet } from './idset.js';
import { newSegment, parseSegmentName, SegmentList, type Segment } from './segments.js';

export const CORRUPT_DIR = 'corrupt';

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

/** A whole record found: where it is and what it holds. */
interface Found {
  at: number;
  length: number;
  id: number;
  items: number;
  payloadBytes: number;
}

export async function recoverSegments(options: Options): Promise<RecoveredQueue> {
  const { disk, directory, acked } = options;
  const names = await disk.list(directory);
  for (const name of names) if (name.endsWith('.tmp')) await disk.remove(join(directory, name));
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

  const found: Found[] = [];
  let lastId = segment.firstId - 1;
  const damaged = scanFrames(buf, RECORD_MAGIC, RECORD_HEADER, (at) => {
    const record = recordAt(buf, at);
    if (record === undefined || record.id <= lastId || (following !== undefined && record.id >= following)) return false;
    lastId = record.id;
    found.push({ at, length: record.length, id: record.id, items: record.items, payloadBytes: record.length - RECORD_HEADER - record.metaLength });
    return true;
  });

  // The end of the newest segment past its last whole record is a torn write, not damage: its
  // record was never acknowledged to anyone, and its id is given again.
  const last = found[found.length - 1];
  const validEnd = last === undefined ? 0 : last.at + last.length;
  let torn: DamagedSpan | undefined;
  if (following === undefined && damaged.length > 0 && (damaged[damaged.length - 1] as DamagedSpan).end === buf.length && (damaged[damaged.length - 1] as DamagedSpan).start >= validEnd) {
    torn = damaged.pop();
  }
  for (const span of damaged) {
    const before = found.filter((f) => f.at < span.start).pop();
    const after = found.find((f) => f.at >= span.end);
    const start = before === undefined ? segment.firstId : before.id + 1;
    const end = after?.id ?? (following as number);
    result.recovery.corruptRecords += markLost(result, acked, start, end);
    result.recovery.corruptBytes += span.end - span.start;
  }
  if (torn !== undefined) result.recovery.tornBytes += torn.end - torn.start;
  if (following === undefined) segment.nextId = lastId + 1;

  const partlyDone = found.some((f) => acked.has(f.id)) && found.some((f) => !acked.has(f.id));
  const keep = options.compact && partlyDone ? found.filter((f) => !acked.has(f.id)) : found;
  let rewritten = false;
  if (damaged.length > 0 || keep !== found) rewritten = await rewrite(options, segment.path, buf, keep, damaged.length > 0);
  else if (torn !== undefined) await cutTornEnd(options, segment.path, validEnd);

  // A rewrite that failed left the file as it was: the reader then meets the damage again but
  // counts nothing twice (the lost ids are done now), and never reads past the last whole record.
  const layout = rewritten ? keep : found;
  for (const f of layout) {
    segment.records++;
    if (rewritten) segment.end += f.length;
    if (acked.has(f.id)) {
      segment.done++;
      continue;
    }
    result.recovery.records++;
    result.requests++;
    result.items += f.items;
    result.bytes += f.payloadBytes;
  }
  if (!rewritten) segment.end = validEnd;
  return segment;
}

/**
 * Writes the kept records to a new file and renames it over the segment; the damaged original
 * goes to corrupt/ when `setAsideOriginal`. Whether it did.
 */
async function rewrite(options: Options, path: string, buf: Buffer, keep: Found[], setAsideOriginal: boolean): Promise<boolean> {
  const { disk, directory, fsync, logger } = options;
  const tmp = `${path}.tmp`;
  try {
    const file = await disk.open(tmp, 'w');
    try {
      await writeFully(
        file,
        keep.map((f) => buf.subarray(f.at, f.at + f.length)),
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
