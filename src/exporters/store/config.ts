// Settings of the store exporter.
import Type, { type Static } from 'typebox';

const retention = (fallback: string, what: string) =>
  Type.String({ format: 'duration', default: fallback, description: `How long ${what} are kept, by their own time; "0" keeps them for ever.` });

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
        'The least time from the start of one commit to the next. "0": a commit every turn of the event loop that has batches. Longer: batches arriving in a steady stream (many small requests) wait up to this long and share one transaction, which costs far less CPU than one each, while a batch after a pause commits at once; each is answered once its commit is done, so a client that sends one request at a time waits up to this long for each.',
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
