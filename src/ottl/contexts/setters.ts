// What statements may set in the log and span contexts (the Collector's settable paths), and the
// contexts that statements run in: the row's own, and a resource's or scope's, which read and set
// the row's resource or scope under their own names (`attributes` is the resource's there).
import type { Attributes } from '../../model/anyvalue.js';
import type { LogRow } from '../../model/logs.js';
import type { SpanEvent, SpanRow } from '../../model/traces.js';
import type { OttlContext, Setter } from '../compile.js';
import { OttlRuntimeError } from '../errors.js';
import { isMap, stored, type OttlValue } from '../values.js';
import { draft, type Drafting } from './draft.js';
import { logPaths } from './log.js';
import { spanEventPaths, spanPaths } from './span.js';
import { instant, mergedPaths, pathsUnder, resourceAndScopeSetters, tableContext, uint32, type PathTable } from './table.js';

export type LogDraft = Drafting<LogRow>;
export type SpanDraft = Drafting<SpanRow>;

type Fields<R> = { -readonly [K in keyof R]: R[K] };

const ofType =
  <R extends LogRow | SpanRow, K extends keyof R>(field: K, convert: (v: OttlValue) => R[K] | undefined): Setter<Drafting<R>> =>
  (c, v) => {
    const value = convert(v);
    // The same value again (a map changed in place) needs no new row.
    if (value !== undefined && value !== c.row[field]) (draft(c) as Fields<R>)[field] = value;
  };

export const text = (v: OttlValue): string | undefined => (typeof v === 'string' ? v : undefined);
/** An int64 into an int32 field (enums: severity, kind, status code), wrapped as Go's int32() conversion. */
export const int32 = (v: OttlValue): number | undefined => (typeof v === 'bigint' ? Number(BigInt.asIntN(32, v)) : undefined);
export const nanos = (v: OttlValue): bigint | undefined => (typeof v === 'bigint' ? v : undefined);

/** An id from bytes of its size, or from hex text of twice as many characters. */
function id(bytes: number): (v: OttlValue) => string | undefined {
  return (v) => {
    if (v instanceof Uint8Array) return v.length === bytes ? (v.every((b) => b === 0) ? '' : Buffer.from(v).toString('hex')) : undefined;
    if (typeof v !== 'string') return undefined;
    if (v === '') return '';
    if (v.length !== bytes * 2 || !/^[0-9a-fA-F]+$/.test(v)) throw new OttlRuntimeError(`${JSON.stringify(v)} is not an id of ${bytes} bytes in hex`);
    // All zeros is no id, as pdata has it: rows keep it as ''.
    return /^0+$/.test(v) ? '' : v.toLowerCase();
  };
}

export const map = (v: OttlValue): Attributes | undefined => (isMap(v) ? v : undefined);

/** Setters of a row's ids, from bytes or from hex: `prefix.name` and `prefix.name.string` for each. */
function idSetters<R extends LogRow | SpanRow>(prefix: string, ids: Record<string, [keyof R, number]>): Record<string, Setter<Drafting<R>>> {
  const out: Record<string, Setter<Drafting<R>>> = {};
  for (const [name, [field, bytes]] of Object.entries(ids)) {
    const set = ofType<R, keyof R>(field, id(bytes) as (v: OttlValue) => R[keyof R] | undefined);
    out[`${prefix}.${name}`] = set;
    out[`${prefix}.${name}.string`] = set;
  }
  return out;
}

const LOG_SETTERS: Record<string, Setter<LogDraft>> = {
  'log.attributes': ofType('attributes', map),
  'log.body': (c, v) => {
    draft(c).body = stored(v, 'set');
  },
  'log.severity_number': ofType('severityNumber', int32),
  'log.severity_text': ofType('severityText', text),
  'log.time_unix_nano': ofType('timeUnixNano', nanos),
  'log.observed_time_unix_nano': ofType('observedTimeUnixNano', nanos),
  'log.time': ofType('timeUnixNano', instant),
  'log.observed_time': ofType('observedTimeUnixNano', instant),
  'log.flags': ofType('flags', uint32),
  'log.dropped_attributes_count': ofType('droppedAttributesCount', uint32),
  'log.event_name': ofType('eventName', text),
  ...idSetters<LogRow>('log', { trace_id: ['traceId', 16], span_id: ['spanId', 8] }),
};

