// The store's checkpointer: copies committed pages from the WAL into the database file on a
// thread of its own. Left to the writer, a checkpoint (and its fsyncs) would run inside a commit
// every few megabytes and hold ingest meanwhile (measured: a third of the insert time).
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

const { path, intervalMs } = workerData as { path: string; intervalMs: number };
const db = new DatabaseSync(path, { timeout: 1000 });

const timer = setInterval(() => {
  try {
    // PASSIVE never waits for the writer or for readers: it copies what it can now.
    db.exec('PRAGMA wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
}, intervalMs);

parentPort?.on('message', (message: { stop?: true }) => {
  if (message.stop !== true) return;
  clearInterval(timer);
  db.close();
  parentPort?.postMessage({ stopped: true });
});
