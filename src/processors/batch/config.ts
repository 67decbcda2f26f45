// Settings of the batch processor, with the Collector's names and defaults. In otelgate they are
// carried over to the sending queues of the pipeline's exporters (batch-to-queue.ts).
import Type, { type Static } from 'typebox';

export const batchSchema = Type.Object(
  {
    send_batch_size: Type.Integer({ minimum: 0, default: 8192, description: 'Records a batch waits for before it is sent early: the exporters\' sending_queue.batch.min_size.' }),
    send_batch_max_size: Type.Integer({ minimum: 0, default: 0, description: 'Records a batch holds at most, 0 for no limit: sending_queue.batch.max_size.' }),
    timeout: Type.String({ format: 'duration', default: '200ms', description: 'How long a partial batch waits before it is sent: sending_queue.batch.flush_timeout.' }),
    metadata_keys: Type.Array(Type.String({ minLength: 1 }), {
      default: [],
      description: 'Accepted for the Collector\'s configs. otelgate never batches two projects, nor two values of an exporter\'s metadata_headers, together; other keys do not split batches.',
    }),
    metadata_cardinality_limit: Type.Integer({ minimum: 0, default: 1000, description: 'Accepted for the Collector\'s configs; no effect.' }),
  },
  { additionalProperties: false },
);

export type BatchConfig = Static<typeof batchSchema>;
