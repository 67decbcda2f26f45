// The Collector's batch processor, moved to where otelgate batches: the sending queue of each
// exporter after it in a pipeline, so that batching waits on data already on disk and a 200 still
// means "held". Its settings fill sending_queue.batch of the exporters that have a queue and no
// batch settings of their own.
import type { BatchConfig } from '../processors/batch/config.js';
import type { SendingQueueConfig } from '../exporters/helper/queue-settings.js';
import type { ComponentConfig, PipelineConfig } from './validate.js';

export interface Carried {
  /** The batch processor's id. */
  processor: string;
  /** Exporters whose sending_queue.batch it filled. */
  exporters: string[];
  message: string;
}

function queueOf(exporter: ComponentConfig): SendingQueueConfig | undefined {
  const queue = (exporter.config as { sending_queue?: SendingQueueConfig }).sending_queue;
  return queue !== undefined && queue.enabled ? queue : undefined;
}

/** Fills the exporters' sending_queue.batch from the batch processors of their pipelines (the first one of each), and says what it did. */
export function batchIntoQueues(processors: ReadonlyMap<string, ComponentConfig>, exporters: ReadonlyMap<string, ComponentConfig>, pipelines: readonly PipelineConfig[]): Carried[] {
  const carried = new Map<string, string[]>();
  const filled = new Set<string>();
  for (const pipeline of pipelines) {
    const batchId = pipeline.processors.find((id) => processors.get(id)?.type === 'batch');
    if (batchId === undefined) continue;
    const settings = (processors.get(batchId) as ComponentConfig).config as BatchConfig;
    for (const exporterId of pipeline.exporters) {
      const exporter = exporters.get(exporterId);
      const queue = exporter === undefined ? undefined : queueOf(exporter);
      if (exporter === undefined || queue === undefined || filled.has(exporterId) || queue.batch !== undefined) continue;
      queue.batch = { flush_timeout: settings.timeout, sizer: 'items', min_size: settings.send_batch_size, max_size: settings.send_batch_max_size };
      filled.add(exporterId);
      carried.set(batchId, [...(carried.get(batchId) ?? []), exporterId]);
    }
  }
  return [...carried].map(([processor, ids]) => {
    const { send_batch_size: min, send_batch_max_size: max, timeout } = (processors.get(processor) as ComponentConfig).config as BatchConfig;
    const targets = ids.map((id) => `"${id}"`).join(', ');
    return {
      processor,
      exporters: ids,
      message: `otelgate batches in the sending queue, after the data is on disk: exporter${ids.length === 1 ? '' : 's'} ${targets} get${ids.length === 1 ? 's' : ''} sending_queue.batch {min_size: ${min}, max_size: ${max}, flush_timeout: ${timeout}} from this processor, which passes batches on as they come`,
    };
  });
}
