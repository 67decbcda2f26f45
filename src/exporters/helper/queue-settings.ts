// sending_queue: the Collector's exporterhelper settings, with otelgate's one difference: the queue
// is on disk unless `storage: memory` says otherwise, since a 200 means the data is held durably.
import Type, { type Static } from 'typebox';
import type { SettingsProblem } from '../../runtime/component.js';

/** `storage` value that keeps the queue in memory: lost on a crash, a kill -9 or a restart. */
export const MEMORY_STORAGE = 'memory';

export const sendingQueueSchema = Type.Object(
  {
    enabled: Type.Boolean({ default: true, description: 'Queue batches between the receiver and the backend. Without a queue a batch is answered only once the backend took it (or refused it).' }),
    num_consumers: Type.Integer({ minimum: 1, default: 10, description: 'Requests sent to the backend at once.' }),
    queue_size: Type.Integer({ minimum: 1, default: 1000, description: 'How much the queue holds, in the unit of `sizer`; a request that does not fit is answered 503 (Retry-After: 5).' }),
    sizer: Type.Enum(['requests', 'items', 'bytes'], { default: 'requests', description: 'What queue_size counts: requests (batches as they came in), items (log records, spans, data points) or bytes (encoded).' }),
    block_on_overflow: Type.Boolean({ default: false, description: 'Make a request wait for room in a full queue (until its client goes away) instead of answering 503 at once.' }),
    storage: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'The id of the file_storage extension that keeps the queue, or "memory" for a queue in memory (lost on a crash or restart). Default: on disk under ./data/queue, as a file_storage extension with its defaults would keep it.',
      }),
    ),
    batch: Type.Optional(
      Type.Object(
        {
          flush_timeout: Type.String({ format: 'duration', default: '200ms', description: 'How long a partial batch waits for more before it is sent.' }),
          sizer: Type.Enum(['items', 'bytes'], { default: 'items', description: 'What min_size and max_size count: items (log records, spans, data points) or encoded bytes.' }),
          min_size: Type.Integer({ minimum: 0, default: 8192, description: 'Size (in the batch sizer\'s unit) a batch waits for before it is sent early.' }),
          max_size: Type.Integer({ minimum: 0, default: 0, description: 'Size a batch holds at most; 0 for no limit. A queued request is never split: one larger than this is sent alone.' }),
        },
        { additionalProperties: false, description: 'Batching after the queue, per partition; without this block each queued request is sent as it came.' },
      ),
    ),
  },
  { additionalProperties: false, default: {} },
);

export type SendingQueueConfig = Static<typeof sendingQueueSchema>;

export function validateSendingQueue(config: SendingQueueConfig): SettingsProblem[] {
  const batch = config.batch;
  if (batch === undefined || batch.max_size === 0 || batch.max_size >= batch.min_size) return [];
  return [{ path: ['sending_queue', 'batch', 'max_size'], message: `must be 0 or at least min_size (${batch.min_size})` }];
}
