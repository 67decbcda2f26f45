// Hands one batch to several consumers and succeeds only when every one of them accepted it:
// a 200 means every exporter of the pipeline has the data.
import { joinErrors } from '../errors.js';
import type { Batch } from '../model/batch.js';
import type { ConsumeContext, Consumer } from './component.js';

export function fanout(consumers: readonly Consumer[]): Consumer {
  if (consumers.length === 1) return consumers[0] as Consumer;
  return {
    async consume(batch: Batch, ctx: ConsumeContext): Promise<void> {
      const results = await Promise.allSettled(consumers.map(async (consumer) => consumer.consume(batch, ctx)));
      const failures: unknown[] = [];
      for (const result of results) if (result.status === 'rejected') failures.push(result.reason);
      if (failures.length > 0) throw joinErrors(failures);
    },
  };
}
