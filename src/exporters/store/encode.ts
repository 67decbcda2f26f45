// Rows → the parameters of the store's INSERT statements. Plain loops: this runs for every stored record.
import type { Batch } from '../../model/batch.js';
import type { Resource, Scope } from '../../model/resource.js';
import type { LogRow } from '../../model/logs.js';
import type { DataPointRow, Exemplar } from '../../model/metrics.js';
import type { SpanEvent, SpanLink, SpanRow } from '../../model/traces.js';
import { anyValueJson, attributesJson, bodyText, doubleJson } from '../../model/json.js';

export type Param = string | number | bigint | Uint8Array | null;

const HEX = /^[0-9a-f]+$/;

/** A lower-case hex id of the expected length as bytes; anything else as the text it was; '' as NULL. */
export function idParam(id: string, bytes: number): Uint8Array | string | null {
  if (id === '') return null;
  return id.length === bytes * 2 && HEX.test(id) ? Buffer.from(id, 'hex') : id;
}

const MAX_TIME = 2n ** 63n - 1n;

/**
 * Times the store has held at MAX_TIME since otelgate started, read by the writer around each
 * commit (encoding is synchronous, one writer at a time) for its own metrics.
 */
export const heldTimes = { count: 0 };

/**
 * uint64 nanoseconds in SQLite's int64: a time past 2^63 - 1 (after the year 2262) is kept as the
 * largest one, in every time of a row alike (its columns and the times inside its events and
 * exemplars), so that it still sorts last and never looks old to retention. Rows keep the time as
 * sent: only the store, whose integers are signed, holds it.
 */
export function timeParam(ns: bigint): bigint {
  if (ns <= MAX_TIME) return ns;
  heldTimes.count++;
  return MAX_TIME;
}

/** The same hold, uncounted: for what is made of times that timeParam counts (a log's `ts`, a span's duration). */
const held = (ns: bigint): bigint => (ns > MAX_TIME ? MAX_TIME : ns);

interface EncodedResource {
  json: string;
  service: string;
}

// Rows share their resource by reference, so each resource is encoded once, however many rows it has.
const resources = new WeakMap<Resource, EncodedResource>();

function resourceOf(resource: Resource): EncodedResource {
  let encoded = resources.get(resource);
  if (encoded === undefined) {
    const service = resource.attributes['service.name'];
    encoded = { json: attributesJson(resource.attributes), service: typeof service === 'string' ? service : '' };
    resources.set(resource, encoded);
  }
  return encoded;
}

/** What a row's columns take from its batch. */
export type BatchHeader = Pick<Batch, 'project' | 'receivedUnixNano'>;

export const LOG_COLUMNS = 17;

export function logParams(batch: BatchHeader, row: LogRow, out: Param[]): void {
  const resource = resourceOf(row.resource);
  const scope: Scope = row.scope;
  const ts = row.timeUnixNano !== 0n ? row.timeUnixNano : row.observedTimeUnixNano !== 0n ? row.observedTimeUnixNano : batch.receivedUnixNano;
  out.push(
    batch.project,
    held(ts),
    timeParam(row.timeUnixNano),
    timeParam(row.observedTimeUnixNano),
    row.severityNumber,
    row.severityText,
    bodyText(row.body),
    attributesJson(row.attributes),
    row.droppedAttributesCount,
    resource.json,
    scope.name,
    scope.version,
    resource.service,
    idParam(row.traceId, 16),
    idParam(row.spanId, 8),
    row.flags,
    row.eventName,
  );
}

const eventJson = (e: SpanEvent): string =>
  `{"time_unix_nano":"${timeParam(e.timeUnixNano)}","name":${JSON.stringify(e.name)},"attributes":${attributesJson(e.attributes)},"dropped_attributes_count":${e.droppedAttributesCount}}`;

