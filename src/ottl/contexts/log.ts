// OTTL's log context over otelgate's log rows: the Collector's ottllog paths (with or without the
// `log.` prefix), its resource's (`resource.`) and scope's (`instrumentation_scope.` or `scope.`),
// and `project`, otelgate's own: the project of the row, which nothing can change.
import type { AnyValue } from '../../model/anyvalue.js';
import type { LogRow } from '../../model/logs.js';
import type { PathField } from '../ast.js';
import { indexed, pathText, type Getter, type OttlContext } from '../compile.js';
import { OttlError } from '../errors.js';
import { anyValueText } from '../values.js';

export interface LogContext {
  readonly row: LogRow;
  readonly project: string;
}

type G = Getter<LogContext>;

const ZERO_TRACE_ID = new Uint8Array(16);
const ZERO_SPAN_ID = new Uint8Array(8);

const idBytes = (hex: string, zero: Uint8Array): Uint8Array => (hex === '' ? zero : Uint8Array.from(Buffer.from(hex, 'hex')));

/** Paths without keys, by their fields joined with dots. */
const PLAIN: Readonly<Record<string, G>> = {
  project: (c) => c.project,
  'log.body.string': (c) => anyValueText(c.row.body),
  'log.severity_number': (c) => BigInt(c.row.severityNumber),
  'log.severity_text': (c) => c.row.severityText,
  'log.time_unix_nano': (c) => c.row.timeUnixNano,
  'log.observed_time_unix_nano': (c) => c.row.observedTimeUnixNano,
  'log.flags': (c) => BigInt(c.row.flags),
  'log.dropped_attributes_count': (c) => BigInt(c.row.droppedAttributesCount),
  'log.event_name': (c) => c.row.eventName,
  'log.trace_id': (c) => idBytes(c.row.traceId, ZERO_TRACE_ID),
  'log.trace_id.string': (c) => c.row.traceId,
  'log.span_id': (c) => idBytes(c.row.spanId, ZERO_SPAN_ID),
  'log.span_id.string': (c) => c.row.spanId,
  'resource.dropped_attributes_count': (c) => BigInt(c.row.resource.droppedAttributesCount),
  'resource.schema_url': (c) => c.row.resource.schemaUrl,
  'scope.name': (c) => c.row.scope.name,
  'scope.version': (c) => c.row.scope.version,
  'scope.dropped_attributes_count': (c) => BigInt(c.row.scope.droppedAttributesCount),
  'scope.schema_url': (c) => c.row.scope.schemaUrl,
};

/** Paths that take keys ([\"k\"], [0]), and what the keys index. */
const KEYED: Readonly<Record<string, G>> = {
  'log.attributes': (c) => c.row.attributes,
  'log.body': (c) => c.row.body,
  'resource.attributes': (c) => c.row.resource.attributes,
  'scope.attributes': (c) => c.row.scope.attributes,
};

const CONTEXTS: Readonly<Record<string, string>> = { log: 'log', resource: 'resource', instrumentation_scope: 'scope', scope: 'scope' };

/** `fields` with the context they name first: `log.` added where none is named. */
function qualified(fields: readonly PathField[]): { name: string; keysAt: number } {
  const first = (fields[0] as PathField).name;
  const context = CONTEXTS[first];
  const rest = context === undefined || fields.length === 1 ? fields : fields.slice(1);
  const prefix = context === undefined || fields.length === 1 ? (first === 'project' ? '' : 'log.') : `${context}.`;
  return { name: prefix + rest.map((f) => f.name).join('.'), keysAt: fields.length - 1 };
}

export const logContext: OttlContext<LogContext> = {
  name: 'log',
  paths: [...Object.keys(PLAIN), ...Object.keys(KEYED)].map((p) => p.replace(/^log\./, '')),
  path(fields) {
    const { name, keysAt } = qualified(fields);
    // Keys are read on the last field only (attributes["a"]["b"]).
    const early = fields.slice(0, keysAt).find((f) => f.keys.length > 0);
    if (early !== undefined) throw new OttlError(early.column, `${pathText(fields)}: only the last field of a path takes keys`);
    const keys = (fields[keysAt] as PathField).keys;
    const keyed = KEYED[name];
    if (keyed !== undefined) return keys.length === 0 ? keyed : (c: LogContext): AnyValue => indexed(keyed(c), keys);
    const plain = PLAIN[name];
    if (plain !== undefined && keys.length > 0) throw new OttlError((keys[0] as { column: number }).column, `${pathText(fields)}: ${name.replace(/^log\./, '')} takes no keys`);
    return plain;
  },
};
