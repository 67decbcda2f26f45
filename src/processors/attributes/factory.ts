// The attributes processor: applies attribute actions to the attributes of each log record, span
// and data point that its include/exclude properties choose, as the Collector's. The attributes of
// an exclusive batch's rows are changed in place; otherwise a row whose attributes change goes on
// as a new row, and the batch that came is never changed.
import type { MutableAttributes } from '../../model/anyvalue.js';
import type { Batch, RowOf } from '../../model/batch.js';
import { mapRows, withRows } from '../../model/rewrite.js';
import type { Signal } from '../../model/signal.js';
import type { ProcessorFactory } from '../../runtime/component.js';
import { compileActions } from '../helper/actions.js';
import { compiledOrThrow } from '../helper/ottl.js';
import { attributesSchema, validateAttributes } from './config.js';
import { compileMatch, type MatchedRow } from './match.js';

export const attributesProcessorFactory: ProcessorFactory<typeof attributesSchema> = {
  kind: 'processor',
  type: 'attributes',
  description: 'Inserts, updates, deletes, hashes, extracts or converts the attributes of log records, spans and data points (the Collector\'s attributes processor).',
  stability: { logs: 'alpha', traces: 'alpha', metrics: 'alpha' },
  schema: attributesSchema,
  validate: validateAttributes,
  create(config, _ctx, next) {
    const { apply, applyInPlace } = compiledOrThrow(compileActions(config.actions, 'actions'));
    const include = config.include === undefined ? undefined : compiledOrThrow(compileMatch(config.include, 'include')).matches;
    const exclude = config.exclude === undefined ? undefined : compiledOrThrow(compileMatch(config.exclude, 'exclude')).matches;
    const everyRow = include === undefined && exclude === undefined;
    /** Whether the actions apply to `row`: include chooses it and exclude does not. */
    const chosen = (signal: Signal, row: RowOf<Signal>): boolean => {
      if (everyRow) return true;
      const matched = { signal, row } as MatchedRow;
      return (include === undefined || include(matched)) && (exclude === undefined || !exclude(matched));
    };

    function changed<S extends Signal>(batch: Batch<S>, client: Parameters<typeof apply>[1]): Batch<S> {
      const before = batch.rows as readonly RowOf<S>[];
      if (batch.exclusive) {
        // No copies: the rows and their maps are this pipeline's alone (batch.ts). The rows go on
        // in a new array when any changed, which nothing takes for the bytes they came from (otlp/source.ts).
        let wrote = false;
        for (const row of before) if (chosen(batch.signal, row) && applyInPlace(row.attributes as MutableAttributes, client)) wrote = true;
        return wrote ? withRows(batch, before.slice(), true) : batch;
      }
      const rows = mapRows(before, (row) => {
        if (!chosen(batch.signal, row)) return row;
        const attributes = apply(row.attributes, client);
        return attributes === row.attributes ? row : { ...row, attributes };
      });
      return withRows(batch, rows);
    }

    return {
      start: async () => {},
      shutdown: async () => {},
      consume: (batch, ctx) => next.consume(changed(batch, ctx.client), ctx),
    };
  },
};
