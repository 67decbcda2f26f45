// The filter processor: drops the log records that match any of its OTTL conditions, as the
// Collector's. Dropped records are counted, not refused: the client is answered as if they had
// been kept. A batch left empty goes no further.
import { batchOf } from '../../model/batch.js';
import type { LogRow } from '../../model/logs.js';
import { ConfigError, PermanentError } from '../../errors.js';
import type { ProcessorFactory } from '../../runtime/component.js';
import { compileLogConditions, type CompiledCondition } from './conditions.js';
import { filterSchema, validateFilter } from './config.js';

/** ignore's log line about conditions that could not be evaluated comes at most this often. */
const ERROR_LOG_INTERVAL_MS = 60_000;

export const filterProcessorFactory: ProcessorFactory<typeof filterSchema> = {
  kind: 'processor',
  type: 'filter',
  description: 'Drops the log records that match any of its OTTL conditions (the Collector\'s filter processor).',
  stability: { logs: 'alpha' },
  schema: filterSchema,
  validate: validateFilter,
  create(config, ctx, next) {
    const compiled = compileLogConditions(config.logs.log_record);
    // validate() refused these already; a processor made without it must not pass everything.
    if ('problems' in compiled) throw new ConfigError(compiled.problems.map((p) => ({ severity: 'error', path: p.path.join('.'), message: p.message })));
    const conditions: CompiledCondition[] = compiled.conditions;
    const filtered = ctx.telemetry.enabled('basic')
      ? ctx.telemetry.meter('otelgate/processor').createCounter('otelcol_processor_filter_logs.filtered', { description: 'Log records dropped by a filter processor' })
      : undefined;
    const attributes = { filter: ctx.id };
    const mode = config.error_mode;
    let errorLoggedAt = Number.NEGATIVE_INFINITY;
    /** Evaluations that failed since the last warning (ignore). */
    let unlogged = 0;

    return {
      start: async () => {},
      shutdown: async () => {},
      consume(batch, consumeCtx) {
        if (batch.signal !== 'logs' || conditions.length === 0) return next.consume(batch, consumeCtx);
        const rows = batch.rows;
        const row: { row: LogRow; project: string } = { row: rows[0] as LogRow, project: batch.project };
        let kept: LogRow[] | undefined;
        let firstFailure: { condition: string; message: string } | undefined;
        for (let i = 0; i < rows.length; i++) {
          row.row = rows[i] as LogRow;
          let drop = false;
          for (const condition of conditions) {
            try {
              if (condition.matches(row)) {
                drop = true;
                break;
              }
            } catch (error) {
              // Every failure is error_mode's to decide, as in the Collector: a converter's, or one
              // such as a RangeError on a body nested too deep.
              const message = error instanceof Error ? error.message : String(error);
              if (mode === 'propagate') {
                return Promise.reject(new PermanentError(`filter ${ctx.id}: the condition ${JSON.stringify(condition.text)} could not be evaluated on a log record: ${message}`));
              }
              unlogged++;
              firstFailure ??= { condition: condition.text, message };
            }
          }
          if (drop) kept ??= rows.slice(0, i);
          else kept?.push(row.row);
        }
        if (firstFailure !== undefined && mode === 'ignore' && Date.now() - errorLoggedAt >= ERROR_LOG_INTERVAL_MS) {
          errorLoggedAt = Date.now();
          ctx.logger.warn(
            { condition: firstFailure.condition, err: firstFailure.message, failures: unlogged },
            'A filter condition could not be evaluated on some log records; there it counted as not matching (error_mode: ignore)',
          );
          unlogged = 0;
        }
        if (kept === undefined) return next.consume(batch, consumeCtx);
        filtered?.add(rows.length - kept.length, attributes);
        if (kept.length === 0) return Promise.resolve();
        return next.consume(batchOf('logs', batch.project, batch.receivedUnixNano, kept), consumeCtx);
      },
    };
  },
};
