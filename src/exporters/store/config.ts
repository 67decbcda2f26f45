// Settings of the store exporter.
import Type, { type Static } from 'typebox';
import { durationMs } from '../../config/duration.js';
import type { SettingsProblem } from '../../runtime/component.js';

const retention = (fallback: string, what: string) =>
  Type.String({ format: 'duration', default: fallback, description: `How long ${what} are kept, by their own time; "0" keeps them for ever.` });

/** Longer, and every batch of a steady stream would wait longer than a client should for its answer. */
const MAX_COMMIT_INTERVAL = '1s';

export const storeSchema = Type.Object(
  {
    path: Type.String({ minLength: 1, default: './data/otelgate.db', description: 'The SQLite database file; its folder is created when missing. A relative path is relative to the working directory.' }),
    synchronous: Type.Enum(['normal', 'full'], {
      default: 'normal',
      description: 'normal: a commit survives a crash or kill -9 of otelgate; full: it also survives a power loss or an OS crash, at the cost of an fsync per commit.',
    }),
    commit_interval: Type.String({
      format: 'duration',
      default: '0',
      description:
        `How long after the last commit began a batch waits for the next, at most ${MAX_COMMIT_INTERVAL}. "0": batches handed over in one turn of the event loop share a commit, and every turn that has batches commits. Longer: batches arriving in a steady stream (many small requests) share one transaction, which costs far less CPU than one each, while a batch after a pause commits at once (so do a backlog, the end of a checkpoint and shutdown). Each is answered once its commit is done, so a client that sends one request at a time waits up to this long for each.`,
    }),
    busy_timeout: Type.String({ format: 'duration', default: '1s', description: 'How long a write waits for a lock held by another process before the request is answered 503. The wait holds all of otelgate (node:sqlite is synchronous), so keep it short.' }),
    retention: Type.Object(
      {
        logs: retention('168h', 'log records'),
        traces: retention('168h', 'spans'),
        metrics: retention('720h', 'metric data points (30 days, the interface contract)'),
        interval: Type.String({ format: 'duration', default: '1h', description: 'How often old rows are deleted; also once at start.' }),
      },
      { additionalProperties: false, default: {} },
    ),
  },
  { additionalProperties: false },
);

export type StoreConfig = Static<typeof storeSchema>;

export function validateStore(config: StoreConfig): SettingsProblem[] {
  if (durationMs(config.commit_interval) <= durationMs(MAX_COMMIT_INTERVAL)) return [];
  return [{ path: ['commit_interval'], message: `must be at most ${MAX_COMMIT_INTERVAL}: every batch may wait that long for its answer; a few milliseconds (2ms to 10ms) is enough for small requests to share commits` }];
}
