// The redaction processor, the Collector's: removes the attributes not allowed and masks blocked
// values in resources, scopes, log records (attributes and body), spans (and their events) and
// data points. A resource or scope is redacted once per batch into one new object its rows share;
// a row that changes goes on as a new row; the batch that came is never changed.
import type { Batch, RowOf } from '../../model/batch.js';
import type { LogRow } from '../../model/logs.js';
import type { Resource, Scope } from '../../model/resource.js';
import { mapRows, sharedRewrite, withRows } from '../../model/rewrite.js';
import type { Signal } from '../../model/signal.js';
import type { SpanRow } from '../../model/traces.js';
import type { ProcessorFactory } from '../../runtime/component.js';
import { compiledOrThrow } from '../helper/ottl.js';
import { compilePatterns, hashFunctionOf, redactionSchema, validateRedaction } from './config.js';
import { Findings, Redactor } from './redactor.js';

/** A resource or scope with its attributes redacted: itself when they stay. */
function withRedacted<T extends Resource | Scope>(redactor: Redactor): (holder: T) => T {
  return (holder) => {
    const attributes = redactor.attributes(holder.attributes);
    return attributes === holder.attributes ? holder : { ...holder, attributes };
  };
}

function redactedLog(redactor: Redactor, row: LogRow): LogRow {
  const found = new Findings();
  const body = redactor.body(row.body, found);
  const attributes = redactor.bodySummary(redactor.attributes(row.attributes), found);
  return body === row.body && attributes === row.attributes ? row : { ...row, body, attributes };
}

function redactedSpan(redactor: Redactor, row: SpanRow): SpanRow {
  const attributes = redactor.attributes(row.attributes);
  const events = mapRows(row.events, (event) => {
    const redacted = redactor.attributes(event.attributes);
    return redacted === event.attributes ? event : { ...event, attributes: redacted };
  });
  return attributes === row.attributes && events === row.events ? row : { ...row, attributes, events };
}

function redacted<S extends Signal>(redactor: Redactor, batch: Batch<S>): Batch<S> {
  const resources = sharedRewrite(withRedacted<Resource>(redactor));
  const scopes = sharedRewrite(withRedacted<Scope>(redactor));
  const rows = mapRows(batch.rows as readonly RowOf<S>[], (row) => {
    const resource = resources(row.resource);
    const scope = scopes(row.scope);
    let own: RowOf<S>;
    if (batch.signal === 'logs') own = redactedLog(redactor, row as LogRow) as RowOf<S>;
    else if (batch.signal === 'traces') own = redactedSpan(redactor, row as SpanRow) as RowOf<S>;
    else {
      const attributes = redactor.attributes(row.attributes);
      own = attributes === row.attributes ? row : { ...row, attributes };
    }
    return resource === row.resource && scope === row.scope ? own : { ...own, resource, scope };
  });
  return withRows(batch, rows);
}

export const redactionProcessorFactory: ProcessorFactory<typeof redactionSchema> = {
  kind: 'processor',
  type: 'redaction',
  description: 'Removes the attributes not allowed and masks the values blocked patterns match, in attributes and log bodies (the Collector\'s redaction processor).',
  stability: { logs: 'alpha', traces: 'beta', metrics: 'alpha' },
  schema: redactionSchema,
  validate: validateRedaction,
  create(config, _ctx, next) {
    const redactor = new Redactor(config, compiledOrThrow(compilePatterns(config)), compiledOrThrow(hashFunctionOf(config)));
    return {
      start: async () => {},
      shutdown: async () => {},
      consume: (batch, ctx) => next.consume(redacted(redactor, batch), ctx),
    };
  },
};
