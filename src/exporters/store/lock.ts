// The store's one-writer lock: `<store>.lock` beside the database, itself a small SQLite database
// (rollback journal) in which the holder writes who it is, then keeps a write transaction open for
// as long as it writes the store. Its RESERVED lock is an fcntl lock: the OS drops it when the
// holder dies, kill -9 included, so a restart never needs a cleanup; SQLite also keeps it between
// connections of one process, so two store exporters of one otelgate on one file conflict too.
// Others can still read the holder's row (RESERVED admits readers), which names it in the refusal.
import { mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { errorMessage, StoreLockedError, type StoreHolder } from '../../errors.js';

const SQLITE_BUSY = 5;
/** How long reading and committing the holder's row may wait for each other (both take moments). */
const WAIT_FOR_READERS_MS = 5000;

export interface StoreLock {
  /** Ends the write transaction and closes the file; the next writer can start at once. Idempotent. */
  release(): void;
}

/**
 * The lock files this process holds: a refusal says "this otelgate" by this, not by pid and host,
 * which two containers (each its pid 1, on the host's name) sharing a volume would both match.
 */
const heldHere = new Set<string>();

const isBusy = (error: unknown): boolean => (error as { errcode?: unknown }).errcode === SQLITE_BUSY;

/** The row the holder wrote, or undefined while a first holder has not committed one yet. */
function readHolder(db: DatabaseSync, lockFile: string): StoreHolder | undefined {
  try {
    db.exec(`PRAGMA busy_timeout = ${WAIT_FOR_READERS_MS}`);
    const row = db.prepare('SELECT pid, host, exporter, since FROM holder').get() as { pid: number; host: string; exporter: string; since: string } | undefined;
    if (row === undefined) return undefined;
    return { pid: Number(row.pid), host: row.host, exporter: row.exporter, since: row.since, here: heldHere.has(lockFile) };
  } catch {
    return undefined;
  }
}

/** Takes the RESERVED lock, or throws StoreLockedError naming who has it. */
function begin(db: DatabaseSync, file: string, lockFile: string, exporter: string): void {
  try {
    db.exec('BEGIN IMMEDIATE');
  } catch (error) {
    throw isBusy(error) ? new StoreLockedError(file, readHolder(db, lockFile), exporter) : error;
  }
}

/**
 * Takes `file`'s lock for store exporter `exporter`, or throws StoreLockedError naming its holder.
 * The lock lives in `file`.lock, which stays when released: deleting it would let a process that
 * opened the old file and one that created a new one both hold "the" lock.
 */
export function lockStore(file: string, exporter: string): StoreLock {
  const lockFile = `${file}.lock`;
  let db: DatabaseSync | undefined;
  try {
    mkdirSync(dirname(lockFile), { recursive: true });
    // busy_timeout 0: a held lock is an answer, not something to wait for.
    db = new DatabaseSync(lockFile, { timeout: 0 });
    begin(db, file, lockFile, exporter);
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL, host TEXT NOT NULL, exporter TEXT NOT NULL, since TEXT NOT NULL)');
    db.exec('DELETE FROM holder');
    db.prepare('INSERT INTO holder (pid, host, exporter, since) VALUES (?, ?, ?, ?)').run(process.pid, hostname(), exporter, new Date().toISOString());
    // A refused newcomer may be reading the row just committed (readHolder): the commit waits for it.
    db.exec(`PRAGMA busy_timeout = ${WAIT_FOR_READERS_MS}`);
    db.exec('COMMIT');
    db.exec('PRAGMA busy_timeout = 0');
    // Between the commit and this, a newcomer may take the lock; then this one is refused, naming
    // it, so of two starts at the same moment one always wins.
    begin(db, file, lockFile, exporter);
  } catch (error) {
    db?.close();
    if (error instanceof StoreLockedError) throw error;
    throw new Error(`could not lock ${file} with ${lockFile}: ${errorMessage(error)}`, { cause: error });
  }
  const holding = db;
  let held = true;
  heldHere.add(lockFile);
  return {
    release() {
      if (!held) return;
      held = false;
      heldHere.delete(lockFile);
      try {
        holding.exec('ROLLBACK');
      } finally {
        holding.close();
      }
    },
  };
}