const SPAN_SETTERS: Record<string, Setter<SpanDraft>> = {
  'span.attributes': ofType('attributes', map),
  'span.name': ofType('name', text),
  'span.kind': ofType('kind', int32),
  'span.trace_state': ofType('traceState', text),
  'span.start_time_unix_nano': ofType('startTimeUnixNano', nanos),
  'span.end_time_unix_nano': ofType('endTimeUnixNano', nanos),
  'span.start_time': ofType('startTimeUnixNano', instant),
  'span.end_time': ofType('endTimeUnixNano', instant),
  'span.flags': ofType('flags', uint32),
  'span.dropped_attributes_count': ofType('droppedAttributesCount', uint32),
  'span.dropped_events_count': ofType('droppedEventsCount', uint32),
  'span.dropped_links_count': ofType('droppedLinksCount', uint32),
  'span.status.code': ofType('statusCode', int32),
  'span.status.message': ofType('statusMessage', text),
  ...idSetters<SpanRow>('span', { trace_id: ['traceId', 16], span_id: ['spanId', 8], parent_span_id: ['parentSpanId', 8] }),
};

/** The contexts statements of one signal run in, by the names a transform config gives them. */
export type StatementContexts<C> = Readonly<Record<string, OttlContext<C>>>;

function contextsOf<C>(row: string, table: PathTable<C>): StatementContexts<C> {
  return {
    [row]: tableContext(row, table),
    resource: tableContext('resource', pathsUnder(table, ['resource'])),
    scope: tableContext('scope', pathsUnder(table, ['resource', 'scope'])),
  };
}

export const logStatementContexts: StatementContexts<LogDraft> = contextsOf('log', { ...mergedPaths<LogDraft>(logPaths, { plain: {}, keyed: {} }), set: { ...LOG_SETTERS, ...resourceAndScopeSetters<LogRow>() } });

/**
 * A span being transformed, at one of its events: the transform sets `event` (the event that came,
 * until a first change copies it) before running span event statements.
 */
export interface SpanEventDraft extends SpanDraft {
  event: SpanEvent;
  eventDrafted: boolean;
}

/** The event being transformed, copied at its first change; the span takes the changed events when its events are done. */
export function draftEvent(c: SpanEventDraft): Fields<SpanEvent> {
  if (!c.eventDrafted) {
    c.event = { ...c.event };
    c.eventDrafted = true;
  }
  return c.event as Fields<SpanEvent>;
}

const eventField =
  <K extends keyof SpanEvent>(field: K, convert: (v: OttlValue) => SpanEvent[K] | undefined): Setter<SpanEventDraft> =>
  (c, v) => {
    const value = convert(v);
    if (value !== undefined) draftEvent(c)[field] = value;
  };

const SPAN_EVENT_SETTERS: Record<string, Setter<SpanEventDraft>> = {
  'spanevent.name': eventField('name', text),
  'spanevent.attributes': eventField('attributes', map),
  'spanevent.time_unix_nano': eventField('timeUnixNano', nanos),
  'spanevent.time': eventField('timeUnixNano', instant),
  'spanevent.dropped_attributes_count': eventField('droppedAttributesCount', uint32),
};

const spanContexts = contextsOf('span', { ...mergedPaths<SpanDraft>(spanPaths, { plain: {}, keyed: {} }), set: { ...SPAN_SETTERS, ...resourceAndScopeSetters<SpanRow>() } });

/**
 * The span's contexts, and the span event's: its statements run with `event` set (the transform
 * sets it, event after event), so its context is one of span drafts to the others.
 */
export const spanStatementContexts: StatementContexts<SpanDraft> = {
  ...spanContexts,
  spanevent: tableContext<SpanEventDraft>('spanevent', { ...spanEventPaths, set: { ...SPAN_EVENT_SETTERS, ...SPAN_SETTERS, ...resourceAndScopeSetters<SpanRow>() } }, ['span']) as unknown as OttlContext<SpanDraft>,
};
