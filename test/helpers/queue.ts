// Test support for the sending queue: a disk layer that can play a killed process or a failing
// disk, and a reader of segment files written from the documented layout (src/queue/README.md),
// independent of the queue's own code.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { crc32 } from 'node:zlib';
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

export const firstIdOf = (path: string): number => Number(basename(path).slice(0, 16));

/**
 * The first 20 bytes of a record's header, as a write cut off leaves them: magic, a checksum that
 * matches nothing, `length`, the id.
 */
export function cutOffHeader(id: number, length: number): Buffer {
  const header = Buffer.alloc(20);
  MAGIC.copy(header, 0);
  header.writeUInt32LE(0xdead, 4);
  header.writeUInt32LE(length, 8);
  header.writeUInt32LE(id % 2 ** 32, 12);
  header.writeUInt32LE(Math.floor(id / 2 ** 32), 16);
  return header;
}

/** The id of the record header at `at`: two u32 after magic, checksum and length, the low one first. */
const idAt = (buf: Buffer, at: number): number => buf.readUInt32LE(at + 16) * 2 ** 32 + buf.readUInt32LE(at + 12);

/** The record at `at` by the documented layout, its checksum checked when `checked`; undefined when none is there. */
function recordAt(path: string, buf: Buffer, at: number, checked = false): FileRecord | undefined {
  if (at + 28 > buf.length || !buf.subarray(at, at + 4).equals(MAGIC)) return undefined;
  const length = buf.readUInt32LE(at + 8);
  if (length < 28 || at + length > buf.length) return undefined;
  if (checked && crc32(buf.subarray(at + 8, at + length)) !== buf.readUInt32LE(at + 4)) return undefined;
  const metaLength = buf.readUInt32LE(at + 24);
  return {
    file: path,
    at,
    length,
    id: idAt(buf, at),
    items: buf.readUInt32LE(at + 20),
    meta: buf.toString('utf8', at + 28, at + 28 + metaLength),
    payload: buf.subarray(at + 28 + metaLength, at + length),
  };
}

/**
 * The records of one segment file in order: the file's own, whose ids start at the one in its
 * name (a reused file holds older records after them). Stops at the first thing that is not one;
 * checksums are not checked (tests that damage a record read it still).
 */
export function fileRecords(path: string): FileRecord[] {
  const buf = readFileSync(path);
  const firstId = firstIdOf(path);
  const out: FileRecord[] = [];
  for (let record = recordAt(path, buf, 0); record !== undefined && record.id >= firstId; record = recordAt(path, buf, record.at + record.length)) out.push(record);
  return out;
}

/**
 * The bytes open is to count as torn in the newest segment: from the end of its last whole record
 * of its own to the end of the file; in a reused file, to its first whole older record, and only
 * when a header of the segment's next record begins there (a write of its own, cut off).
 */
export function tornBytesAtOpen(path: string): number {
  const buf = readFileSync(path);
  const firstId = firstIdOf(path);
  const whole: FileRecord[] = [];
  for (let at = buf.indexOf(MAGIC); at !== -1; at = buf.indexOf(MAGIC, at + 1)) {
    const record = recordAt(path, buf, at, true);
    if (record !== undefined) whole.push(record);
  }
  const own = whole.filter((r) => r.id >= firstId);
  const last = own[own.length - 1];
  const end = last === undefined ? 0 : last.at + last.length;
  const older = whole.find((r) => r.id < firstId && r.at >= end);
  if (older === undefined) return buf.length - end;
  const nextId = last === undefined ? firstId : last.id + 1;
  const header = buf.subarray(end, Math.min(end + 20, older.at));
  const ownWrite = header.length >= 4 && header.subarray(0, 4).equals(MAGIC) && (header.length < 20 || idAt(header, 0) === nextId);
  return ownWrite ? older.at - end : 0;
}

/** The segment files of a queue directory, oldest first. */
export function segmentFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => /^\d{16}\.seg$/.test(name))
    .sort()
    .map((name) => join(dir, name));
}
