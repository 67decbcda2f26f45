// The store's reader thread: queries run here, on a read-only connection of their own, so that a
// long scan never holds up ingest on the main thread (node:sqlite is synchronous).
import { parentPort, workerData } from 'node:worker_threads';
import { errorMessage } from '../../errors.js';
import type { ReadQuery } from '../../query/params.js';
import { openForReading } from './database.js';
import { readRows } from './read.js';
import { readView } from './views.js';

export interface ReadRequest {
  id: number;
  project: string;
  query: ReadQuery;
}

export type ReadReply = { id: number; rows: string[]; truncated: boolean } | { id: number; error: string } | { ready: true };

const { path, maxBytes } = workerData as { path: string; maxBytes: number };
const db = openForReading(path);
// Queries' time is counted from here: starting the thread is not the query's doing.
parentPort?.postMessage({ ready: true } satisfies ReadReply);

parentPort?.on('message', ({ id, project, query }: ReadRequest) => {
  let reply: ReadReply;
  try {
    const rows: string[] = [];
    let bytes = 0;
    let truncated = false;
    for (const row of query.kind === 'rows' ? readRows(db, project, query) : readView(db, project, query)) {
      if (rows.length > 0 && bytes + row.length > maxBytes) {
        truncated = true;
        break;
      }
      rows.push(row);
      bytes += row.length;
    }
    reply = { id, rows, truncated };
  } catch (error) {
    reply = { id, error: errorMessage(error) };
  }
  parentPort?.postMessage(reply);
});
