// The debug exporter: shows what a pipeline carries, as the Collector's `debug` exporter.
import type { ExporterFactory } from '../../runtime/component.js';
import { debugSchema } from './config.js';
import { batchCounts, renderBatch } from './render.js';

const TITLES = { logs: 'Logs', traces: 'Traces', metrics: 'Metrics' } as const;

export const debugExporterFactory: ExporterFactory<typeof debugSchema> = {
  kind: 'exporter',
  type: 'debug',
  description: 'Writes what it receives to the log (counts, one line per record, or every field).',
  stability: { logs: 'development', traces: 'development', metrics: 'development' },
  schema: debugSchema,
  create(config, ctx) {
    return {
      start: async () => {},
      shutdown: async () => {},
      consume: async (batch) => {
        ctx.logger.info({ project: batch.project, ...batchCounts(batch) }, TITLES[batch.signal]);
        if (config.verbosity === 'basic') return;
        const text = renderBatch(batch, config.verbosity);
        if (config.use_internal_logger) ctx.logger.info(text);
        else process.stdout.write(text);
      },
    };
  },
};
