// The read API's aggregate paths (the web viewer's counts, summaries and series) → SQL on the
// store's tables. Each groups in SQLite over the rows of a bounded range, found by the
// (project, time), (project, service, time) and (project, metric name, time) indexes; what comes
// back is the answer's rows alone, written out as JSON text.
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { AttributeMatch, ErrorGroupsQuery, LogCountsQuery, MetricNamesQuery, MetricSeriesQuery, TraceSummariesQuery, ViewQuery } from '../../query/params.js';
import { conditions, id, int, LOG_COLUMNS, logJson, metricJson, pointValues, str, type Row } from './read.js';

type Params = Record<string, SQLInputValue>;

function statement(db: DatabaseSync, sql: string, params: Params): Iterable<Row> {
  const prepared = db.prepare(sql);
  prepared.setReadBigInts(true);
  return prepared.iterate(params) as Iterable<Row>;
}

/** The answer's rows of an aggregate query, as they are made. */
export function readView(db: DatabaseSync, project: string, query: ViewQuery): Iterable<string> {
  switch (query.kind) {
    case 'log_counts':
      return logCounts(db, project, query);
    case 'trace_summaries':
      return traceSummaries(db, project, query);
    case 'metric_names':
      return metricNames(db, project, query);
    case 'metric_series':
      return metricSeries(db, project, query);
    case 'error_groups':
      return errorGroups(db, project, query);
  }
}

/** The bands of severity numbers (the log data model's ranges), by band number: 1-4 → 1, ..., 21-24 → 6; else 0. */
const BANDS = ['unspecified', 'trace', 'debug', 'info', 'warn', 'error', 'fatal'];
const BAND = 'CASE WHEN severity_number BETWEEN 1 AND 24 THEN (severity_number + 3) / 4 ELSE 0 END';

function* logCounts(db: DatabaseSync, project: string, query: LogCountsQuery): Generator<string> {
  const { where, params } = conditions('logs', project, query);
  const rows = statement(
    db,
    `SELECT ($from + (ts - $from) / $step * $step) AS bucket, ${BAND} AS band, count(*) AS n FROM logs WHERE ${where} GROUP BY bucket, band ORDER BY bucket, band`,
    { ...params, step: query.step },
  );
  for (const r of rows) yield `{"time_unix_nano":"${String(r['bucket'])}","severity":"${BANDS[int(r['band'])] as string}","count":${int(r['n'])}}`;
}

// A trace's spans within the range, looked up by its id: the planner would otherwise walk the
// (project, start) index for them, the whole range once per trace.
const TRACE_SPANS = 'spans x INDEXED BY spans_trace_id WHERE x.trace_id = t.trace_id AND x.project = $project AND x.start_time_unix_nano >= $from AND x.start_time_unix_nano < $to';

function* traceSummaries(db: DatabaseSync, project: string, query: TraceSummariesQuery): Generator<string> {
  const { where, params } = conditions('traces', project, { from: query.from, to: query.to });
  const named: Params = { ...params, limit: query.limit };
  const having: string[] = [];
  if (query.service !== undefined) {
    having.push('sum(service_name = $service) > 0');
    named['service'] = query.service;
  }
  if (query.errors) having.push('sum(status_code = 2) > 0');
  if (query.minDuration !== undefined) {
    having.push('max(end_time_unix_nano) - min(start_time_unix_nano) >= $min_duration');
    named['min_duration'] = query.minDuration;
  }
  if (query.name !== undefined) {
    // Only a trace with a span of that name can have a root of that name: the roots are looked up for those alone.
    having.push('sum(name = $name) > 0');
    named['name'] = query.name;
  }
  // Without a root name to match, the newest traces are chosen before their roots are looked up.
  const first = query.name === undefined ? 'ORDER BY started DESC, trace_id LIMIT $limit' : '';
  const rows = statement(
    db,
    `WITH t AS (
       SELECT trace_id, min(start_time_unix_nano) AS started, max(end_time_unix_nano) AS ended, count(*) AS spans, sum(status_code = 2) AS errors
       FROM spans WHERE ${where} GROUP BY trace_id ${having.length > 0 ? `HAVING ${having.join(' AND ')}` : ''} ${first}
     ), rooted AS (
       SELECT t.*, (SELECT x.rowid FROM ${TRACE_SPANS} ORDER BY x.parent_span_id IS NOT NULL, x.start_time_unix_nano, x.rowid LIMIT 1) AS root FROM t
     )
     SELECT t.trace_id, root.name AS root_name, root.service_name AS root_service, t.started, t.ended, t.spans, t.errors,
       (SELECT json_group_array(DISTINCT x.service_name ORDER BY x.service_name) FROM ${TRACE_SPANS}) AS services
     FROM rooted t JOIN spans root ON root.rowid = t.root ${query.name === undefined ? '' : 'WHERE root.name = $name'}
     ORDER BY t.started DESC, t.trace_id LIMIT $limit`,
    named,
  );
  for (const r of rows) {
    const start = r['started'] as bigint;
    const end = r['ended'] as bigint;
    yield (
      `{"trace_id":${id(r['trace_id'])},"root_name":${str(r['root_name'])},"root_service":${str(r['root_service'])},` +
      `"start_time_unix_nano":"${start}","end_time_unix_nano":"${end}","duration_nano":"${end > start ? end - start : 0n}",` +
      `"span_count":${int(r['spans'])},"error_count":${int(r['errors'])},"services":${String(r['services'])}}`
    );
  }
}

