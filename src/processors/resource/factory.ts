// The resource processor: applies attribute actions to each resource of a batch, as the
// Collector's. A resource is one object for all the rows under it, so it is changed once per
// batch into one new resource that those rows share (src/model/rewrite.ts), never in place.
import type { Batch, RowOf } from '../../model/batch.js';
import type { Signal } from '../../model/signal.js';
import type { Resource } from '../../model/resource.js';
import { mapRows, sharedRewrite, withRows } from '../../model/rewrite.js';
import type { ClientInfo, ProcessorFactory } from '../../runtime/component.js';
import { compileActions, type AttributesChange } from '../helper/actions.js';
import { compiledOrThrow } from '../helper/ottl.js';
import { resourceSchema, validateResource } from './config.js';

/** `batch` with each resource changed by `change`: the batch itself when none changes. */
function withResources<S extends Signal>(batch: Batch<S>, change: (resource: Resource) => Resource): Batch<S> {
  const rewrite = sharedRewrite(change);
  const before = batch.rows as readonly RowOf<S>[];
  const rows = mapRows(before, (row) => {
    const resource = rewrite(row.resource);
    return resource === row.resource ? row : { ...row, resource };
  });
  return withRows(batch, rows);
}

export const resourceProcessorFactory: ProcessorFactory<typeof resourceSchema> = {
  kind: 'processor',
  type: 'resource',
  description: 'Inserts, updates, deletes, hashes, extracts or converts resource attributes (the Collector\'s resource processor).',
  stability: { logs: 'alpha', traces: 'alpha', metrics: 'alpha' },
  schema: resourceSchema,
  validate: validateResource,
  create(config, _ctx, next) {
    const apply: AttributesChange = compiledOrThrow(compileActions(config.attributes, 'attributes')).apply;
    const changed = (client: ClientInfo) => (resource: Resource): Resource => {
      const attributes = apply(resource.attributes, client);
      return attributes === resource.attributes ? resource : { ...resource, attributes };
    };
    return {
      start: async () => {},
      shutdown: async () => {},
      consume: (batch, ctx) => next.consume(withResources(batch, changed(ctx.client)), ctx),
    };
  },
};
