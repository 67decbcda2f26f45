// The store's checkpointer: copies committed pages from the WAL into the database file on a
// thread of its own. Left to the writer, a checkpoint (and its fsyncs) runs inside a commit and
// holds ingest meanwhile (measured: a third of the insert time, and commits of 100+ ms).
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

const { path, intervalMs, restartFrames } = workerData as { path: string; intervalMs: number; restartFrames: number };
// TRUNCATE holds new writes while it waits for the writer and for readers (a query on the reader
// thread may run for seconds): it waits 50 ms at most, and else is tried again next interval.
const db = new DatabaseSync(path, { timeout: 50 });
const passive = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const truncate = db.prepare('PRAGMA wal_checkpoint(TRUNCATE)');

const timer = setInterval(() => {
  try {
    // PASSIVE never waits for the writer or for readers: it copies what it can now.
    const { log } = passive.get() as { log: number };
    // Under steady writes the WAL never runs dry for the writer to start it over. Past a bound,
    // TRUNCATE makes it (and gives the disk back): it holds new writes only while it copies what
    // PASSIVE just left and syncs.
    if (log > restartFrames) truncate.get();
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
