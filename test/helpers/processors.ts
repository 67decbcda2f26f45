// One processor between a nop receiver and a capturing exporter, in logs and traces pipelines, in
// process: for tests of what a processor does to the batches pushed through it.
import { builtinRegistry } from '../../src/components.js';
import type { Batch } from '../../src/model/batch.js';
import { consumeContext } from '../../src/runtime/component.js';
import { Service } from '../../src/runtime/service.js';
import { captureExporter, recorder, type Recorder } from './components.js';
import { configFrom } from './config.js';
import { memoryLogger } from './logger.js';

export interface ProcessorPipeline {
  service: Service;
  rec: Recorder;
  lines: Record<string, unknown>[];
  /** The last batch the exporter got. */
  last(): Batch | undefined;
  push(batch: Batch): Promise<void> | undefined;
}

/** A processor of `type` with `settings` (YAML lines under it), in a pipeline of each of `signals`. */
export function processorPipeline(type: string, settings: string, signals: readonly string[] = ['logs', 'traces']): ProcessorPipeline {
  const rec = recorder();
  const { logger, lines } = memoryLogger();
  const service = new Service(
    configFrom(
      `
receivers: {nop: }
processors:
  ${type}:
${settings.replace(/^/gm, '    ')}
exporters: {capture: }
service:
  pipelines:
${signals.map((signal) => `    ${signal}: {receivers: [nop], processors: [${type}], exporters: [capture]}`).join('\n')}
`,
      builtinRegistry().register(captureExporter(rec)),
    ),
    logger,
  );
  return {
    service,
    rec,
    lines,
    last: () => rec.batches.get('capture')?.at(-1),
    push: (batch) => service.consumer('nop', batch.signal)?.consume(batch, consumeContext()),
  };
}

/** What validation says of a processor of `type` with these settings; [] when nothing. */
export function processorProblems(type: string, settings: string): string[] {
  try {
    processorPipeline(type, settings);
    return [];
  } catch (error) {
    return (error as { issues?: { path: string; message: string }[] }).issues?.map((i) => `${i.path}: ${i.message}`) ?? [String(error)];
  }
}
