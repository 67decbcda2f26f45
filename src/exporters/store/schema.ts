// The store's tables: one per signal, every row carrying its project. Layout choices:
// - times are INTEGER nanoseconds; a uint64 time past 2^63 - 1 (after the year 2262) is kept as 2^63 - 1;
// - trace and span ids are 16- and 8-byte BLOBs (half the size of hex text, which is what makes the
//   trace-id index cheap to maintain), NULL for none; a simple JSON id sent in another form is in
//   the log's attributes (src/simple/decode.ts), so the column holds only ids;
// - attributes, resources, events, links, buckets are JSON text in the read API's form, so
//   reading splices them into the answer without parsing;
// - indexes serve the read API: (project, time) for every query, (project, service, time),
//   (project, metric name, time), and the trace id of spans. Severity, span name, body and a log's
//   trace id are filters that scan within those: an index on random trace ids makes every insert
//   touch a random page (measured: log inserts 17 k/s with it, 134 k/s without, on a 300 k-row
//   table), and logs are the high-volume signal. A trace's spans are what a trace view looks up.
export const SCHEMA_VERSION = 1;

export const DDL = `
CREATE TABLE IF NOT EXISTS logs (
  project TEXT NOT NULL,
  ts INTEGER NOT NULL,
  time_unix_nano INTEGER NOT NULL,
  observed_time_unix_nano INTEGER NOT NULL,
  severity_number INTEGER NOT NULL,
  severity_text TEXT NOT NULL,
  body TEXT NOT NULL,
  attributes TEXT NOT NULL,
  dropped_attributes_count INTEGER NOT NULL,
  resource TEXT NOT NULL,
  scope_name TEXT NOT NULL,
  scope_version TEXT NOT NULL,
  service_name TEXT NOT NULL,
  trace_id ANY,
  span_id ANY,
  flags INTEGER NOT NULL,
  event_name TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS logs_project_ts ON logs (project, ts);
CREATE INDEX IF NOT EXISTS logs_project_service_ts ON logs (project, service_name, ts);

CREATE TABLE IF NOT EXISTS spans (
  project TEXT NOT NULL,
  trace_id BLOB NOT NULL,
  span_id BLOB NOT NULL,
  parent_span_id BLOB,
  trace_state TEXT NOT NULL,
  flags INTEGER NOT NULL,
  name TEXT NOT NULL,
  kind INTEGER NOT NULL,
  start_time_unix_nano INTEGER NOT NULL,
  end_time_unix_nano INTEGER NOT NULL,
  duration_nano INTEGER NOT NULL,
  status_code INTEGER NOT NULL,
  status_message TEXT NOT NULL,
  attributes TEXT NOT NULL,
  dropped_attributes_count INTEGER NOT NULL,
  events TEXT NOT NULL,
  dropped_events_count INTEGER NOT NULL,
  links TEXT NOT NULL,
  dropped_links_count INTEGER NOT NULL,
  resource TEXT NOT NULL,
  scope_name TEXT NOT NULL,
  scope_version TEXT NOT NULL,
  service_name TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS spans_project_start ON spans (project, start_time_unix_nano);
CREATE INDEX IF NOT EXISTS spans_project_service_start ON spans (project, service_name, start_time_unix_nano);
CREATE INDEX IF NOT EXISTS spans_trace_id ON spans (trace_id);

CREATE TABLE IF NOT EXISTS datapoints (
  project TEXT NOT NULL,
  metric_name TEXT NOT NULL,
  description TEXT NOT NULL,
  unit TEXT NOT NULL,
  type TEXT NOT NULL,
  temporality INTEGER NOT NULL,
  is_monotonic INTEGER NOT NULL,
  time_unix_nano INTEGER NOT NULL,
  start_time_unix_nano INTEGER NOT NULL,
  value ANY,
  count INTEGER,
  sum REAL,
  min REAL,
  max REAL,
  bucket_counts TEXT,
  explicit_bounds TEXT,
  scale INTEGER,
  zero_count INTEGER,
  zero_threshold REAL,
  positive TEXT,
  negative TEXT,
  quantiles TEXT,
  attributes TEXT NOT NULL,
  flags INTEGER NOT NULL,
  exemplars TEXT NOT NULL,
  resource TEXT NOT NULL,
  scope_name TEXT NOT NULL,
  scope_version TEXT NOT NULL,
  service_name TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS datapoints_project_time ON datapoints (project, time_unix_nano);
CREATE INDEX IF NOT EXISTS datapoints_project_name_time ON datapoints (project, metric_name, time_unix_nano);
CREATE INDEX IF NOT EXISTS datapoints_project_service_time ON datapoints (project, service_name, time_unix_nano);
`;

/** The table of each signal, and the column its time filter, order and retention use. */
export const TABLES = {
  logs: { table: 'logs', time: 'ts' },
  traces: { table: 'spans', time: 'start_time_unix_nano' },
  metrics: { table: 'datapoints', time: 'time_unix_nano' },
} as const;
