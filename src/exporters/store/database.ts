// Opening the store's SQLite file: WAL mode, the schema, and a refusal to touch a file written by a newer otelgate.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { DDL, SCHEMA_VERSION } from './schema.js';

export interface OpenOptions {
  synchronous: 'normal' | 'full';
  busyTimeoutMs: number;
}

export function openForWriting(path: string, options: OpenOptions): DatabaseSync {
  const file = resolve(path);
  mkdirSync(dirname(file), { recursive: true });
  const db = new DatabaseSync(file, { timeout: options.busyTimeoutMs });
  try {
    db.exec('PRAGMA journal_mode = WAL');
    db.exec(`PRAGMA synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    // Inserts touch the tables' and indexes' last pages (one per project and service), and the
    // span trace-id index at random, where no cache size helps once it outgrows memory. SQLite's
    // default, about 2 MiB, measured as fast as 8 and 32 MiB for logs and spans, and every MiB of
    // cache is a MiB of RSS once warm (at 10 k records/s, RSS 8 MiB lower than with an 8 MiB cache).
    db.exec('PRAGMA cache_size = -2000');
    // Checkpoints are the checkpointer thread's (checkpointer.ts); should it fail, the writer
    // takes them back (Checkpointer's onFailure).
    db.exec('PRAGMA wal_autocheckpoint = 0');
    // When the WAL starts over, a file grown past 64 MiB (a burst) is cut back to it.
    db.exec('PRAGMA journal_size_limit = 67108864');
    const version = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
    if (version > SCHEMA_VERSION) {
      throw new Error(`${file} was written by a newer otelgate (store schema ${version}; this one knows ${SCHEMA_VERSION}); run that version, or give this one another path`);
    }
    db.exec(DDL);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/** For otelgate query: the same file, read-only, so that it never blocks or changes a running otelgate's writes. */
export function openForReading(path: string): DatabaseSync {
  const file = resolve(path);
  if (!existsSync(file)) throw new Error(`no store at ${file}: nothing has been stored yet, or the config names another path`);
  return new DatabaseSync(file, { readOnly: true, timeout: 5000 });
}
