// The Collector's batch processor in otelgate: its settings become the sending_queue.batch of the
// exporters after it that have a queue and no batch settings of their own, validate says so, and
// the processor passes every batch on as it is.
import { describe, expect, it } from 'vitest';
import { builtinRegistry } from '../../../src/components.js';
import { ConfigError } from '../../../src/errors.js';
import type { SendingQueueConfig } from '../../../src/exporters/helper/queue-settings.js';
import { batchProcessorFactory } from '../../../src/processors/batch/factory.js';
import { consumeContext, type Consumer } from '../../../src/runtime/component.js';
import { batchOf } from '../../../src/model/batch.js';
import { configFrom } from '../../helpers/config.js';
import { testContext } from '../../helpers/components.js';

const CONFIG = `
receivers: {nop: }
processors:
  batch: {send_batch_size: 500, send_batch_max_size: 1000, timeout: 1s}
  batch/other: {send_batch_size: 10}
exporters:
  otlp_http/plain: {endpoint: "http://127.0.0.1:1"}
  otlp_http/own: {endpoint: "http://127.0.0.1:1", sending_queue: {batch: {min_size: 7}}}
  otlp/grpc: {endpoint: "127.0.0.1:1", tls: {insecure: true}}
  otlp_http/unbatched: {endpoint: "http://127.0.0.1:1"}
  nop:
service:
  pipelines:
    logs: {receivers: [nop], processors: [batch], exporters: [otlp_http/plain, otlp_http/own, otlp/grpc, nop]}
    traces: {receivers: [nop], processors: [batch/other], exporters: [otlp_http/plain]}
    metrics: {receivers: [nop], exporters: [otlp_http/unbatched]}
`;

const queueOf = (resolved: ReturnType<typeof configFrom>, id: string): SendingQueueConfig =>
  (resolved.components.exporter.get(id)?.config as { sending_queue: SendingQueueConfig }).sending_queue;

describe('the batch processor', () => {
  it('fills sending_queue.batch of the exporters after it that have none, and says so', () => {
    const resolved = configFrom(CONFIG, builtinRegistry());
    const carried = { flush_timeout: '1s', sizer: 'items', min_size: 500, max_size: 1000 };
    expect(queueOf(resolved, 'otlp_http/plain').batch).toEqual(carried);
    expect(queueOf(resolved, 'otlp/grpc').batch).toEqual(carried);
    // Its own batch settings stay; an exporter in no pipeline with a batch processor gets none.
    expect(queueOf(resolved, 'otlp_http/own').batch).toEqual({ flush_timeout: '200ms', sizer: 'items', min_size: 7, max_size: 0 });
    expect(queueOf(resolved, 'otlp_http/unbatched').batch).toBeUndefined();
    const notes = resolved.warnings.filter((w) => w.path.startsWith('processors.batch'));
    expect(notes.map((w) => `${w.path}: ${w.message}`)).toEqual([
      'processors.batch: otelgate batches in the sending queue, after the data is on disk: exporters "otlp_http/plain", "otlp/grpc" get sending_queue.batch {min_size: 500, max_size: 1000, flush_timeout: 1s} from this processor, which passes batches on as they come',
    ]);
  });

  it('refuses a send_batch_max_size below send_batch_size, as the Collector does', () => {
    expect(() => configFrom(CONFIG.replace('send_batch_max_size: 1000', 'send_batch_max_size: 100'), builtinRegistry())).toThrow(ConfigError);
  });

  it('passes every batch on as it is', async () => {
    const seen: unknown[] = [];
    const next: Consumer = { consume: async (batch) => void seen.push(batch) };
    const { ctx } = testContext('batch', 'processor');
    const processor = batchProcessorFactory.create({ send_batch_size: 1, send_batch_max_size: 0, timeout: '1s', metadata_keys: [], metadata_cardinality_limit: 1000 }, ctx, next);
    const batch = batchOf('logs', 'p', 0n, []);
    await processor.consume(batch, consumeContext());
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBe(batch);
  });
});
