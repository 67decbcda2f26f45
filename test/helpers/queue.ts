// Test support for the sending queue: a disk layer that can play a killed process or a failing
// disk, and a reader of segment files written from the documented layout (src/queue/README.md),
// independent of the queue's own code.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeDisk, type QueueDisk, type QueueFile } from '../../src/queue/disk.js';

export type DiskOp = 'open' | 'readFile' | 'list' | 'remove' | 'rename' | 'link' | 'mkdir' | 'syncDirectory' | 'writev' | 'read' | 'truncate' | 'datasync';

export interface TestDisk extends QueueDisk {
  /** From now on nothing reaches the disk, as after kill -9: every operation fails (closing a file aside, which frees it). */
  kill(): void;
  /** Decides, for each operation, whether it fails and how (an errno code such as ENOSPC), or undefined to let it through. */
  fault: ((op: DiskOp, path: string) => string | undefined) | undefined;
  /** Decides, for each operation, whether it waits for a promise first (undefined: it goes at once). */
  hold: ((op: DiskOp, path: string) => Promise<void> | undefined) | undefined;
  /** Operations made, in order. */
  ops: { op: DiskOp; path: string }[];
}

export function errnoError(code: string, message = code): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}`), { code });
}

export function testDisk(): TestDisk {
  let dead = false;
  const disk: TestDisk = {
    fault: undefined,
    hold: undefined,
    ops: [],
    kill() {
      dead = true;
    },
    open: async (path, mode) => {
      check('open', path);
      return wrapFile(await nodeDisk.open(path, mode), path);
    },
    readFile: async (path) => (check('readFile', path), nodeDisk.readFile(path)),
    list: async (dir) => (check('list', dir), nodeDisk.list(dir)),
    remove: async (path) => (check('remove', path), nodeDisk.remove(path)),
    rename: async (from, to) => (check('rename', from), nodeDisk.rename(from, to)),
    link: async (from, to) => (check('link', from), nodeDisk.link(from, to)),
    mkdir: async (dir, mode) => (check('mkdir', dir), nodeDisk.mkdir(dir, mode)),
    syncDirectory: async (dir) => (check('syncDirectory', dir), nodeDisk.syncDirectory(dir)),
  };
  function check(op: DiskOp, path: string): void {
    disk.ops.push({ op, path });
    if (dead) throw errnoError('EIO', 'the process is gone');
    const code = disk.fault?.(op, path);
    if (code !== undefined) throw errnoError(code, `${op} ${path}`);
  }
  function wrapFile(file: QueueFile, path: string): QueueFile {
    return {
      writev: async (buffers, position) => {
        check('writev', path);
        await disk.hold?.('writev', path);
        return file.writev(buffers, position);
      },
      read: async (into, offset, length, position) => (check('read', path), file.read(into, offset, length, position)),
      truncate: async (length) => (check('truncate', path), file.truncate(length)),
      datasync: async () => (check('datasync', path), file.datasync()),
      close: () => file.close(),
    };
  }
  return disk;
}

/** One record of a segment file, read by the documented layout. */
export interface FileRecord {
  file: string;
  at: number;
  length: number;
  id: number;
  items: number;
  meta: string;
  payload: Buffer;
}

const MAGIC = Buffer.from('OGQR');

/** The whole records of one segment file in order (stops at the first thing that is not one; tests only read clean files). */
export function fileRecords(path: string): FileRecord[] {
  const buf = readFileSync(path);
  const out: FileRecord[] = [];
  let at = 0;
  while (at + 28 <= buf.length && buf.subarray(at, at + 4).equals(MAGIC)) {
    const length = buf.readUInt32LE(at + 8);
    if (at + length > buf.length) break;
    const metaLength = buf.readUInt32LE(at + 24);
    out.push({
      file: path,
      at,
      length,
      id: buf.readUInt32LE(at + 16) * 2 ** 32 + buf.readUInt32LE(at + 12),
      items: buf.readUInt32LE(at + 20),
      meta: buf.toString('utf8', at + 28, at + 28 + metaLength),
      payload: buf.subarray(at + 28 + metaLength, at + length),
    });
    at += length;
  }
  return out;
}

/** The segment files of a queue directory, oldest first. */
export function segmentFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => /^\d{16}\.seg$/.test(name))
    .sort()
    .map((name) => join(dir, name));
}
