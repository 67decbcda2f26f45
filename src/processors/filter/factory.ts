// The filter processor: drops the log records, spans and span events that match any of its OTTL
// conditions, as the Collector's. Dropped rows are counted, not refused: the client is answered as
// if they had been kept. A batch left empty goes no further.
import type { LogRow } from '../../model/logs.js';
import { keepRows, withRows } from '../../model/rewrite.js';
import type { SpanEvent, SpanRow } from '../../model/traces.js';
import type { LogContext } from '../../ottl/contexts/log.js';
import type { SpanEventContext } from '../../ottl/contexts/span.js';
import { PermanentError } from '../../errors.js';
import type { ProcessorFactory } from '../../runtime/component.js';
import { compiledOrThrow, FailureLog } from '../helper/ottl.js';
import type { CompiledCondition } from './conditions.js';
import { compiledFilter, filterSchema, validateFilter } from './config.js';

export const filterProcessorFactory: ProcessorFactory<typeof filterSchema> = {
  kind: 'processor',
  type: 'filter',
  description: 'Drops the log records, spans and span events that match any of its OTTL conditions (the Collector\'s filter processor).',
  stability: { logs: 'alpha', traces: 'alpha' },
  schema: filterSchema,
  validate: validateFilter,
  create(config, ctx, next) {
    const compiled = compiledFilter(config);
    const logRecord = compiledOrThrow(compiled.logRecord).conditions;
    const span = compiledOrThrow(compiled.span).conditions;
    const spanEvent = compiledOrThrow(compiled.spanEvent).conditions;
    const meter = ctx.telemetry.enabled('basic') ? ctx.telemetry.meter('otelgate/processor') : undefined;
    const filteredLogs = meter?.createCounter('otelcol_processor_filter_logs.filtered', { description: 'Log records dropped by a filter processor' });
    const filteredSpans = meter?.createCounter('otelcol_processor_filter_spans.filtered', { description: 'Spans dropped by a filter processor' });
    const attributes = { filter: ctx.id };
    const mode = config.error_mode;
    const failures = new FailureLog(ctx, 'condition', 'A filter condition could not be evaluated on some rows; there it counted as not matching (error_mode: ignore)');

    /** Whether any of `conditions` matches; a failure is error_mode's (propagate: thrown as a PermanentError). */
    function matchesAny<C>(conditions: readonly CompiledCondition<C>[], c: C, what: string): boolean {
      for (const condition of conditions) {
        try {
          if (condition.matches(c)) return true;
        } catch (error) {
          // Every failure is error_mode's to decide, as in the Collector: a converter's, or one
          // such as a RangeError on a body nested too deep.
          const message = error instanceof Error ? error.message : String(error);
          if (mode === 'propagate') throw new PermanentError(`filter ${ctx.id}: the condition ${JSON.stringify(condition.text)} could not be evaluated on ${what}: ${message}`);
          if (mode === 'ignore') failures.failed(condition.text, message);
        }
      }
      return false;
    }

    function logs(rows: readonly LogRow[], project: string): readonly LogRow[] {
      if (logRecord.length === 0) return rows;
      const c: { row: LogRow; project: string } = { row: rows[0] as LogRow, project };
      const kept = keepRows(rows, (row) => {
        c.row = row;
        return matchesAny<LogContext>(logRecord, c, 'a log record') ? undefined : row;
      });
      if (kept !== rows) filteredLogs?.add(rows.length - kept.length, attributes);
      return kept;
    }

    function spans(rows: readonly SpanRow[], project: string): readonly SpanRow[] {
      if (span.length === 0 && spanEvent.length === 0) return rows;
      const c: { row: SpanRow; event: SpanEvent | undefined; project: string } = { row: rows[0] as SpanRow, event: undefined, project };
      let dropped = 0;
      const kept = keepRows(rows, (row) => {
        c.row = row;
        if (span.length > 0 && matchesAny(span, c, 'a span')) {
          dropped++;
          return undefined;
        }
        if (spanEvent.length === 0 || row.events.length === 0) return row;
        const events = keepRows(row.events, (event) => {
          c.event = event;
          return matchesAny(spanEvent, c as SpanEventContext, 'a span event') ? undefined : event;
        });
        return events === row.events ? row : { ...row, events };
      });
      if (dropped > 0) filteredSpans?.add(dropped, attributes);
      return kept;
    }

    return {
      start: async () => {},
      shutdown: async () => {},
      consume(batch, consumeCtx) {
        let out: typeof batch;
        try {
          if (batch.signal === 'logs') out = withRows(batch, logs(batch.rows, batch.project));
          else if (batch.signal === 'traces') out = withRows(batch, spans(batch.rows, batch.project));
          else out = batch;
        } catch (error) {
          if (error instanceof PermanentError) return Promise.reject(error);
          throw error;
        } finally {
          failures.flush();
        }
        if (out.rows.length === 0) return Promise.resolve();
        return next.consume(out, consumeCtx);
      },
    };
  },
};
