// The nop exporter: accepts every batch and drops it, as the Collector's; the benchmarks' floor.
import Type from 'typebox';
import type { ExporterFactory } from '../../runtime/component.js';

const schema = Type.Object({}, { additionalProperties: false });

export const nopExporterFactory: ExporterFactory<typeof schema> = {
  kind: 'exporter',
  type: 'nop',
  description: 'Accepts every batch and drops it.',
  stability: { logs: 'beta', traces: 'beta', metrics: 'beta' },
  schema,
  create() {
    return {
      start: async () => {},
      shutdown: async () => {},
      consume: async () => {},
    };
  },
};
