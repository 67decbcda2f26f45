// Hands one batch to several consumers and succeeds only when every one of them accepted it:
// a 200 means every exporter of the pipeline has the data.
import { joinErrors } from '../errors.js';
import { shared, type Batch } from '../model/batch.js';
import type { ConsumeContext, Consumer } from './component.js';

function settled(results: PromiseSettledResult<void>[]): void {
  const failures: unknown[] = [];
  for (const result of results) if (result.status === 'rejected') failures.push(result.reason);
  if (failures.length > 0) throw joinErrors(failures);
}

export function fanout(consumers: readonly Consumer[]): Consumer {
  if (consumers.length === 1) return consumers[0] as Consumer;
  return {
    // Not async, and the batch is not in the continuation: an async function would hold the rows
    // until the slowest consumer answers (see the ingest receiver's handOn).
    consume(batch: Batch, ctx: ConsumeContext): Promise<void> {
      // Each sees the same rows: none may change them in place.
      const one = shared(batch);
      return Promise.allSettled(consumers.map(async (consumer) => consumer.consume(one, ctx))).then(settled);
    },
  };
}
