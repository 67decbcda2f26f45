// Checkpoints happen on the checkpointer thread, never in the writer's commits: the database file
// grows while the writer only appends to the WAL.
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinRegistry } from '../../../src/components.js';
import type { StoreConfig } from '../../../src/exporters/store/config.js';
import { openForWriting } from '../../../src/exporters/store/database.js';
import { storeExporterFactory } from '../../../src/exporters/store/factory.js';
import { testContext } from '../../helpers/components.js';
import { configFrom } from '../../helpers/config.js';
import { logBatch } from '../../helpers/rows.js';
import { waitUntil } from '../../helpers/wait.js';
import { consumeContext } from '../../../src/runtime/component.js';

const size = (file: string): number => statSync(file).size;

describe('store checkpoints', () => {
  it('leaves checkpoints to its own thread: the writer never copies the WAL into the database file', async () => {
    const writerOnly = join(mkdtempSync(join(tmpdir(), 'otelgate-ckpt-')), 'store.db');
    const db = openForWriting(writerOnly, { synchronous: 'normal', busyTimeoutMs: 100 });
    expect(db.prepare('PRAGMA wal_autocheckpoint').get()).toEqual({ wal_autocheckpoint: 0 });
    db.close();

    const path = join(mkdtempSync(join(tmpdir(), 'otelgate-ckpt-')), 'store.db');
    const config = configFrom(
      `receivers: {nop: }\nexporters: {store: {path: ${path}}}\nservice: {pipelines: {logs: {receivers: [nop], exporters: [store]}}}\n`,
      builtinRegistry(),
    ).components.exporter.get('store')?.config as StoreConfig;
    const exporter = storeExporterFactory.create(config, testContext('store', 'exporter').ctx);
    await exporter.start();
    try {
      const before = size(path);
      for (let i = 0; i < 20; i++) await exporter.consume(logBatch(500, 'p'), consumeContext());
      const wal = size(`${path}-wal`);
      expect(wal).toBeGreaterThan(1_000_000);
      // The checkpointer runs every second: its first passes copy the pages into the database file.
      await waitUntil(() => size(path) > before + 1_000_000);
      expect(size(path)).toBeGreaterThan(before + 1_000_000);
    } finally {
      await exporter.shutdown();
    }
  });
});
