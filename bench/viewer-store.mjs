// A store file of the size the viewer must stay fast on: `rows` log records, spans and data points
// (1 million each by default) in the hour before now, of 20 services, made in SQL (a few seconds a
// million) in the store's own schema, so that otelgate serves it as if it had ingested them.
//   node bench/viewer-store.mjs <path> [rows] [project]
import { rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { DatabaseSync } from 'node:sqlite';
import { DDL, SCHEMA_VERSION } from '../dist/exporters/store/schema.js';

/** Makes the store at `path`; answers the time range [from, to) its rows are in, in nanoseconds. */
export function makeViewerStore(path, rows = 1_000_000, project = 'default') {
  rmSync(path, { force: true });
  rmSync(`${path}-wal`, { force: true });
  rmSync(`${path}-shm`, { force: true });
  const db = new DatabaseSync(path);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec(DDL);
  db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
  const to = BigInt(Date.now()) * 1_000_000n;
  const from = to - 3_600_000_000_000n;
  // Row i's time: spread evenly over the hour, oldest first (the order ingest writes them in).
  const step = 3_600_000_000_000n / BigInt(rows);
  const series = `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${rows})`;
  const time = `(${from} + i * ${step})`;
  const service = `'svc-' || (i % 20)`;
  const resource = `json_object('service.name', ${service}, 'service.version', '1.4.' || (i % 3), 'host.name', 'host-' || (i % 7))`;
  db.exec('BEGIN');
  db.prepare(
    `${series} INSERT INTO logs SELECT ?, ${time}, ${time}, ${time}, (i * 7) % 25, '', ` +
      `CASE WHEN i % 100 = 0 THEN 'request failed: upstream timed out after ' || (i % 900) || ' ms' ELSE 'handled request ' || i || ' for user ' || (i % 1000) END, ` +
      `CASE WHEN i % 100 = 0 THEN json_object('http.route', '/api/items/' || (i % 50), 'exception.type', 'TimeoutError' || (i % 5), 'exception.message', 'upstream timed out', 'exception.stacktrace', 'TimeoutError: upstream timed out\n    at fetch (app.js:10:5)') ` +
      `ELSE json_object('http.route', '/api/items/' || (i % 50), 'user.id', i % 1000) END, 0, ${resource}, 'app', '1.0', ${service}, randomblob(16), randomblob(8), 1, '' FROM n`,
  ).run(project);
  // Traces of ten spans: the first the root, the others its children.
  db.prepare(
    `${series} INSERT INTO spans SELECT ?, unhex(printf('%016x%016x', 1234567, i / 10)), unhex(printf('%016x', i + 1)), ` +
      `CASE WHEN i % 10 = 0 THEN NULL ELSE unhex(printf('%016x', i - i % 10 + 1)) END, '', 1, ` +
      `CASE WHEN i % 10 = 0 THEN 'GET /api/items/' || (i % 50) ELSE 'query ' || (i % 10) END, CASE WHEN i % 10 = 0 THEN 2 ELSE 3 END, ` +
      `${time}, ${time} + 1000000 + (i % 10) * 100000, 1000000 + (i % 10) * 100000, CASE WHEN i % 97 = 0 THEN 2 ELSE 0 END, '', ` +
      `json_object('http.route', '/api/items/' || (i % 50)), 0, '[]', 0, '[]', 0, ${resource}, 'app', '1.0', ${service} FROM n`,
  ).run(project);
  // 50 metrics × 20 services, gauges and cumulative counters, a point each per series in turn.
  db.prepare(
    `${series} INSERT INTO datapoints SELECT ?, 'metric.' || (i % 50), '', CASE WHEN i % 2 = 0 THEN 'ms' ELSE '1' END, ` +
      `CASE WHEN i % 2 = 0 THEN 'gauge' ELSE 'sum' END, CASE WHEN i % 2 = 0 THEN 0 ELSE 2 END, i % 2, ${time}, ${from}, ` +
      `CASE WHEN i % 2 = 0 THEN (i % 1000) * 0.5 ELSE i / 1000 END, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, ` +
      `json_object('route', '/api/items/' || (i % 5)), 0, '[]', ${resource}, 'app', '1.0', ${service} FROM n`,
  ).run(project);
  db.exec('COMMIT');
  db.close();
  return { from, to };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [path, rows, project] = process.argv.slice(2);
  if (path === undefined) throw new Error('usage: node bench/viewer-store.mjs <path> [rows] [project]');
  const started = performance.now();
  const range = makeViewerStore(path, rows === undefined ? undefined : Number(rows), project);
  console.log(JSON.stringify({ ...range, from: String(range.from), to: String(range.to), seconds: (performance.now() - started) / 1000 }));
}
