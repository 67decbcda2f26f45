import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { builtinRegistry } from '../../../src/components.js';
import { MemoryLimitError } from '../../../src/errors.js';
import { limitsOf, validateMemoryLimiter } from '../../../src/processors/memory_limiter/config.js';
import { Service } from '../../../src/runtime/service.js';
import { captureExporter, recorder } from '../../helpers/components.js';
import { configFrom } from '../../helpers/config.js';
import { memoryLogger } from '../../helpers/logger.js';
import { logBatch } from '../../helpers/rows.js';
import { waitUntil } from '../../helpers/wait.js';
import { consumeContext } from '../../../src/runtime/component.js';

const MIB = 1024 * 1024;
const defaults = { check_interval: '1s', limit_mib: 0, spike_limit_mib: 0, limit_percentage: 0, spike_limit_percentage: 0 };

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function pipeline(settings: string) {
  const rec = recorder();
  const registry = builtinRegistry().register(captureExporter(rec));
  const { logger, lines } = memoryLogger();
  const service = new Service(
    configFrom(
      `
receivers: {nop: }
processors: {memory_limiter: ${settings}}
exporters: {capture: }
service:
  pipelines:
    logs: {receivers: [nop], processors: [memory_limiter], exporters: [capture]}
`,
      registry,
    ),
    logger,
  );
  return { service, rec, lines, push: () => service.consumer('nop', 'logs')?.consume(logBatch(1), consumeContext()) };
}

describe('memory_limiter limits', () => {
  it.each([
    [{ limit_mib: 100 }, 100, 80],
    [{ limit_mib: 100, spike_limit_mib: 30 }, 100, 70],
    [{ limit_percentage: 50 }, 512, 409.6],
    [{ limit_percentage: 50, spike_limit_percentage: 10 }, 512, 409.6],
  ])('%j on 1 GiB: hard %d MiB, soft %d MiB', (settings, hard, soft) => {
    const limits = limitsOf({ ...defaults, ...settings }, 1024 * MIB);
    expect(limits.hardBytes / MIB).toBeCloseTo(hard, 6);
    expect(limits.softBytes / MIB).toBeCloseTo(soft, 6);
  });

  it('needs an interval and a limit, and a spike below the limit', () => {
    expect(validateMemoryLimiter({ ...defaults, check_interval: '0s' }).map((p) => p.message)).toEqual([
      'must be greater than zero; 1s is the usual choice',
      'set a memory limit: limit_mib (MiB) or limit_percentage (% of available memory)',
    ]);
    expect(validateMemoryLimiter({ ...defaults, limit_percentage: 20, spike_limit_percentage: 20 })).toEqual([
      { path: ['spike_limit_percentage'], message: 'must be smaller than limit_percentage (20)' },
    ]);
    expect(validateMemoryLimiter({ ...defaults, limit_mib: 512 })).toEqual([]);
  });
});

describe('memory_limiter processor', () => {
  it('passes data on below its limit', async () => {
    const { service, rec, push } = pipeline('{check_interval: 1s, limit_mib: 1000000}');
    await service.start();
    await push();
    expect(rec.batches.get('capture')).toHaveLength(1);
    await service.shutdown();
  });

  it('refuses data with a retryable error above its soft limit, and resumes once memory is freed', async () => {
    gc();
    const usage = process.memoryUsage();
    const limitMib = Math.ceil((usage.heapUsed + usage.arrayBuffers) / MIB) + 150;
    const { service, rec, lines, push } = pipeline(`{check_interval: 20ms, limit_mib: ${limitMib}, spike_limit_mib: 50}`);
    await service.start();
    await push();

    const ballast = [Buffer.alloc(200 * MIB, 1)];
    // A check (every 20 ms) sees it, however long a loaded machine takes to run one.
    expect(await waitUntil(() => lines.some((l) => l['msg'] === 'Memory usage is above soft limit. Refusing data.'))).toBe(true);
    const refused = await push()?.catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MemoryLimitError);
    expect((refused as MemoryLimitError).retryable).toBe(true);

    ballast.length = 0;
    // Until a GC has freed the ballast (its memory may be given back on another thread) and a check has seen it.
    const resumed = (): boolean => {
      gc();
      return lines.some((l) => l['msg'] === 'Memory usage back within limits. Resuming normal operation.');
    };
    expect(await waitUntil(resumed)).toBe(true);
    await push();
    expect(rec.batches.get('capture')).toHaveLength(2);
    await service.shutdown();
  });
});
