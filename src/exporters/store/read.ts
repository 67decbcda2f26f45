// Queries of the read API → SQL on the store's tables → rows as JSON text, newest first, always
// within one project. Stored JSON columns are spliced in as they are.
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { Signal } from '../../model/signal.js';
import type { Filters, Query } from '../../query/params.js';
import { doubleJson, intJson } from '../../model/json.js';
import { TABLES } from './schema.js';

type Value = SQLInputValue | undefined;
export type Row = Record<string, Value>;

export const str = (v: Value): string => JSON.stringify(v ?? '');
const u64 = (v: Value): string => `"${BigInt.asUintN(64, v as bigint)}"`;
export const int = (v: Value): number => Number(v);
const flag = (v: Value): string => (v === 1n ? 'true' : 'false');

/** An id column: bytes as lower-case hex, text as it was stored, NULL as "". */
export function id(v: Value): string {
  if (v instanceof Uint8Array) return `"${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}"`;
  return str(v);
}

function number(v: Value): string {
  if (v === null || v === undefined) return 'null';
  return typeof v === 'bigint' ? intJson(v) : doubleJson(v as number);
}

const HEX_TRACE = /^[0-9a-fA-F]{32}$/;

export const LOG_COLUMNS =
  'time_unix_nano, observed_time_unix_nano, severity_number, severity_text, body, attributes, dropped_attributes_count, resource, scope_name, scope_version, service_name, trace_id, span_id, flags, event_name';

export function logJson(r: Row): string {
  return (
    `{"time_unix_nano":${u64(r['time_unix_nano'])},"observed_time_unix_nano":${u64(r['observed_time_unix_nano'])},` +
    `"severity_number":${int(r['severity_number'])},"severity_text":${str(r['severity_text'])},"body":${str(r['body'])},` +
    `"attributes":${String(r['attributes'])},"dropped_attributes_count":${int(r['dropped_attributes_count'])},"resource":${String(r['resource'])},` +
    `"scope_name":${str(r['scope_name'])},"scope_version":${str(r['scope_version'])},"service_name":${str(r['service_name'])},` +
    `"trace_id":${id(r['trace_id'])},"span_id":${id(r['span_id'])},"flags":${int(r['flags'])},"event_name":${str(r['event_name'])}}`
  );
}

const SPAN_COLUMNS =
  'trace_id, span_id, parent_span_id, trace_state, flags, name, kind, start_time_unix_nano, end_time_unix_nano, duration_nano, status_code, status_message, ' +
  'attributes, dropped_attributes_count, events, dropped_events_count, links, dropped_links_count, resource, scope_name, scope_version, service_name';

function spanJson(r: Row): string {
  return (
    `{"trace_id":${id(r['trace_id'])},"span_id":${id(r['span_id'])},"parent_span_id":${id(r['parent_span_id'])},"trace_state":${str(r['trace_state'])},` +
    `"flags":${int(r['flags'])},"name":${str(r['name'])},"kind":${int(r['kind'])},"start_time_unix_nano":${u64(r['start_time_unix_nano'])},` +
    `"end_time_unix_nano":${u64(r['end_time_unix_nano'])},"duration_nano":"${String(r['duration_nano'])}","status_code":${int(r['status_code'])},` +
    `"status_message":${str(r['status_message'])},"attributes":${String(r['attributes'])},"dropped_attributes_count":${int(r['dropped_attributes_count'])},` +
    `"events":${String(r['events'])},"dropped_events_count":${int(r['dropped_events_count'])},"links":${String(r['links'])},` +
    `"dropped_links_count":${int(r['dropped_links_count'])},"resource":${String(r['resource'])},"scope_name":${str(r['scope_name'])},` +
    `"scope_version":${str(r['scope_version'])},"service_name":${str(r['service_name'])}}`
  );
}

const POINT_COLUMNS =
  'metric_name, description, unit, type, temporality, is_monotonic, time_unix_nano, start_time_unix_nano, value, count, sum, min, max, bucket_counts, ' +
  'explicit_bounds, scale, zero_count, zero_threshold, positive, negative, quantiles, attributes, flags, exemplars, resource, scope_name, scope_version, service_name';

/** A metric's fields, in the order the aggregate paths write them. */
export function metricJson(r: Row): string {
  return (
    `"metric_name":${str(r['metric_name'])},"type":${str(r['type'])},"unit":${str(r['unit'])},"description":${str(r['description'])},` +
    `"temporality":${int(r['temporality'])},"is_monotonic":${flag(r['is_monotonic'])}`
  );
}

