// The memory_limiter processor: refuses data (a retryable error, so clients get 503 and retry)
// while otelgate's memory use is above the soft limit, instead of growing until it is killed.
import { totalmem } from 'node:os';
import { durationMs } from '../../config/duration.js';
import { MemoryLimitError } from '../../errors.js';
import type { ProcessorFactory } from '../../runtime/component.js';
import { limitsOf, memoryLimiterSchema, validateMemoryLimiter } from './config.js';

/**
 * Live JS heap plus the memory behind Buffers and ArrayBuffers (request bodies live there): what a
 * spike of data grows. Not `external`, which also counts native objects and can lag behind a GC.
 */
function memoryInUse(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

function availableMemory(): number {
  const constrained = process.constrainedMemory();
  return constrained > 0 && constrained < totalmem() ? constrained : totalmem();
}

export const memoryLimiterProcessorFactory: ProcessorFactory<typeof memoryLimiterSchema> = {
  kind: 'processor',
  type: 'memory_limiter',
  description: 'Refuses data while memory use is above the soft limit, so clients retry instead of otelgate running out of memory.',
  stability: { logs: 'beta', traces: 'beta', metrics: 'beta' },
  schema: memoryLimiterSchema,
  validate: validateMemoryLimiter,
  create(config, ctx, next) {
    const limits = limitsOf(config, availableMemory());
    let refusing = false;
    let timer: NodeJS.Timeout | undefined;
    const check = (): void => {
      const used = memoryInUse();
      const over = used > limits.softBytes;
      if (over !== refusing) {
        const mib = Math.round(used / 1048576);
        if (over) ctx.logger.warn({ cur_mem_mib: mib, soft_limit_mib: Math.round(limits.softBytes / 1048576) }, 'Memory usage is above soft limit. Refusing data.');
        else ctx.logger.info({ cur_mem_mib: mib }, 'Memory usage back within limits. Resuming normal operation.');
      }
      refusing = over;
    };
    return {
      async start() {
        check();
        timer = setInterval(check, durationMs(config.check_interval));
        timer.unref();
      },
      async shutdown() {
        clearInterval(timer);
      },
      consume(batch, ctx) {
        if (refusing) return Promise.reject(new MemoryLimitError());
        return next.consume(batch, ctx);
      },
    };
  },
};
