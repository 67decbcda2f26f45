// The filter processor: drops the log records, spans, span events, metrics and data points that
// match any of its OTTL conditions, as the Collector's. Dropped rows are counted, not refused: the client is answered as
// if they had been kept. A batch left empty goes no further.
import type { LogRow } from '../../model/logs.js';
import type { DataPointRow, Metric } from '../../model/metrics.js';
import { keepRows, withRows } from '../../model/rewrite.js';
import type { SpanEvent, SpanRow } from '../../model/traces.js';
import type { LogContext } from '../../ottl/contexts/log.js';
import type { MetricContext } from '../../ottl/contexts/metric.js';
import type { SpanEventContext } from '../../ottl/contexts/span.js';
import { PermanentError } from '../../errors.js';
import type { ProcessorFactory } from '../../runtime/component.js';
import { compiledOrThrow, FailureLog } from '../helper/ottl.js';
import type { CompiledCondition } from './conditions.js';
import { compiledFilter, filterSchema, validateFilter } from './config.js';

export const filterProcessorFactory: ProcessorFactory<typeof filterSchema> = {
  kind: 'processor',
  type: 'filter',
  description: 'Drops the log records, spans, span events, metrics and data points that match any of its OTTL conditions (the Collector\'s filter processor).',
  stability: { logs: 'alpha', traces: 'alpha', metrics: 'alpha' },
  schema: filterSchema,
  validate: validateFilter,
  create(config, ctx, next) {
    const compiled = compiledFilter(config);
    const logRecord = compiledOrThrow(compiled.logRecord).conditions;
    const span = compiledOrThrow(compiled.span).conditions;
    const spanEvent = compiledOrThrow(compiled.spanEvent).conditions;
    const metric = compiledOrThrow(compiled.metric).conditions;
    const dataPoint = compiledOrThrow(compiled.dataPoint).conditions;
    const meter = ctx.telemetry.enabled('basic') ? ctx.telemetry.meter('otelgate/processor') : undefined;
    const filteredLogs = meter?.createCounter('otelcol_processor_filter_logs.filtered', { description: 'Log records dropped by a filter processor' });
    const filteredSpans = meter?.createCounter('otelcol_processor_filter_spans.filtered', { description: 'Spans dropped by a filter processor' });
    const filteredPoints = meter?.createCounter('otelcol_processor_filter_datapoints.filtered', { description: 'Metric data points dropped by a filter processor' });
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

    /** The metrics of `rows` that match a metric condition, each evaluated once, on its first point, with all its points. */
    function droppedMetrics(rows: readonly DataPointRow[], project: string): Set<Metric> {
      const points = new Map<Metric, DataPointRow[]>();
      // A metric's points come in a run: a run costs no lookup after its first point.
      let last: DataPointRow[] = [];
      let lastMetric: Metric | undefined;
      for (const row of rows) {
        if (row.metric !== lastMetric) {
          lastMetric = row.metric;
          let list = points.get(row.metric);
          if (list === undefined) points.set(row.metric, (list = []));
          last = list;
        }
        last.push(row);
      }
      const dropped = new Set<Metric>();
      const c: { row: DataPointRow; points: readonly DataPointRow[]; project: string } = { row: rows[0] as DataPointRow, points: [], project };
      for (const [m, its] of points) {
        c.row = its[0] as DataPointRow;
        c.points = its;
        if (matchesAny<MetricContext>(metric, c, 'a metric')) dropped.add(m);
      }
      return dropped;
    }

    /** Metric conditions first, as in the Collector: the points of a metric they drop are not evaluated again. */
    function points(rows: readonly DataPointRow[], project: string): readonly DataPointRow[] {
      if ((metric.length === 0 && dataPoint.length === 0) || rows.length === 0) return rows;
      const dropped = metric.length > 0 ? droppedMetrics(rows, project) : undefined;
      const c: { row: DataPointRow; project: string } = { row: rows[0] as DataPointRow, project };
      const kept = keepRows(rows, (row) => {
        if (dropped?.has(row.metric) === true) return undefined;
        if (dataPoint.length === 0) return row;
        c.row = row;
        return matchesAny(dataPoint, c, 'a data point') ? undefined : row;
      });
      if (kept !== rows) filteredPoints?.add(rows.length - kept.length, attributes);
      return kept;
    }

    return {
      start: async () => {},
      shutdown: async () => {},
      consume(batch, consumeCtx) {
        let out: typeof batch;
        try {
          if (batch.signal === 'logs') out = withRows(batch, logs(batch.rows, batch.project), true);
          else if (batch.signal === 'traces') out = withRows(batch, spans(batch.rows, batch.project), true);
          else out = withRows(batch, points(batch.rows, batch.project), true);
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
