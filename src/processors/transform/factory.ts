// The transform processor: runs its OTTL statements on every log record, span and metric data
// point, as the Collector's, group after group. A row a statement changes is a new one, and a
// resource, scope or metric changed is one new object for all the rows that had it, so the batch
// another pipeline holds stays as it came. Only an exclusive batch's rows and their attributes
// maps, which no one else sees, are changed in place (ottl/contexts/draft.ts).
import type { Batch, RowOf } from '../../model/batch.js';
import { withRows } from '../../model/rewrite.js';
import type { Signal } from '../../model/signal.js';
import type { LogRow } from '../../model/logs.js';
import type { DataPointRow, Metric } from '../../model/metrics.js';
import type { Resource, Scope } from '../../model/resource.js';
import type { SpanEvent, SpanRow } from '../../model/traces.js';
import { adoptCopies, draft, hasCopies, held, newDraft, withCopies, type Drafting, type Origin } from '../../ottl/contexts/draft.js';
import type { SpanEventDraft } from '../../ottl/contexts/setters.js';
import { PermanentError } from '../../errors.js';
import type { ProcessorFactory } from '../../runtime/component.js';
import { compiledOrThrow, FailureLog } from '../helper/ottl.js';
import { transformSchema, validateTransform } from './config.js';
import { compiledTransform, type CompiledGroup } from './statements.js';

type Row = LogRow | SpanRow | DataPointRow;

/**
 * `groups` run on `rows`, group after group over the whole batch as the Collector runs them; the
 * rows as they came when nothing changed. `kept`: each row of an exclusive batch still holds an
 * attributes map no one else holds (the one it came with, or one its statements made), so that
 * the batch stays exclusive. Throws a PermanentError for a failure under propagate.
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
  // Of an exclusive batch's rows, changed in place: what those that took a copy of their
  // resource, scope or metric came with, and those whose attributes map may be held elsewhere too.
  // (No array of these a batch: filled for every row, four of them cost more than the rows' copies.)
  const origins = new Map<R, Origin>();
  const unheld = new Set<R>();
  // Of a batch that is not exclusive: the rows whose attributes map, in their copy of the row, is
  // one their statements made, which later groups change in place too.
  const holding = new Set<R>();
  let kept = exclusive;
  const c = newDraft(rows[0] as R, project, exclusive);
  const copies = c.copies;
  const fail = (group: CompiledGroup<Drafting<R>>, text: string, error: unknown): void => {
    const message = error instanceof Error ? error.message : String(error);
    if (group.errorMode === 'propagate') throw new PermanentError(`transform ${id}: ${JSON.stringify(text)} failed on a row: ${message}`);
    if (group.errorMode === 'ignore') failures.failed(text, message);
  };
  /** The group's statements on the row (or event) `c` is at, when its conditions let them. */
  const run = (group: CompiledGroup<Drafting<R>>, at: Drafting<R>): void => {
    const { conditions, statements } = group;
    let applies = conditions.length === 0;
    for (let k = 0; k < conditions.length && !applies; k++) {
      const condition = conditions[k] as CompiledGroup<Drafting<R>>['conditions'][number];
      try {
        applies = condition.matches(at);
      } catch (error) {
        fail(group, condition.text, error);
      }
    }
    if (!applies) return;
    for (let k = 0; k < statements.length; k++) {
      const statement = statements[k] as CompiledGroup<Drafting<R>>['statements'][number];
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
    const perMetric = group.context === 'metric';
    const perShared = group.context === 'resource' || group.context === 'scope';
    const perEvent = group.context === 'spanevent';
    const seen = new Map<Resource, Set<Scope> | true>();
    const seenMetrics = new Set<Metric>();
    for (let i = 0; i < rows.length; i++) {
      const original = rows[i] as R;
      const origin: Origin = origins.size === 0 ? original : (origins.get(original) ?? original);
      if (perMetric) {
        const metric = origin.metric as Metric;
        if (seenMetrics.has(metric)) continue;
        seenMetrics.add(metric);
      } else if (perShared) {
        const done = seen.get(origin.resource);
        if (done === true || done?.has(origin.scope) === true) continue;
        if (group.context === 'resource') seen.set(origin.resource, true);
        else if (done === undefined) seen.set(origin.resource, new Set([origin.scope]));
        else done.add(origin.scope);
      }
      const row = current[i] as R;
      c.row = row;
      c.drafted = drafted[i] as boolean;
      c.origin = origin;
      if (exclusive) c.held = unheld.size === 0 || !unheld.has(original) ? row.attributes : undefined;
      else c.held = holding.size !== 0 && holding.has(original) ? row.attributes : undefined;
      c.madeCount = 0;
      c.cache = undefined;
      // What an earlier row changed of this one's resource, scope or metric.
      adoptCopies(c);
      if (perEvent) eachEvent(c as unknown as SpanEventDraft, () => run(group, c));
      else run(group, c);
      current[i] = c.row;
      drafted[i] = c.drafted;
      if (c.origin !== origin) origins.set(original, c.origin);
      const holds = held(c) !== undefined;
      if (exclusive && !holds) {
        unheld.add(original);
        kept = false;
      } else if (!exclusive && holds !== (c.held !== undefined)) {
        if (holds) holding.add(original);
        else holding.delete(original);
      }
    }
  }
  if (hasCopies(copies)) {
    // Rows done before their resource, scope or metric changed take the new one too.
    for (let i = 0; i < current.length; i++) current[i] = withCopies(current[i] as R, origins.get(rows[i] as R) ?? (rows[i] as R), copies, exclusive);
    return { rows: current, kept };
  }
  if (!exclusive && drafted.includes(true)) return { rows: current, kept: false };
  return { rows: c.inPlace ? current : rows, kept };
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
