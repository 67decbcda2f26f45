// The transform processor: runs its OTTL statements on every log record, span and metric data
// point, as the Collector's, group after group. Rows are never changed in place: a row a statement
// changes is a new one, and a resource, scope or metric changed is one new object for all the rows
// that had it, so the batch another pipeline holds stays as it came. Only the attributes maps of
// an exclusive batch's rows, which no one else sees, are changed in place (ottl/contexts/draft.ts).
import type { Batch, RowOf } from '../../model/batch.js';
import { withRows } from '../../model/rewrite.js';
import type { Signal } from '../../model/signal.js';
import type { LogRow } from '../../model/logs.js';
import type { DataPointRow, Metric } from '../../model/metrics.js';
import type { Resource, Scope } from '../../model/resource.js';
import type { SpanEvent, SpanRow } from '../../model/traces.js';
import { adoptCopies, draft, hasCopies, newCopies, withCopies, type Drafting } from '../../ottl/contexts/draft.js';
import type { SpanEventDraft } from '../../ottl/contexts/setters.js';
import { PermanentError } from '../../errors.js';
import type { ProcessorFactory } from '../../runtime/component.js';
import { compiledOrThrow, FailureLog } from '../helper/ottl.js';
import { transformSchema, validateTransform } from './config.js';
import { compiledTransform, type CompiledGroup } from './statements.js';

type Row = LogRow | SpanRow | DataPointRow;

/**
 * `groups` run on `rows`, group after group over the whole batch as the Collector runs them; the
 * rows as they came when nothing changed. `kept`: each row's attributes map is still the one it
 * came with (changed in place at most), so that an exclusive batch stays exclusive. Throws a
 * PermanentError for a failure under propagate.
 */
function transformed<R extends Row>(
  rows: readonly R[],
  project: string,
  exclusive: boolean,
  groups: readonly CompiledGroup<Drafting<R>>[],
  failures: FailureLog,
  id: string,
): { rows: readonly R[]; kept: boolean } {
  const current = rows.slice();
  const drafted = new Array<boolean>(rows.length).fill(false);
  const copies = newCopies();
  const c: Drafting<R> = { row: rows[0] as R, original: rows[0] as R, drafted: false, project, copies, index: 0, owners: new Map(), exclusive, inPlace: false, cache: undefined };
  const fail = (group: CompiledGroup<Drafting<R>>, text: string, error: unknown): void => {
    const message = error instanceof Error ? error.message : String(error);
    if (group.errorMode === 'propagate') throw new PermanentError(`transform ${id}: ${JSON.stringify(text)} failed on a row: ${message}`);
    if (group.errorMode === 'ignore') failures.failed(text, message);
  };
  /** The group's statements on the row (or event) `c` is at, when its conditions let them. */
  const run = (group: CompiledGroup<Drafting<R>>, at: Drafting<R>): void => {
    let applies = group.conditions.length === 0;
    for (const condition of group.conditions) {
      try {
        if (condition.matches(at)) {
          applies = true;
          break;
        }
      } catch (error) {
        fail(group, condition.text, error);
      }
    }
    if (!applies) return;
    for (const statement of group.statements) {
      try {
        statement.run(at);
      } catch (error) {
        fail(group, statement.text, error);
      }
    }
  };
  for (const group of groups) {
    // A resource's or scope's statements run once for each one in the batch (a scope of each
    // resource), a metric's once for each metric.
    const seen = new Map<Resource, Set<Scope> | true>();
    const seenMetrics = new Set<Metric>();
    for (let i = 0; i < rows.length; i++) {
      const original = rows[i] as R;
      if (group.context === 'metric') {
        const metric = (original as DataPointRow).metric;
        if (seenMetrics.has(metric)) continue;
        seenMetrics.add(metric);
      } else if (group.context === 'resource' || group.context === 'scope') {
        const done = seen.get(original.resource);
        if (done === true || done?.has(original.scope) === true) continue;
        if (group.context === 'resource') seen.set(original.resource, true);
        else if (done === undefined) seen.set(original.resource, new Set([original.scope]));
        else done.add(original.scope);
      }
      c.row = current[i] as R;
      c.original = original;
      c.drafted = drafted[i] as boolean;
      c.index = i;
      c.cache = undefined;
      // What an earlier row changed of this one's resource, scope or metric.
      adoptCopies(c);
      if (group.context === 'spanevent') eachEvent(c as unknown as SpanEventDraft, () => run(group, c));
      else run(group, c);
      current[i] = c.row;
      drafted[i] = c.drafted;
    }
  }
  if (!hasCopies(copies)) {
    if (drafted.includes(true)) return { rows: current, kept: false };
    return { rows: c.inPlace ? current : rows, kept: true };
  }
  // Rows done before their resource, scope or metric changed take the new one too.
  return { rows: current.map((row, i) => withCopies(row, rows[i] as R, copies)), kept: false };
}

/** `batch` with the rows the statements left. */
function withTransformed<S extends Signal>(batch: Batch<S>, out: { rows: readonly RowOf<S>[]; kept: boolean }): Batch<S> {
  return withRows(batch, out.rows, out.kept);
}

/** `run` at each event of the span `c` is at; the span takes the events that changed, in a new list. */
function eachEvent(c: SpanEventDraft, run: () => void): void {
  const events = c.row.events;
  let changed: SpanEvent[] | undefined;
  for (let j = 0; j < events.length; j++) {
    c.event = events[j] as SpanEvent;
    c.eventDrafted = false;
    c.cache = undefined;
    run();
    if (!c.eventDrafted) continue;
    changed ??= events.slice();
    changed[j] = c.event;
  }
  if (changed !== undefined) draft(c).events = changed;
}

export const transformProcessorFactory: ProcessorFactory<typeof transformSchema> = {
  kind: 'processor',
  type: 'transform',
  description: 'Runs OTTL statements on log records, spans and metrics (the Collector\'s transform processor).',
  stability: { logs: 'alpha', traces: 'alpha', metrics: 'alpha' },
  schema: transformSchema,
  validate: validateTransform,
  create(config, ctx, next) {
    const compiled = compiledTransform(config);
    const logs = compiledOrThrow(compiled.logs).groups;
    const traces = compiledOrThrow(compiled.traces).groups;
    const metrics = compiledOrThrow(compiled.metrics).groups;
    const failures = new FailureLog(ctx, 'statement', 'A transform statement failed on some rows; they went on without it (error_mode: ignore)');
    return {
      start: async () => {},
      shutdown: async () => {},
      consume(batch, consumeCtx) {
        let out: typeof batch = batch;
        try {
          if (batch.signal === 'logs' && logs.length > 0 && batch.rows.length > 0) out = withTransformed(batch, transformed(batch.rows, batch.project, batch.exclusive, logs, failures, ctx.id));
          else if (batch.signal === 'traces' && traces.length > 0 && batch.rows.length > 0) out = withTransformed(batch, transformed(batch.rows, batch.project, batch.exclusive, traces, failures, ctx.id));
          else if (batch.signal === 'metrics' && metrics.length > 0 && batch.rows.length > 0) out = withTransformed(batch, transformed(batch.rows, batch.project, batch.exclusive, metrics, failures, ctx.id));
        } catch (error) {
          if (error instanceof PermanentError) return Promise.reject(error);
          throw error;
        } finally {
          failures.flush();
        }
        return next.consume(out, consumeCtx);
      },
    };
  },
};
