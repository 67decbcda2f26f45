// The span processor: renames spans and sets their status, as the Collector's (contrib) `span` processor.
import { mapRows, withRows } from '../../model/rewrite.js';
import type { ProcessorFactory } from '../../runtime/component.js';
import { spanSchema, validateSpan } from './config.js';
import { spanTransform } from './span.js';

export const spanProcessorFactory: ProcessorFactory<typeof spanSchema> = {
  kind: 'processor',
  type: 'span',
  description: 'Renames spans from their attributes, extracts attributes from span names, sets span status.',
  stability: { traces: 'alpha' },
  schema: spanSchema,
  validate: validateSpan,
  create(config, _ctx, next) {
    const transform = spanTransform(config);
    return {
      start: async () => {},
      shutdown: async () => {},
      consume(batch, ctx) {
        if (batch.signal !== 'traces') return next.consume(batch, ctx);
        const rows = mapRows(batch.rows, transform);
        return next.consume(withRows(batch, rows), ctx);
      },
    };
  },
};
