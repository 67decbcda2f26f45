// The batch processor, as a Collector config names it. In otelgate batching happens in each
// exporter's sending queue, after the data is durable, so that a 200 means "held": a batch
// processor ahead of the queue would answer the client before anything is kept. Its settings are
// carried over to the exporters at validation (src/config/batch-to-queue.ts); the processor itself
// passes every batch on as it is.
import type { ProcessorFactory } from '../../runtime/component.js';
import { batchSchema } from './config.js';

export const batchProcessorFactory: ProcessorFactory<typeof batchSchema> = {
  kind: 'processor',
  type: 'batch',
  description: 'The Collector\'s batch processor: its settings become the sending_queue.batch of the pipeline\'s exporters, where batching happens after the data is durable.',
  stability: { logs: 'alpha', traces: 'alpha', metrics: 'alpha' },
  schema: batchSchema,
  validate(config) {
    if (config.send_batch_max_size !== 0 && config.send_batch_max_size < config.send_batch_size) {
      return [{ path: ['send_batch_max_size'], message: `must be 0 or at least send_batch_size (${config.send_batch_size})` }];
    }
    return [];
  },
  create(_config, _ctx, next) {
    return { start: async () => {}, shutdown: async () => {}, consume: (batch, ctx) => next.consume(batch, ctx) };
  },
};
