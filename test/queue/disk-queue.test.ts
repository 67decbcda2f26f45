// The disk queue beyond the contract both queues share (contract.test.ts), case by case: restart,
// group commit, segments removed once done, records just written handed out from memory, the
// directory lock, damage found at open (logged once) and while reading, compaction on start,
// acknowledgements that fail to write.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { QueueDirectoryError, QueueFullError, QueueLockedError, QueueStorageError } from '../../src/errors.js';
import { DiskQueue, type DiskQueueOptions } from '../../src/queue/disk-queue.js';
import { FRESH_BYTES, FRESH_RECORDS } from '../../src/queue/reader.js';
import { MAX_SPARES } from '../../src/queue/spares.js';
import type { TakenEntry } from '../../src/queue/types.js';
import { memoryLogger } from '../helpers/logger.js';
import { waitUntil } from '../helpers/wait.js';
import { cutOffHeader, errnoError, fileRecords, segmentFiles, testDisk } from '../helpers/queue.js';
import type { QueueDisk } from '../../src/queue/disk.js';

const ROOT = mkdtempSync(join(tmpdir(), 'otelgate-queue-'));
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

interface Meta {
  n: number;
  project: string;
}

let dirs = 0;
const newDir = (): string => join(ROOT, `q${++dirs}`);

function open(directory: string, options: Partial<DiskQueueOptions> = {}): Promise<DiskQueue<Meta>> {
  return DiskQueue.open<Meta>({ directory, ...options });
}

/** A record of entry(n < 10, 100): header, metadata JSON, payload. */
const RECORD = 28 + JSON.stringify({ n: 1, project: 'p1' }).length + 100;

const entry = (n: number, bytes = 10, items = 1) => ({ payload: Buffer.alloc(bytes, n % 256), metadata: { n, project: `p${n % 2}` }, items });

async function takeN(queue: DiskQueue<Meta>, count: number): Promise<TakenEntry<Meta>[]> {
  const out: TakenEntry<Meta>[] = [];
  for (let i = 0; i < count; i++) out.push((await queue.take()) as TakenEntry<Meta>);
  return out;
}

const ns = (taken: (TakenEntry<Meta> | undefined)[]): (number | undefined)[] => taken.map((t) => t?.metadata.n);

describe('disk queue: restart', () => {
  it('after a restart delivers again what was taken and not acknowledged, in id order, and nothing acknowledged', async () => {
    const dir = newDir();
    const first = await open(dir);
    for (let n = 1; n <= 6; n++) await first.append(entry(n));
    await takeN(first, 4);
    await first.ack(2);
    await first.ack(4);
    first.nack(3);
    await first.close();
    const second = await open(dir);
    expect(second.stats()).toMatchObject({ requests: 4, inFlight: 0, recovery: { segments: 1, records: 4, corruptRecords: 0, tornBytes: 0 } });
    expect(ns(await takeN(second, 4))).toEqual([1, 3, 5, 6]);
    await second.close();
  });

  it('after a restart, once everything is taken, waits for new entries instead of handing out taken ones again', async () => {
    const dir = newDir();
    const first = await open(dir, { segmentBytes: 200 });
    for (let n = 1; n <= 3; n++) await first.append(entry(n, 100));
    await first.close();
    const second = await open(dir, { segmentBytes: 200 });
    expect(ns(await takeN(second, 3))).toEqual([1, 2, 3]);
    // Segment 3 is the last, sealed at open, with no segment after it yet.
    const waiting = second.take();
    await new Promise((resolve) => setImmediate(resolve));
    await second.ack(1);
    await second.ack(2);
    expect(await second.append(entry(4, 100))).toBe(4);
    expect(ns([await waiting])).toEqual([4]);
    expect(second.stats()).toMatchObject({ requests: 2, inFlight: 2 });
    await second.close();
  });

  it('counts what it holds the same after a restart, in every unit', async () => {
    const dir = newDir();
    const first = await open(dir, { sizer: 'bytes', capacity: 100 });
    await first.append(entry(1, 60, 4));
    await first.append(entry(2, 30, 3));
    await first.ack(((await first.take()) as TakenEntry<Meta>).id);
    await first.append(entry(3, 50, 2));
    await first.close();
    const again = await open(dir, { sizer: 'bytes', capacity: 100 });
    expect(again.stats()).toMatchObject({ size: 80, requests: 2, items: 5, bytes: 80 });
    await expect(again.append(entry(4, 21))).rejects.toBeInstanceOf(QueueFullError);
    await again.close();
  });

  it('gives new ids above every id acknowledged, also when every segment is gone', async () => {
    const dir = newDir();
    const first = await open(dir);
    for (let n = 1; n <= 3; n++) await first.append(entry(n));
    for (const t of await takeN(first, 3)) await first.ack(t.id);
    await first.close();
    // This open removes the segment, all done; the next finds no segment at all.
    await (await open(dir)).close();
    expect(segmentFiles(dir)).toEqual([]);
    const third = await open(dir);
    expect(await third.append(entry(4))).toBe(4);
    await third.close();
    const fourth = await open(dir);
    expect(ns(await takeN(fourth, 1))).toEqual([4]);
    await fourth.close();
  });

});

