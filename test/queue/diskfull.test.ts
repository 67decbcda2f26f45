// Storage failures under the disk queue: on a real 1 MiB tmpfs that fills up, an append is refused
// with QueueStorageError (ENOSPC), no half record stays in any file, and the queue takes entries
// again by itself once there is room, whether room comes from elsewhere or from delivering what it
// holds. An I/O error on fdatasync is refused the same way, and the next append is written; a
// read-only file system is refused at open.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueueDirectoryError, QueueStorageError } from '../../src/errors.js';
import { DiskQueue } from '../../src/queue/disk-queue.js';
import { fileRecords, segmentFiles, testDisk } from '../helpers/queue.js';

const MOUNT = mkdtempSync(join(tmpdir(), 'otelgate-queue-full-'));

/** Mounts a 1 MiB tmpfs, when this machine lets the test (root in a container that allows it). */
function mount(): string | undefined {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', MOUNT], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    return error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
  }
}

const cannotMount = mount();
if (cannotMount !== undefined) console.log(`queue disk-full test skipped: cannot mount a tmpfs here (${cannotMount}); it needs root and a mount-capable container`);

afterAll(() => {
  if (cannotMount === undefined) execFileSync('umount', [MOUNT]);
  rmSync(MOUNT, { recursive: true, force: true });
});

const ENTRY = 10 * 1024;
const entry = (n: number) => ({ payload: Buffer.alloc(ENTRY, n % 251), metadata: { n }, items: 1 });

/** Every segment file is whole records from its first byte to its last; returns their ids. */
function wholeRecords(dir: string): number[] {
  const ids: number[] = [];
  for (const file of segmentFiles(dir)) {
    const records = fileRecords(file);
    expect(records.reduce((sum, r) => sum + r.length, 0), file).toBe(statSync(file).size);
    ids.push(...records.map((r) => r.id));
  }
  return ids;
}

/** Appends until one is refused; returns the ids given and the refusal. */
async function fill(queue: DiskQueue<{ n: number }>, from: number): Promise<{ ids: number[]; refusal: unknown }> {
  const ids: number[] = [];
  for (let n = from; ; n++) {
    const outcome = await queue.append(entry(n)).then(
      (id) => ({ id }),
      (error: unknown) => ({ error }),
    );
    if ('error' in outcome) return { ids, refusal: outcome.error };
    ids.push(outcome.id);
  }
}

