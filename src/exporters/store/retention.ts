// Retention: rows older than their signal's retention are deleted, by their own time, in chunks
// of a few thousand rows with a turn of the event loop between them, so ingest is never held up
// for long. Runs once at start and then every `interval`.
import type { DatabaseSync } from 'node:sqlite';
import type { Signal } from '../../model/signal.js';
import { SIGNALS } from '../../model/signal.js';
import { TABLES } from './schema.js';

const ROWS_PER_CHUNK = 5_000;

const yieldToIngest = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export type RetentionMs = Record<Signal, number>;

export class Retention {
  private running: Promise<Record<Signal, number>> | undefined;
  private stopped = false;

  constructor(
    private readonly db: DatabaseSync,
    private readonly retentionMs: RetentionMs,
  ) {}

  /** One pass over every signal; a pass asked for while one runs joins it. Resolves to the rows deleted per signal. */
  pass(nowMs = Date.now()): Promise<Record<Signal, number>> {
    this.running ??= this.run(nowMs).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Stops a pass under way after its current chunk; resolves once it has. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running?.catch(() => {});
  }

  private async run(nowMs: number): Promise<Record<Signal, number>> {
    const deleted: Record<Signal, number> = { logs: 0, traces: 0, metrics: 0 };
    for (const signal of SIGNALS) {
      if (this.stopped) break;
      const keep = this.retentionMs[signal];
      if (keep === 0) continue;
      const cutoff = (BigInt(nowMs) - BigInt(Math.round(keep))) * 1_000_000n;
      const { table, time } = TABLES[signal];
      const remove = this.db.prepare(`DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE project = ? AND ${time} < ? LIMIT ${ROWS_PER_CHUNK})`);
      for (const project of this.projects(table)) {
        for (;;) {
          const { changes } = remove.run(project, cutoff);
          deleted[signal] += Number(changes);
          if (Number(changes) < ROWS_PER_CHUNK) break;
          await yieldToIngest();
          if (this.stopped) return deleted;
        }
      }
    }
    return deleted;
  }

  /** The projects with rows in a table, found by skipping through the (project, time) index rather than reading it all. */
  private projects(table: string): string[] {
    const rows = this.db
      .prepare(
        `WITH RECURSIVE p(project) AS (SELECT min(project) FROM ${table} UNION ALL SELECT (SELECT min(project) FROM ${table} WHERE project > p.project) FROM p WHERE p.project IS NOT NULL) ` +
          'SELECT project FROM p WHERE project IS NOT NULL',
      )
      .all() as { project: string }[];
    return rows.map((r) => r.project);
  }
}