describe('disk queue: writing', () => {
  it('group-commits: appends made together are written with one writev, and one fdatasync with fsync on', async () => {
    for (const fsync of [false, true]) {
      const disk = testDisk();
      const queue = await open(newDir(), { disk, fsync, capacity: 100 });
      disk.ops.length = 0;
      const ids = await Promise.all(Array.from({ length: 50 }, (_, n) => queue.append(entry(n))));
      expect(ids).toEqual(Array.from({ length: 50 }, (_, n) => n + 1));
      // The first append starts a write at once; the 49 made meanwhile go together in the next.
      const counts = (op: string): number => disk.ops.filter((o) => o.op === op).length;
      expect([counts('writev'), counts('datasync')]).toEqual([2, fsync ? 2 : 0]);
      await queue.close();
    }
  });

  it('starts a new segment past segment_bytes and removes a segment once every record in it is acknowledged, in any order', async () => {
    const dir = newDir();
    // Two records pass a 200-byte segment.
    const queue = await open(dir, { segmentBytes: 200, capacity: 100 });
    for (let n = 1; n <= 5; n++) await queue.append(entry(n, 100));
    expect(segmentFiles(dir).map((f) => f.slice(-20))).toEqual(['0000000000000001.seg', '0000000000000003.seg', '0000000000000005.seg']);
    expect(segmentFiles(dir).map((f) => fileRecords(f).map((r) => r.id))).toEqual([[1, 2], [3, 4], [5]]);
    const taken = await takeN(queue, 5);
    await queue.ack(4);
    await queue.ack(2);
    expect(queue.stats().segments).toBe(3);
    await queue.ack(3);
    await queue.ack(1);
    // Removal is under way; close waits for it.
    expect(queue.stats()).toMatchObject({ segments: 1, requests: 1, inFlight: 1 });
    await queue.close();
    expect(segmentFiles(dir).map((f) => f.slice(-20))).toEqual(['0000000000000005.seg']);
    expect(ns(taken)).toEqual([1, 2, 3, 4, 5]);
  });

  it('writes a new segment over a done one (MAX_SPARES kept), cut to its own records once sealed; a restart finds only those; close leaves no spare', async () => {
    const dir = newDir();
    const disk = testDisk();
    const spares = (): string[] => readdirSync(dir).filter((f) => f.endsWith('.spare'));
    const reused = (): number => disk.ops.filter((o) => o.op === 'rename' && o.path.endsWith('.spare')).length;
    // Two records pass a 200-byte segment.
    const queue = await open(dir, { disk, segmentBytes: 200, capacity: 100 });
    for (let n = 1; n <= 6; n++) await queue.append(entry(n, 100));
    for (const taken of await takeN(queue, 6)) await queue.ack(taken.id);
    // Segments 1 and 3 are done and kept as spares; 5 is done too, but still being written.
    await waitUntil(() => spares().length === MAX_SPARES, 5000);
    expect(segmentFiles(dir).map((f) => f.slice(-20))).toEqual(['0000000000000005.seg']);
    // Segment 7 goes over segment 1's file (5 is removed: there are spares enough): its own
    // record first, then the older record 2.
    await queue.append(entry(7, 100));
    const seventh = join(dir, '0000000000000007.seg');
    expect(reused()).toBe(1);
    expect(statSync(seventh).size).toBe(2 * RECORD);
    expect(fileRecords(seventh).map((r) => r.id)).toEqual([7]);
    // A shorter record 8 leaves the last 50 bytes of record 2 after it, until 9 seals the segment.
    await queue.append(entry(8, 50));
    expect(statSync(seventh).size).toBe(2 * RECORD);
    await queue.append(entry(9, 100));
    expect(statSync(seventh).size).toBe(2 * RECORD - 50);
    expect(fileRecords(seventh).map((r) => r.id)).toEqual([7, 8]);
    expect(reused()).toBe(2);
    // Segment 7 done: a spare again, which close removes.
    for (const taken of (await takeN(queue, 3)).slice(0, 2)) await queue.ack(taken.id);
    await waitUntil(() => spares().length === 1, 5000);
    await queue.close();
    expect(spares()).toEqual([]);
    expect(segmentFiles(dir).map((f) => f.slice(-20))).toEqual(['0000000000000009.seg']);
    const reopened = await open(dir, { capacity: 100 });
    expect(reopened.stats().recovery).toMatchObject({ records: 1, corruptRecords: 0, corruptBytes: 0, tornBytes: 0 });
    expect(ns(await takeN(reopened, 1))).toEqual([9]);
    expect(reopened.stats()).toMatchObject({ requests: 1, inFlight: 1 });
    await reopened.close();
  });

  it.each([false, true])('after a crash finds a reused newest segment\'s own records, never the older ones after them; a write of its own cut off there counts as torn (%s)', async (cutOff) => {
    const dir = newDir();
    const disk = testDisk();
    const queue = await open(dir, { disk, segmentBytes: 200, capacity: 100 });
    for (let n = 1; n <= 4; n++) await queue.append(entry(n, 100));
    for (const taken of await takeN(queue, 4)) await queue.ack(taken.id);
    // 5 seals segment 3 and goes over segment 1's file; then segment 3's file is a spare.
    await queue.append(entry(5, 100));
    await queue.append(entry(6, 100));
    await waitUntil(() => readdirSync(dir).some((f) => f.endsWith('.spare')), 5000);
    // 7 seals segment 5 and goes over segment 3's file: record 7, the last 50 bytes of record 3, record 4.
    await queue.append(entry(7, 50));
    const seventh = join(dir, '0000000000000007.seg');
    expect(statSync(seventh).size).toBe(2 * RECORD);
    expect(fileRecords(seventh).map((r) => r.id)).toEqual([7]);
    // Segment 5 done: a spare when the process dies, which the next open removes.
    for (const taken of await takeN(queue, 2)) await queue.ack(taken.id);
    await waitUntil(() => readdirSync(dir).some((f) => f.endsWith('.spare')), 5000);
    disk.kill();
    await queue.close();
    expect(readdirSync(dir).filter((f) => f.endsWith('.spare'))).toHaveLength(1);
    if (cutOff) {
      // The first 20 bytes of record 8's header, over the rest of record 3.
      const buf = readFileSync(seventh);
      cutOffHeader(8, RECORD).copy(buf, RECORD - 50);
      writeFileSync(seventh, buf);
    }
    const reopened = await open(dir, { capacity: 100 });
    expect(readdirSync(dir).filter((f) => f.endsWith('.spare'))).toEqual([]);
    expect(reopened.stats().recovery).toMatchObject({ records: 1, corruptRecords: 0, corruptBytes: 0, tornBytes: cutOff ? 50 : 0 });
    expect(statSync(seventh).size).toBe(RECORD - 50);
    expect(ns(await takeN(reopened, 1))).toEqual([7]);
    expect(reopened.stats()).toMatchObject({ requests: 1, inFlight: 1 });
    await reopened.close();
  });

  it('never writes over a segment whose failed write could not be cut off: once done it is removed, and what that write left never comes back', async () => {
    const dir = newDir();
    const base = testDisk();
    let writes = 0;
    let truncateFails = false;
    let release: (() => void) | undefined;
    // The second write lands whole and then fails (a full disk), and cutting it off fails too.
    const disk: QueueDisk = {
      ...base,
      open: async (path, mode) => {
        const file = await base.open(path, mode);
        return {
          ...file,
          writev: async (buffers, position) => {
            const written = await file.writev(buffers, position);
            if (path.endsWith('.seg') && ++writes === 2) throw errnoError('ENOSPC');
            return written;
          },
          truncate: async (length) => {
            if (truncateFails) throw errnoError('EIO');
            return file.truncate(length);
          },
        };
      },
    };
    const queue = await open(dir, { disk, segmentBytes: 200, capacity: 100 });
    // The first write waits, so that the next three are written together.
    base.hold = (op, path) => (op === 'writev' && path.endsWith('.seg') && release === undefined ? new Promise<void>((resolve) => (release = resolve)) : undefined);
    const first = queue.append(entry(1, 100));
    await waitUntil(() => release !== undefined, 5000);
    truncateFails = true;
    const refused = Promise.allSettled([2, 3, 4].map((n) => queue.append(entry(n, 100))));
    release?.();
    expect(await first).toBe(1);
    expect((await refused).map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    // Records 2-4 are whole in segment 1, past its end. Done, it is sealed, cannot be cut, and goes.
    for (const taken of await takeN(queue, 1)) await queue.ack(taken.id);
    expect(await queue.append(entry(5, 300))).toBe(2);
    truncateFails = false;
    await waitUntil(() => !existsSync(join(dir, '0000000000000001.seg')), 5000);
    expect(readdirSync(dir).filter((f) => f.endsWith('.spare'))).toEqual([]);
    // Segment 3 is a new file; over segment 1's, record 4 of the failed write would have followed it.
    expect(await queue.append(entry(6, 100))).toBe(3);
    base.kill();
    await queue.close();
    const reopened = await open(dir, { capacity: 100 });
    expect(reopened.stats().recovery).toMatchObject({ records: 2, corruptRecords: 0, corruptBytes: 0 });
    expect(ns(await takeN(reopened, 2))).toEqual([5, 6]);
    expect(reopened.stats()).toMatchObject({ requests: 2, inFlight: 2 });
    await reopened.close();
  });

  it('replaces the acknowledgement log by a snapshot once it grows; acknowledgements stay written when the snapshot fails', async () => {
    const dir = newDir();
    const disk = testDisk();
    const queue = await open(dir, { disk, ackLogBytes: 100, capacity: 100 });
    for (let n = 1; n <= 20; n++) await queue.append(entry(n));
    const takeAck = async (count: number): Promise<void> => {
      for (let i = 0; i < count; i++) await queue.ack(((await queue.take()) as TakenEntry<Meta>).id);
    };
    const logSize = (): number => statSync(join(dir, 'acks.log')).size;
    // Every frame here is 28 bytes (one range). The write that takes the log past 100 bytes
    // starts a snapshot after its own acknowledgement resolved; the next one is written after it.
    expect(logSize()).toBe(28);
    await takeAck(3);
    expect(logSize()).toBe(28 * 4);
    await takeAck(2);
    expect(logSize()).toBe(28 * 2);
    // The next two snapshots fail: the ones after the 3rd and the 4th of these.
    let failing = 2;
    disk.fault = (op) => (op === 'rename' && failing-- > 0 ? 'EIO' : undefined);
    await takeAck(4);
    expect(logSize()).toBe(28 * 6);
    // The 1st is written after the failed snapshot, and makes one that works; the 2nd follows it.
    await takeAck(2);
    expect(logSize()).toBe(28 * 2);
    await queue.close();
    const again = await open(dir);
    expect(again.stats().requests).toBe(9);
    expect(ns(await takeN(again, 1))).toEqual([12]);
    await again.close();
  });

  it('an acknowledgement that cannot be written is refused with QueueStorageError, leaves the queue at once, and is written with the next one', async () => {
    const dir = newDir();
    const disk = testDisk();
    const queue = await open(dir, { disk });
    for (let n = 1; n <= 3; n++) await queue.append(entry(n));
    await takeN(queue, 3);
    disk.fault = (op, path) => (op === 'writev' && path.endsWith('acks.log') ? 'ENOSPC' : undefined);
    const refused = await queue.ack(1).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(QueueStorageError);
    expect(refused).toMatchObject({ code: 'QUEUE_STORAGE_FAILED', retryable: true, errno: 'ENOSPC' });
    expect(queue.stats()).toMatchObject({ requests: 2, inFlight: 2 });
    disk.fault = undefined;
    await queue.ack(2);
    await queue.close();
    const again = await open(dir);
    expect(ns(await takeN(again, 1))).toEqual([3]);
    expect(again.stats().requests).toBe(1);
    await again.close();
  });
});

describe('disk queue: reading', () => {
  it('hands out what it just wrote from memory, the appended buffer itself, up to FRESH_BYTES; reads the rest and what is given back from disk', async () => {
    const disk = testDisk();
    const queue = await open(newDir(), { disk });
    const big = FRESH_BYTES / 4;
    const appended = Array.from({ length: 6 }, (_, i) => entry(i + 1, big));
    for (const e of appended) await queue.append(e);
    const reads = (): number => disk.ops.filter((o) => o.op === 'read').length;
    const first = await takeN(queue, 4);
    expect(ns(first)).toEqual([1, 2, 3, 4]);
    first.forEach((taken, i) => expect(taken.payload).toBe(appended[i]?.payload));
    expect(reads()).toBe(0);
    // The fifth did not fit in memory when it was written.
    const rest = await takeN(queue, 2);
    expect(ns(rest)).toEqual([5, 6]);
    expect(reads()).toBeGreaterThan(0);
    rest.forEach((taken, i) => expect(Buffer.from(taken.payload).equals(appended[i + 4]?.payload as Buffer)).toBe(true));
    // Given back: read from disk again, the same bytes.
    const before = reads();
    queue.nack(2);
    const [again] = await takeN(queue, 1);
    expect(ns([again])).toEqual([2]);
    expect(reads()).toBeGreaterThan(before);
    expect(Buffer.from(again?.payload ?? []).equals(appended[1]?.payload as Buffer)).toBe(true);
    await queue.close();
  });

  it('refuses a take with QueueStorageError when the disk cannot be read, and hands the same entry to the next take', async () => {
    const dir = newDir();
    const first = await open(dir);
    for (let n = 1; n <= 2; n++) await first.append(entry(n));
    await first.close();
    const disk = testDisk();
    const queue = await open(dir, { disk });
    disk.fault = (op) => (op === 'read' ? 'EIO' : undefined);
    await expect(queue.take()).rejects.toMatchObject({ code: 'QUEUE_STORAGE_FAILED', errno: 'EIO' });
    disk.fault = undefined;
    const [taken] = await takeN(queue, 1);
    expect(ns([taken])).toEqual([1]);
    // The same for an entry given back.
    queue.nack(1);
    disk.fault = (op) => (op === 'read' ? 'EIO' : undefined);
    await expect(queue.take()).rejects.toMatchObject({ errno: 'EIO' });
    disk.fault = undefined;
    expect(ns(await takeN(queue, 2))).toEqual([1, 2]);
    expect(queue.stats()).toMatchObject({ requests: 2, inFlight: 2, corruptRecords: 0 });
    await queue.close();
  });
});

describe('disk queue: records kept in memory', () => {
  it('keeps FRESH_RECORDS records at most, however small: the next is read back from disk', async () => {
    const disk = testDisk();
    const queue = await open(newDir(), { disk, capacity: 2 * FRESH_RECORDS });
    const reads = (): number => disk.ops.filter((o) => o.op === 'read').length;
    const appended = Array.from({ length: FRESH_RECORDS + 2 }, (_, i) => entry(i + 1));
    await Promise.all(appended.map((e) => queue.append(e)));
    const kept = await takeN(queue, FRESH_RECORDS);
    kept.forEach((taken, i) => expect(taken.payload).toBe(appended[i]?.payload));
    expect(reads()).toBe(0);
    const rest = await takeN(queue, 2);
    expect(ns(rest)).toEqual([FRESH_RECORDS + 1, FRESH_RECORDS + 2]);
    expect(rest[0]?.payload).not.toBe(appended[FRESH_RECORDS]?.payload);
    expect(reads()).toBeGreaterThan(0);
    await queue.close();
  });

  it('hands out from memory across a new segment, and again once what it kept was taken (room comes back)', async () => {
    const disk = testDisk();
    // Every record is past segmentBytes: each starts a segment of its own.
    const queue = await open(newDir(), { disk, segmentBytes: 3 * RECORD });
    const reads = (): number => disk.ops.filter((o) => o.op === 'read').length;
    const big = FRESH_BYTES / 2;
    for (let round = 0; round < 3; round++) {
      const appended = [entry(2 * round + 1, big), entry(2 * round + 2, big)];
      for (const e of appended) await queue.append(e);
      const taken = await takeN(queue, 2);
      taken.forEach((t, i) => expect(t.payload).toBe(appended[i]?.payload));
      for (const t of taken) await queue.ack(t.id);
    }
    // Each round fills FRESH_BYTES: had taking not given the room back, the later rounds would be read back.
    expect(reads()).toBe(0);
    expect(new Set(disk.ops.filter((o) => o.op === 'open' && o.path.endsWith('.seg')).map((o) => o.path)).size).toBe(6);
    await queue.close();
  });
});

describe('disk queue: the directory', () => {
  it('has one writer: a second open waits its timeout, then QueueLockedError names the holder; once closed it opens', async () => {
    const dir = newDir();
    const holder = await open(dir, { owner: 'exporter otlp_http/a logs' });
    const started = Date.now();
    const refused = await open(dir, { lockTimeoutMs: 150 }).catch((error: unknown) => error);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(refused).toBeInstanceOf(QueueLockedError);
    expect(refused).toMatchObject({ code: 'QUEUE_LOCKED', retryable: false, holder: { pid: process.pid, owner: 'exporter otlp_http/a logs' } });
    expect((refused as Error).message).toMatch(new RegExp(`^the sending queue in ${dir} is already open in pid ${process.pid} on host .+ \\(exporter otlp_http/a logs, since .+\\); waited \\d+ ms`));
    const waiting = open(dir, { lockTimeoutMs: 10_000 });
    await holder.close();
    await (await waiting).close();
  });

  it('refuses a directory it cannot use with QueueDirectoryError', async () => {
    const file = join(ROOT, 'a-file');
    writeFileSync(file, 'x');
    const refused = await open(join(file, 'queue')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(QueueDirectoryError);
    expect(refused).toMatchObject({ code: 'QUEUE_DIRECTORY_UNUSABLE', retryable: false });
    expect((refused as Error).message).toBe(`the sending queue cannot use ${file}/queue: it could not be created: ENOTDIR: not a directory, mkdir '${file}/queue'`);
  });
});

describe('disk queue: damage', () => {
  async function filled(count: number, options: Partial<DiskQueueOptions> = {}): Promise<string> {
    const dir = newDir();
    const queue = await open(dir, { capacity: 100, ...options });
    for (let n = 1; n <= count; n++) await queue.append(entry(n, 100));
    await queue.close();
    return dir;
  }

  function flip(file: string, at: number): void {
    const buf = readFileSync(file);
    buf[at] = (buf[at] as number) ^ 0x40;
    writeFileSync(file, buf);
  }

  it('sets a damaged record aside at open, counts and logs it once, keeps the rest; the next start finds it clean', async () => {
    const dir = await filled(4);
    const [file] = segmentFiles(dir) as [string];
    const original = readFileSync(file);
    const [, second] = fileRecords(file);
    flip(file, (second?.at as number) + 60);
    const { logger, lines } = memoryLogger();
    const queue = await open(dir, { logger });
    expect(queue.stats().recovery).toEqual({ segments: 1, records: 3, corruptRecords: 1, corruptBytes: RECORD, tornBytes: 0, unreadableSegments: 0, ackLogDamagedBytes: 0 });
    const warned = lines.filter((l) => l['level'] === 'warn');
    expect(warned.map((l) => [l['msg'], l['corruptRecords'], l['corruptBytes']])).toEqual([
      ['Sending queue found damage on disk at start: the intact records are kept, the damaged ones set aside under corrupt/', 1, RECORD],
    ]);
    expect(ns(await takeN(queue, 3))).toEqual([1, 3, 4]);
    await queue.close();
    // The damaged file as it was, for a look.
    const kept = readFileSync(join(dir, 'corrupt', '0000000000000001.seg'));
    expect([kept.length, kept.equals(original)]).toEqual([original.length, false]);
    const again = memoryLogger();
    const reopened = await open(dir, { logger: again.logger });
    expect(reopened.stats().recovery).toMatchObject({ records: 3, corruptRecords: 0, corruptBytes: 0 });
    expect(again.lines.filter((l) => l['level'] === 'warn')).toEqual([]);
    expect(ns(await takeN(reopened, 3))).toEqual([1, 3, 4]);
    await reopened.close();
  });

  it('cuts a torn end off the newest segment at open: counted as torn bytes, not as lost records', async () => {
    const dir = await filled(3);
    const [file] = segmentFiles(dir) as [string];
    writeFileSync(file, readFileSync(file).subarray(0, RECORD * 2 + 50));
    const queue = await open(dir);
    expect(queue.stats().recovery).toMatchObject({ records: 2, corruptRecords: 0, tornBytes: 50 });
    expect(statSync(file).size).toBe(RECORD * 2);
    // The torn record's id is given again: its append never resolved.
    expect(await queue.append(entry(9))).toBe(3);
    await queue.close();
  });

  it('skips a record damaged after open when reading it: counted, logged, and gone after a restart', async () => {
    const dir = await filled(3);
    const { logger, lines } = memoryLogger();
    const queue = await open(dir, { logger });
    const [file] = segmentFiles(dir) as [string];
    flip(file, RECORD + 100);
    expect(ns(await takeN(queue, 2))).toEqual([1, 3]);
    expect(queue.stats()).toMatchObject({ corruptRecords: 1, requests: 2 });
    expect(lines.filter((l) => l['level'] === 'error').map((l) => [l['msg'], l['records']])).toEqual([['Sending queue records found damaged while reading; set aside', 1]]);
    await queue.close();
    const again = await open(dir);
    expect(again.stats().recovery).toMatchObject({ records: 2, corruptRecords: 0 });
    expect(ns(await takeN(again, 2))).toEqual([1, 3]);
    await again.close();
  });

  it('with compaction on start rewrites a partly acknowledged segment to hold only what is left', async () => {
    const dir = await filled(4);
    const queue = await open(dir);
    await takeN(queue, 3);
    await queue.ack(1);
    await queue.ack(3);
    await queue.close();
    const [file] = segmentFiles(dir) as [string];
    expect(statSync(file).size).toBe(RECORD * 4);
    await (await open(dir)).close();
    expect(statSync(file).size).toBe(RECORD * 4);
    const compacted = await open(dir, { compactOnStart: true });
    expect(fileRecords(file).map((r) => r.id)).toEqual([2, 4]);
    expect(ns(await takeN(compacted, 2))).toEqual([2, 4]);
    await compacted.close();
    expect(existsSync(join(dir, 'corrupt'))).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['0000000000000001.seg', 'acks.log', 'lock']);
  });
});
