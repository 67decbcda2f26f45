// OTTL's log context over otelgate's log rows: the Collector's ottllog paths (with or without the
// `log.` prefix), its resource's (`resource.`) and scope's (`instrumentation_scope.` or `scope.`),
// and `project`, otelgate's own: the project of the row, which nothing can change.
import type { LogRow } from '../../model/logs.js';
import type { ValueGetter } from '../compile.js';
import { anyValueText } from '../values.js';
import { idBytes, SPAN_ID_ZERO, TRACE_ID_ZERO } from './ids.js';
import { mergedPaths, resourceAndScopePaths, tableContext, timeOf, type PathTable } from './table.js';

export interface LogContext {
  readonly row: LogRow;
  readonly project: string;
}

type G = ValueGetter<LogContext>;

const LOG: PathTable<LogContext> = {
  plain: {
    project: (c) => c.project,
    'log.body.string': (c) => anyValueText(c.row.body),
    'log.severity_number': (c) => BigInt(c.row.severityNumber),
    'log.severity_text': (c) => c.row.severityText,
    'log.time_unix_nano': (c) => c.row.timeUnixNano,
    'log.observed_time_unix_nano': (c) => c.row.observedTimeUnixNano,
    'log.time': timeOf((c) => c.row.timeUnixNano),
    'log.observed_time': timeOf((c) => c.row.observedTimeUnixNano),
    'log.flags': (c) => BigInt(c.row.flags),
    'log.dropped_attributes_count': (c) => BigInt(c.row.droppedAttributesCount),
    'log.event_name': (c) => c.row.eventName,
    'log.trace_id': (c) => idBytes(c.row.traceId, TRACE_ID_ZERO),
    'log.trace_id.string': (c) => c.row.traceId,
    'log.span_id': (c) => idBytes(c.row.spanId, SPAN_ID_ZERO),
    'log.span_id.string': (c) => c.row.spanId,
  } satisfies Record<string, G>,
  keyed: {
    'log.attributes': (c) => c.row.attributes,
    'log.body': (c) => c.row.body,
  },
};

/** Every path a log record's context reads. */
export const logPaths: PathTable<LogContext> = mergedPaths(
  LOG,
  resourceAndScopePaths((c) => c.row.resource, (c) => c.row.scope),
);

export const logContext = tableContext<LogContext>('log', logPaths);