function* metricNames(db: DatabaseSync, project: string, query: MetricNamesQuery): Generator<string> {
  const { where, params } = conditions('metrics', project, query);
  const newest = conditions('metrics', project, query, 'x.').where;
  const rows = statement(
    db,
    // A series is a (service, attributes) of the name and type; the metric's unit, description and
    // kind are its newest point's.
    `WITH m AS (
       SELECT metric_name, type, count(DISTINCT json_array(service_name, attributes)) AS series, count(*) AS points
       FROM datapoints WHERE ${where} GROUP BY metric_name, type ORDER BY metric_name, type LIMIT $limit
     )
     SELECT m.metric_name, m.type, d.unit, d.description, d.temporality, d.is_monotonic, m.series, m.points
     FROM m JOIN datapoints d ON d.rowid = (
       SELECT x.rowid FROM datapoints x INDEXED BY datapoints_project_name_time
       WHERE ${newest} AND x.metric_name = m.metric_name AND x.type = m.type ORDER BY x.time_unix_nano DESC, x.rowid DESC LIMIT 1
     )
     ORDER BY m.metric_name, m.type`,
    { ...params, limit: query.limit },
  );
  for (const r of rows) yield `{${metricJson(r)},"series_count":${int(r['series'])},"point_count":${int(r['points'])}}`;
}

/** The condition that a series' attributes hold `match`, on json_each's row of each attribute. */
function attributeCondition(match: AttributeMatch, n: number, params: Params): string {
  params[`key${n}`] = match.key;
  switch (match.type) {
    case 'text':
      params[`value${n}`] = match.value;
      return `type = 'text' AND atom = $value${n}`;
    case 'number':
      // An integer and a double of the same value are the same JSON number.
      params[`value${n}`] = match.value;
      return `type IN ('integer', 'real') AND atom = $value${n}`;
    case 'array':
    case 'object':
      params[`value${n}`] = match.value;
      return `type = '${match.type}' AND value = json($value${n})`;
    default:
      return `type = '${match.type}'`;
  }
}

const POINT_VALUE_COLUMNS = 'type, time_unix_nano, start_time_unix_nano, value, count, sum, min, max, bucket_counts, explicit_bounds, scale, zero_count, zero_threshold, positive, negative, quantiles';

function* metricSeries(db: DatabaseSync, project: string, query: MetricSeriesQuery): Generator<string> {
  const { where, params } = conditions('metrics', project, query);
  const named: Params = { ...params, limit: query.limit, max_points: query.maxPoints };
  const having = query.attributes.map((match, n) => `EXISTS (SELECT 1 FROM json_each(attributes) WHERE key = $key${n} AND ${attributeCondition(match, n, named)})`);
  const rows = statement(
    db,
    // The series first (their metric fields the newest point's), then the newest max_points of each.
    `WITH s AS (
       SELECT service_name, type, attributes, max(time_unix_nano) AS newest, metric_name, unit, description, temporality, is_monotonic,
         row_number() OVER (ORDER BY service_name, attributes, type) AS series
       FROM datapoints WHERE ${where} GROUP BY service_name, type, attributes ${having.length > 0 ? `HAVING ${having.join(' AND ')}` : ''}
       ORDER BY service_name, attributes, type LIMIT $limit
     ), p AS (
       SELECT rowid AS point, service_name, type, attributes,
         row_number() OVER (PARTITION BY service_name, type, attributes ORDER BY time_unix_nano DESC, rowid DESC) AS age,
         count(*) OVER (PARTITION BY service_name, type, attributes) AS total
       FROM datapoints WHERE ${where} AND (service_name, type, attributes) IN (SELECT service_name, type, attributes FROM s)
     )
     SELECT s.series, s.metric_name, s.unit, s.description, s.temporality, s.is_monotonic, s.service_name, s.attributes, p.total, ${POINT_VALUE_COLUMNS.replaceAll(/(\w+)/g, 'd.$1')}
     FROM s JOIN p USING (service_name, type, attributes) JOIN datapoints d ON d.rowid = p.point
     WHERE p.age <= $max_points ORDER BY s.series, d.time_unix_nano, d.rowid`,
    named,
  );
  // A series' rows come together, oldest point first, each carrying the series' fields.
  let series: bigint | undefined;
  let out = '';
  let end = '';
  for (const r of rows) {
    if (r['series'] !== series) {
      if (series !== undefined) yield out + end;
      series = r['series'] as bigint;
      out = `{${metricJson(r)},"service_name":${str(r['service_name'])},"attributes":${String(r['attributes'])},"points":[{${pointValues(r)}}`;
      end = `],"truncated":${(r['total'] as bigint) > query.maxPoints ? 'true' : 'false'}}`;
    } else {
      out += `,{${pointValues(r)}}`;
    }
  }
  if (series !== undefined) yield out + end;
}

