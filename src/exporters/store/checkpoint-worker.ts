// The store's checkpointer: copies committed pages from the WAL into the database file on a
// thread of its own. Left to the writer, a checkpoint (and its fsyncs) runs inside a commit and
// holds ingest meanwhile (measured: a third of the insert time, and commits of 100+ ms).
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

export type CheckpointerMessage = { hold: true } | { release: true } | { error: string } | { stopped: true };
export type WriterMessage = { held: true } | { stop: true };

const { path, intervalMs, restartFrames } = workerData as { path: string; intervalMs: number; restartFrames: number };
const db = new DatabaseSync(path, { timeout: 50 });
const passive = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const send = (message: CheckpointerMessage): void => parentPort?.postMessage(message);
let holding = false;

const checkpoint = (): { log: number; checkpointed: number } => passive.get() as { log: number; checkpointed: number };

/** Frames written during a PASSIVE below which the writer is asked to hold for the last one. */
const FEW_FRAMES = 256;
/** PASSIVE passes in a row that try to catch up with the writer before it is asked to hold anyway. */
const MAX_PASSES = 5;

const timer = setInterval(() => {
  if (holding) return;
  try {
    // PASSIVE never waits for the writer or for readers: it copies what it can now.
    let { log } = checkpoint();
    if (log <= restartFrames) return;
    // Under steady writes the WAL never runs dry for the writer to start it over. Past a bound the
    // writer is asked to hold its commits (requests still queue on its event loop) while a last
    // PASSIVE copies the pages written since, and its next transaction finds the WAL fully copied
    // and starts it over. TRUNCATE or RESTART would do the same, but the writer meets their lock
    // inside SQLite's busy handler, which sleeps its whole thread: 80-110 ms with no request
    // answered, measured. Passes that each copy what the one before left shorten the hold.
    for (let pass = 1; pass < MAX_PASSES; pass++) {
      const before = log;
      ({ log } = checkpoint());
      if (log - before < FEW_FRAMES) break;
    }
    holding = true;
    send({ hold: true });
  } catch (error) {
    send({ error: error instanceof Error ? error.message : String(error) });
  }
}, intervalMs);

parentPort?.on('message', (message: WriterMessage) => {
  if ('held' in message) {
    try {
      checkpoint();
    } catch (error) {
      send({ error: error instanceof Error ? error.message : String(error) });
    } finally {
      holding = false;
      send({ release: true });
    }
    return;
  }
  clearInterval(timer);
  db.close();
  send({ stopped: true });
});
