// A queue directory's one-writer lock, taken as the store takes its own (src/exporters/store/lock.ts):
// `lock` in the directory is a small SQLite database in which the holder writes who it is and then
// keeps a write transaction open. That is an fcntl lock, which the OS drops when the holder dies
// (kill -9 included), so a restart never needs a cleanup; SQLite keeps it between connections of
// one process too, so two queues of one otelgate on one directory conflict as well.
import { hostname } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { QueueLockedError, type QueueHolder } from '../errors.js';

const SQLITE_BUSY = 5;
const SQLITE_FULL = 13;
const POLL_MS = 50;
const LOCK_FILE = 'lock';

export interface QueueLock {
  /** Lets go; idempotent. */
  release(): void;
}

const isBusy = (error: unknown): boolean => (error as { errcode?: unknown }).errcode === SQLITE_BUSY;
const isFull = (error: unknown): boolean => (error as { errcode?: unknown }).errcode === SQLITE_FULL;

function readHolder(db: DatabaseSync): QueueHolder | undefined {
  try {
    const row = db.prepare('SELECT pid, host, owner, since FROM holder').get() as { pid: number; host: string; owner: string; since: string } | undefined;
    return row === undefined ? undefined : { pid: Number(row.pid), host: row.host, owner: row.owner, since: row.since };
  } catch {
    return undefined;
  }
}

/** Takes the lock once: the open database holding it, or 'busy'. Other failures throw. */
function tryLock(file: string, owner: string): DatabaseSync | 'busy' {
  const db = new DatabaseSync(file, { timeout: 0 });
  try {
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL, host TEXT NOT NULL, owner TEXT NOT NULL, since TEXT NOT NULL)');
      db.exec('DELETE FROM holder');
      db.prepare('INSERT INTO holder (pid, host, owner, since) VALUES (?, ?, ?, ?)').run(process.pid, hostname(), owner, new Date().toISOString());
      // A refused newcomer may be reading the row just written: the commit waits for it, briefly.
      db.exec('PRAGMA busy_timeout = 1000');
      db.exec('COMMIT');
      db.exec('PRAGMA busy_timeout = 0');
    } catch (error) {
      // A full disk must not keep a queue from opening (delivering is what frees room): the lock
      // is then held without the holder's row, and a refused newcomer names no one.
      if (!isFull(error)) throw error;
      // SQLite may have rolled back already.
      if (db.isTransaction) db.exec('ROLLBACK');
    }
    // Between the commit and this a newcomer may take it; then this one is the one refused.
    db.exec('BEGIN IMMEDIATE');
    return db;
  } catch (error) {
    db.close();
    if (isBusy(error)) return 'busy';
    throw error;
  }
}

/** Takes `directory`'s lock, waiting up to `timeoutMs` for another holder to let go; QueueLockedError names the holder after that. */
export async function lockQueue(directory: string, owner: string, timeoutMs: number): Promise<QueueLock> {
  const file = join(directory, LOCK_FILE);
  const started = Date.now();
  for (;;) {
    const db = tryLock(file, owner);
    if (db !== 'busy') {
      let held = true;
      return {
        release() {
          if (!held) return;
          held = false;
          try {
            db.exec('ROLLBACK');
          } finally {
            db.close();
          }
        },
      };
    }
    const waited = Date.now() - started;
    if (waited >= timeoutMs) {
      const reader = new DatabaseSync(file, { readOnly: true, timeout: 0 });
      try {
        throw new QueueLockedError(directory, readHolder(reader), waited);
      } finally {
        reader.close();
      }
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, timeoutMs - waited)));
  }
}