/** A data point's times and the value fields of its type: what a series' point is. */
export function pointValues(r: Row): string {
  let out = `"time_unix_nano":${u64(r['time_unix_nano'])},"start_time_unix_nano":${u64(r['start_time_unix_nano'])}`;
  switch (r['type']) {
    case 'gauge':
    case 'sum':
      out += `,"value":${number(r['value'])}`;
      break;
    default:
      out += `,"count":${intJson(r['count'] as bigint)}`;
      if (r['sum'] !== null) out += `,"sum":${doubleJson(r['sum'] as number)}`;
      if (r['min'] !== null) out += `,"min":${doubleJson(r['min'] as number)}`;
      if (r['max'] !== null) out += `,"max":${doubleJson(r['max'] as number)}`;
      if (r['type'] === 'histogram') out += `,"bucket_counts":${String(r['bucket_counts'])},"explicit_bounds":${String(r['explicit_bounds'])}`;
      if (r['type'] === 'exponential_histogram') {
        out += `,"scale":${int(r['scale'])},"zero_count":${intJson(r['zero_count'] as bigint)},"zero_threshold":${doubleJson(r['zero_threshold'] as number)},"positive":${String(r['positive'])},"negative":${String(r['negative'])}`;
      }
      if (r['type'] === 'summary') out += `,"quantiles":${String(r['quantiles'])}`;
  }
  return out;
}

function pointJson(r: Row): string {
  return (
    `{"metric_name":${str(r['metric_name'])},"description":${str(r['description'])},"unit":${str(r['unit'])},"type":${str(r['type'])},` +
    `"temporality":${int(r['temporality'])},"is_monotonic":${flag(r['is_monotonic'])},${pointValues(r)},` +
    `"attributes":${String(r['attributes'])},"flags":${int(r['flags'])},"exemplars":${String(r['exemplars'])},` +
    `"resource":${String(r['resource'])},"scope_name":${str(r['scope_name'])},"scope_version":${str(r['scope_version'])},"service_name":${str(r['service_name'])}}`
  );
}

const SHAPES = {
  logs: { columns: LOG_COLUMNS, json: logJson },
  traces: { columns: SPAN_COLUMNS, json: spanJson },
  metrics: { columns: POINT_COLUMNS, json: pointJson },
} as const;

/**
 * The WHERE conditions of `filters` on `signal`'s table, always within `project`, with named
 * parameters ($project, $from, ...: so that a statement around them can add its own by name).
 * `table` qualifies the columns (`x.`) for a subquery that reads the table again.
 */
export function conditions(signal: Signal, project: string, filters: Filters, table = ''): { where: string; params: Record<string, SQLInputValue> } {
  const time = table + TABLES[signal].time;
  const where = [`${table}project = $project`];
  const params: Record<string, SQLInputValue> = { project };
  if (filters.from !== undefined) {
    where.push(`${time} >= $from`);
    params['from'] = filters.from;
  }
  if (filters.to !== undefined) {
    where.push(`${time} < $to`);
    params['to'] = filters.to;
  }
  if (filters.service !== undefined) {
    where.push(`${table}service_name = $service`);
    params['service'] = filters.service;
  }
  if (filters.severityMin !== undefined) {
    where.push(`${table}severity_number >= $severity_min`);
    params['severity_min'] = filters.severityMin;
  }
  if (filters.traceId !== undefined) {
    // A row's trace id is hex, stored as bytes; a simple JSON log's id as it was sent, when that is
    // not the same hex, is its attribute trace_id (src/simple/decode.ts).
    const hex = HEX_TRACE.test(filters.traceId);
    // A trace's spans are a handful found by the trace-id index; left to itself, SQLite walks the
    // (project, start) index for the order instead, the whole range (0.5 s on a million spans).
    // `+` keeps it from using the project term for an index.
    if (hex && signal === 'traces') where[0] = `+${table}project = $project`;
    where.push(!hex && signal === 'logs' ? `json_extract(${table}attributes, '$.trace_id') = $trace_id` : `${table}trace_id = $trace_id`);
    params['trace_id'] = hex ? Buffer.from(filters.traceId, 'hex') : filters.traceId;
  }
  if (filters.q !== undefined) {
    where.push(`instr(${table}body, $q) > 0`);
    params['q'] = filters.q;
  }
  if (filters.name !== undefined) {
    where.push(`${table}${signal === 'metrics' ? 'metric_name' : 'name'} = $name`);
    params['name'] = filters.name;
  }
  return { where: where.join(' AND '), params };
}

/** The SQL of a row query and its parameters (apart, so that its query plan can be looked at). */
export function rowsStatement(project: string, query: Query): { sql: string; params: Record<string, SQLInputValue> } {
  const { table, time } = TABLES[query.signal];
  const { where, params } = conditions(query.signal, project, query);
  return { sql: `SELECT ${SHAPES[query.signal].columns} FROM ${table} WHERE ${where} ORDER BY ${time} DESC, rowid DESC LIMIT $limit`, params: { ...params, limit: query.limit } };
}

/** The rows of a query as they are read, so that a caller can stop early or pass each on. */
export function* readRows(db: DatabaseSync, project: string, query: Query): Generator<string> {
  const { sql, params } = rowsStatement(project, query);
  const shape = SHAPES[query.signal];
  const statement = db.prepare(sql);
  statement.setReadBigInts(true);
  for (const row of statement.iterate(params)) yield shape.json(row as Row);
}
