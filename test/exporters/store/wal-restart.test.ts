// Under steady writes the WAL never runs dry by itself: the checkpointer has the writer hold its
// commits for a moment, copies what is left, and the writer's next transaction starts the WAL over.
import { mkdtempSync, openSync, readSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Checkpointer } from '../../../src/exporters/store/checkpointer.js';
import { openForWriting } from '../../../src/exporters/store/database.js';
import { Writer } from '../../../src/exporters/store/writer.js';
import { logBatch } from '../../helpers/rows.js';
import { memoryLogger } from '../../helpers/logger.js';

/** The WAL header's checkpoint sequence number: SQLite adds one each time the WAL starts over. */
function walSequence(path: string): number {
  const fd = openSync(`${path}-wal`, 'r');
  try {
    const header = Buffer.alloc(16);
    readSync(fd, header, 0, 16, 0);
    return header.readUInt32BE(12);
  } finally {
    closeSync(fd);
  }
}

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

describe('store WAL restart', () => {
  it('starts the WAL over under steady writes: the writer holds for the checkpointer, and every batch is stored', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'otelgate-wal-')), 'store.db');
    const db = openForWriting(path, { synchronous: 'normal', busyTimeoutMs: 1000 });
    const writer = new Writer(db);
    const moments = { holds: 0, releases: 0 };
    const holdable = {
      hold: () => {
        moments.holds++;
        writer.hold();
      },
      release: () => {
        moments.releases++;
        writer.release();
      },
    };
    const { logger, lines } = memoryLogger();
    const checkpointer = new Checkpointer(path, { intervalMs: 50, restartFrames: 40 }, logger, holdable, () => {
      throw new Error('the checkpointer thread failed');
    });
    stops.push(async () => {
      await checkpointer.stop();
      writer.close();
      db.close();
    });

    await writer.write(logBatch(200, 'p'));
    const sequence = walSequence(path);
    // Writes never pause for long enough for the WAL to run dry on its own; they go on until it has
    // started over twice, however long a loaded machine takes (the 20 s are for a WAL that never does).
    const deadline = performance.now() + 20_000;
    let batches = 1;
    while (walSequence(path) < sequence + 2 && performance.now() < deadline) {
      await writer.write(logBatch(200, 'p'));
      batches++;
    }

    expect(walSequence(path)).toBeGreaterThanOrEqual(sequence + 2);
    expect(moments.holds).toBeGreaterThanOrEqual(2);
    // Every hold was let go: a held writer never stays held.
    expect(moments.releases).toBe(moments.holds);
    expect(Number((db.prepare('SELECT count(*) AS n FROM logs').get() as { n: number }).n)).toBe(batches * 200);
    expect(lines.filter((l) => l['level'] !== 'info')).toEqual([]);
  });
});