describe.skipIf(cannotMount !== undefined)('disk queue: disk full (1 MiB tmpfs)', () => {
  let dir: string;
  beforeAll(() => {
    dir = join(MOUNT, 'queue');
  });

  it('refuses an append with QueueStorageError ENOSPC, keeps no half record, and takes entries again once room comes from elsewhere', async () => {
    const filler = join(MOUNT, 'filler');
    writeFileSync(filler, Buffer.alloc(512 * 1024));
    const queue = await DiskQueue.open<{ n: number }>({ directory: dir, capacity: 1000, segmentBytes: 64 * 1024 });
    const { ids, refusal } = await fill(queue, 0);
    expect(refusal).toBeInstanceOf(QueueStorageError);
    expect(refusal).toMatchObject({ code: 'QUEUE_STORAGE_FAILED', retryable: true, errno: 'ENOSPC', directory: dir });
    expect(ids.length).toBeGreaterThan(10);
    // Exactly the appends that resolved are on disk, each whole.
    expect(wholeRecords(dir)).toEqual(ids);
    expect(queue.stats().requests).toBe(ids.length);
    await expect(queue.append(entry(9999))).rejects.toMatchObject({ errno: 'ENOSPC' });
    expect(wholeRecords(dir)).toEqual(ids);

    rmSync(filler);
    const next = await queue.append(entry(10_000));
    expect(next).toBe(ids.length + 1);
    expect(wholeRecords(dir)).toEqual([...ids, next]);
    await queue.close();
    const reopened = await DiskQueue.open<{ n: number }>({ directory: dir, capacity: 1000 });
    expect(reopened.stats().recovery).toMatchObject({ records: ids.length + 1, corruptRecords: 0, corruptBytes: 0, tornBytes: 0 });
    // Deliver everything, for the next case to start from an empty disk.
    for (let i = 0; i <= ids.length; i++) await reopened.ack(((await reopened.take()) as { id: number }).id);
    await reopened.close();
    await (await DiskQueue.open({ directory: dir })).close();
    expect(segmentFiles(dir)).toEqual([]);
  });

  it('full of its own entries, takes new ones again as soon as delivering them frees room; an acknowledgement written stays written', async () => {
    const queue = await DiskQueue.open<{ n: number }>({ directory: dir, capacity: 1000, segmentBytes: 64 * 1024 });
    const { ids, refusal } = await fill(queue, 0);
    expect(refusal).toMatchObject({ errno: 'ENOSPC' });
    // Delivering the oldest segments' entries removes their files, even while the
    // acknowledgement log cannot be written; an acknowledgement refused is written with a later one.
    const delivered = ids.slice(0, 30);
    const written = new Set<number>();
    for (const id of delivered) {
      const taken = await queue.take();
      expect(taken?.id).toBe(id);
      await queue.ack(id).then(
        () => written.add(id),
        (error: unknown) => expect(error).toMatchObject({ errno: 'ENOSPC' }),
      );
    }
    expect(written.size).toBeGreaterThan(0);
    const more = await fill(queue, 1000);
    expect(more.ids.length).toBeGreaterThan(10);
    expect(more.refusal).toMatchObject({ errno: 'ENOSPC' });
    const onDisk = wholeRecords(dir);
    const waiting = [...ids.slice(30), ...more.ids];
    expect(waiting.filter((id) => !onDisk.includes(id))).toEqual([]);
    await queue.close();

    // It opens on the disk still full: its lock and its acknowledgement log make do without room.
    const reopened = await DiskQueue.open<{ n: number }>({ directory: dir, capacity: 1000 });
    const after: number[] = [];
    for (let stats = reopened.stats(); stats.requests > stats.inFlight; stats = reopened.stats()) after.push(((await reopened.take()) as { id: number }).id);
    await reopened.close();
    // Nothing waiting is lost, nothing comes twice, and of what was delivered only an entry whose
    // acknowledgement was refused may come again.
    expect(waiting.filter((id) => !after.includes(id))).toEqual([]);
    expect(after.length).toBe(new Set(after).size);
    expect(after.filter((id) => written.has(id))).toEqual([]);
    expect(after.filter((id) => !waiting.includes(id) && !delivered.includes(id))).toEqual([]);
  });
});

describe.skipIf(cannotMount !== undefined)('disk queue: a read-only file system', () => {
  it('refuses to open with QueueDirectoryError saying what failed, whether its directory is there or not', async () => {
    const readOnly = mkdtempSync(join(tmpdir(), 'otelgate-queue-ro-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', readOnly]);
      mkdirSync(join(readOnly, 'there'));
      execFileSync('mount', ['-o', 'remount,ro', readOnly]);
      for (const name of ['there', 'missing']) {
        const refused = await DiskQueue.open({ directory: join(readOnly, name) }).catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(QueueDirectoryError);
        expect((refused as Error).message).toBe(
          name === 'there'
            ? `the sending queue cannot use ${readOnly}/there: no file can be created in it: EROFS: read-only file system, open '${readOnly}/there/probe.tmp'`
            : // Node's recursive mkdir says ENOENT on a read-only file system.
              `the sending queue cannot use ${readOnly}/missing: it could not be created: ENOENT: no such file or directory, mkdir '${readOnly}/missing'`,
        );
      }
    } finally {
      execFileSync('umount', [readOnly]);
      rmSync(readOnly, { recursive: true, force: true });
    }
  });
});

describe('disk queue: I/O errors', () => {
  it('refuses an append whose fdatasync fails (EIO) with nothing of it left in the file, and writes the next one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'otelgate-queue-eio-'));
    try {
      const disk = testDisk();
      const queue = await DiskQueue.open<{ n: number }>({ directory: dir, disk, fsync: true });
      await queue.append(entry(1));
      disk.fault = (op) => (op === 'datasync' ? 'EIO' : undefined);
      await expect(queue.append(entry(2))).rejects.toMatchObject({ code: 'QUEUE_STORAGE_FAILED', errno: 'EIO' });
      expect(wholeRecords(dir)).toEqual([1]);
      disk.fault = undefined;
      expect(await queue.append(entry(3))).toBe(2);
      expect(wholeRecords(dir)).toEqual([1, 2]);
      expect(fileRecords(segmentFiles(dir)[0] as string).map((r) => JSON.parse(r.meta) as unknown)).toEqual([{ n: 1 }, { n: 3 }]);
      await queue.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