const linkJson = (l: SpanLink): string =>
  `{"trace_id":${JSON.stringify(l.traceId)},"span_id":${JSON.stringify(l.spanId)},"trace_state":${JSON.stringify(l.traceState)},` +
  `"attributes":${attributesJson(l.attributes)},"dropped_attributes_count":${l.droppedAttributesCount},"flags":${l.flags}}`;

export const SPAN_COLUMNS = 23;

export function spanParams(batch: BatchHeader, row: SpanRow, out: Param[]): void {
  const resource = resourceOf(row.resource);
  out.push(
    batch.project,
    idParam(row.traceId, 16),
    idParam(row.spanId, 8),
    idParam(row.parentSpanId, 8),
    row.traceState,
    row.flags,
    row.name,
    row.kind,
    timeParam(row.startTimeUnixNano),
    timeParam(row.endTimeUnixNano),
    held(row.endTimeUnixNano > row.startTimeUnixNano ? row.endTimeUnixNano - row.startTimeUnixNano : 0n),
    row.statusCode,
    row.statusMessage,
    attributesJson(row.attributes),
    row.droppedAttributesCount,
    row.events.length === 0 ? '[]' : `[${row.events.map(eventJson).join(',')}]`,
    row.droppedEventsCount,
    row.links.length === 0 ? '[]' : `[${row.links.map(linkJson).join(',')}]`,
    row.droppedLinksCount,
    resource.json,
    row.scope.name,
    row.scope.version,
    resource.service,
  );
}

const numbers = (list: readonly number[]): string => `[${list.join(',')}]`;
const doubles = (list: readonly number[]): string => `[${list.map(doubleJson).join(',')}]`;
const optional = (n: number | undefined): number | null => (n === undefined || Number.isNaN(n) ? null : n);

const exemplarJson = (e: Exemplar): string =>
  `{"time_unix_nano":"${timeParam(e.timeUnixNano)}","value":${anyValueJson(e.value)},"filtered_attributes":${attributesJson(e.filteredAttributes)},` +
  `"trace_id":${JSON.stringify(e.traceId)},"span_id":${JSON.stringify(e.spanId)}}`;

export const POINT_COLUMNS = 29;

export function pointParams(batch: BatchHeader, row: DataPointRow, out: Param[]): void {
  const resource = resourceOf(row.resource);
  const { metric } = row;
  out.push(
    batch.project,
    metric.name,
    metric.description,
    metric.unit,
    metric.type,
    metric.temporality,
    metric.isMonotonic ? 1 : 0,
    timeParam(row.timeUnixNano),
    timeParam(row.startTimeUnixNano),
  );
  switch (row.kind) {
    case 'number':
      out.push(typeof row.value === 'bigint' ? BigInt.asIntN(64, row.value) : row.value, null, null, null, null, null, null, null, null, null, null, null, null);
      break;
    case 'histogram':
      out.push(null, row.count, optional(row.sum), optional(row.min), optional(row.max), numbers(row.bucketCounts), doubles(row.explicitBounds), null, null, null, null, null, null);
      break;
    case 'exponential_histogram':
      out.push(
        null,
        row.count,
        optional(row.sum),
        optional(row.min),
        optional(row.max),
        null,
        null,
        row.scale,
        row.zeroCount,
        row.zeroThreshold,
        `{"offset":${row.positive.offset},"bucket_counts":${numbers(row.positive.bucketCounts)}}`,
        `{"offset":${row.negative.offset},"bucket_counts":${numbers(row.negative.bucketCounts)}}`,
        null,
      );
      break;
    case 'summary':
      out.push(
        null,
        row.count,
        row.sum,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        `[${row.quantiles.map((q) => `{"quantile":${doubleJson(q.quantile)},"value":${doubleJson(q.value)}}`).join(',')}]`,
      );
      break;
  }
  out.push(attributesJson(row.attributes), row.flags, row.exemplars.length === 0 ? '[]' : `[${row.exemplars.map(exemplarJson).join(',')}]`, resource.json, row.scope.name, row.scope.version, resource.service);
}
