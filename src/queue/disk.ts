// The few file operations the queue makes, all asynchronous, behind one interface: the queue uses
// Node's fs, and tests put a layer in between that fails on purpose (disk full, I/O errors) or
// plays a process that has died (nothing it asks for reaches the disk any more).
import { link, mkdir, open, readdir, readFile, rename, rm, type FileHandle } from 'node:fs/promises';

export interface QueueFile {
  /** Writes every buffer in order at `position`; resolves with the bytes written, which may be fewer. */
  writev(buffers: Uint8Array[], position: number): Promise<number>;
  read(into: Uint8Array, offset: number, length: number, position: number): Promise<number>;
  truncate(length: number): Promise<void>;
  datasync(): Promise<void>;
  close(): Promise<void>;
}

export interface QueueDisk {
  /** `r`: read an existing file; `w`: create or empty a file to write; `r+`: write an existing file. */
  open(path: string, mode: 'r' | 'w' | 'r+'): Promise<QueueFile>;
  readFile(path: string): Promise<Buffer>;
  list(directory: string): Promise<string[]>;
  /** Removes a file; one already gone is no error. */
  remove(path: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  /** A second name for a file (a hard link); an existing `to` is replaced first. */
  link(from: string, to: string): Promise<void>;
  /** Creates the directory and its parents with `mode` (minus the umask); an existing one is no error. */
  mkdir(directory: string, mode?: number): Promise<void>;
  /** Makes the directory's entries (files created, renamed, removed) durable. */
  syncDirectory(directory: string): Promise<void>;
}

class NodeFile implements QueueFile {
  constructor(private readonly handle: FileHandle) {}
  async writev(buffers: Uint8Array[], position: number): Promise<number> {
    return (await this.handle.writev(buffers, position)).bytesWritten;
  }
  async read(into: Uint8Array, offset: number, length: number, position: number): Promise<number> {
    return (await this.handle.read(into, offset, length, position)).bytesRead;
  }
  truncate(length: number): Promise<void> {
    return this.handle.truncate(length);
  }
  datasync(): Promise<void> {
    return this.handle.datasync();
  }
  close(): Promise<void> {
    return this.handle.close();
  }
}

export const nodeDisk: QueueDisk = {
  async open(path, mode) {
    return new NodeFile(await open(path, mode));
  },
  readFile: (path) => readFile(path),
  list: (directory) => readdir(directory),
  remove: (path) => rm(path, { force: true }),
  rename: (from, to) => rename(from, to),
  async link(from, to) {
    await rm(to, { force: true });
    await link(from, to);
  },
  async mkdir(directory, mode) {
    await mkdir(directory, { recursive: true, ...(mode === undefined ? {} : { mode }) });
  },
  async syncDirectory(directory) {
    const handle = await open(directory, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
};

/** Writes all of `buffers` at `position`, going on after a short write. */
export async function writeFully(file: QueueFile, buffers: Uint8Array[], position: number): Promise<number> {
  let total = 0;
  for (const b of buffers) total += b.byteLength;
  let written = await file.writev(buffers, position);
  let done = written;
  while (done < total) {
    if (written === 0) throw new Error('the disk wrote nothing');
    let skip = done;
    const rest: Uint8Array[] = [];
    for (const b of buffers) {
      if (skip >= b.byteLength) {
        skip -= b.byteLength;
        continue;
      }
      rest.push(skip > 0 ? b.subarray(skip) : b);
      skip = 0;
    }
    written = await file.writev(rest, position + done);
    done += written;
  }
  return total;
}