/** An exception attribute of a log as text: a string as itself, another value as its JSON text, none as "". */
const exceptionText = (key: string): string =>
  `coalesce(CASE json_type(attributes, '$."${key}"') WHEN 'text' THEN attributes ->> '$."${key}"' ELSE attributes -> '$."${key}"' END, '')`;
const TYPE = exceptionText('exception.type');
const MESSAGE = exceptionText('exception.message');
// The substring test first: it passes over most logs' attributes without parsing them.
const HAS_EXCEPTION = `instr(attributes, '"exception.') > 0 AND (json_type(attributes, '$."exception.type"') IS NOT NULL OR json_type(attributes, '$."exception.message"') IS NOT NULL)`;

function* errorGroups(db: DatabaseSync, project: string, query: ErrorGroupsQuery): Generator<string> {
  const { where, params } = conditions('logs', project, query);
  const latest = `${conditions('logs', project, { service: query.service }).where} AND ts = g.last`;
  const rows = statement(
    db,
    // By bucket and service first: each group's counts and services come from those few rows.
    `WITH e AS (
       SELECT ${TYPE} AS exception_type, ${MESSAGE} AS exception_message, (ts - $from) / $step AS bucket, service_name, count(*) AS n, min(ts) AS first, max(ts) AS last
       FROM logs WHERE ${where} AND ${HAS_EXCEPTION} GROUP BY exception_type, exception_message, bucket, service_name
     ), g AS (
       SELECT exception_type, exception_message, sum(n) AS n, min(first) AS first, max(last) AS last,
         json_group_array(DISTINCT service_name ORDER BY service_name) AS services
       FROM e GROUP BY exception_type, exception_message ORDER BY n DESC, last DESC, exception_type, exception_message LIMIT $limit
     ), c AS (
       SELECT exception_type, exception_message, json_group_array(json_object('time_unix_nano', CAST($from + bucket * $step AS TEXT), 'count', n) ORDER BY bucket) AS counts
       FROM (SELECT exception_type, exception_message, bucket, sum(n) AS n FROM e WHERE (exception_type, exception_message) IN (SELECT exception_type, exception_message FROM g) GROUP BY exception_type, exception_message, bucket)
       GROUP BY exception_type, exception_message
     )
     SELECT g.exception_type, g.exception_message, g.n, g.first, g.last, g.services, c.counts, ${LOG_COLUMNS.replaceAll(/(\w+)/g, 'l.$1')}
     FROM g JOIN c USING (exception_type, exception_message) JOIN logs l ON l.rowid = (
       SELECT rowid FROM logs WHERE ${latest} AND ${HAS_EXCEPTION} AND ${TYPE} = g.exception_type AND ${MESSAGE} = g.exception_message ORDER BY rowid DESC LIMIT 1
     )
     ORDER BY g.n DESC, g.last DESC, g.exception_type, g.exception_message`,
    { ...params, step: query.step, limit: query.limit },
  );
  for (const r of rows) {
    yield (
      `{"exception_type":${str(r['exception_type'])},"exception_message":${str(r['exception_message'])},"count":${int(r['n'])},` +
      `"first_time_unix_nano":"${String(r['first'])}","last_time_unix_nano":"${String(r['last'])}","services":${String(r['services'])},` +
      `"counts":${String(r['counts'])},"latest":${logJson(r)}}`
    );
  }
}
