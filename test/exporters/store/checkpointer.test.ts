// The checkpointer thread's failure is not the store's: the writer takes checkpoints back, and
// shutdown does not wait for a thread that is already gone.
import { describe, expect, it } from 'vitest';
import { Checkpointer } from '../../../src/exporters/store/checkpointer.js';
import { memoryLogger } from '../../helpers/logger.js';

describe('store checkpointer', () => {
  it('hands checkpoints back when its thread fails, and stops at once afterwards', async () => {
    const { logger, lines } = memoryLogger();
    let handedBack = 0;
    const checkpointer = new Checkpointer('/nonexistent-folder/store.db', { intervalMs: 1000 }, logger, { hold: () => {}, release: () => {} }, () => handedBack++);
    for (let waited = 0; handedBack === 0 && waited < 5000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(handedBack).toBe(1);
    expect(lines.map((l) => l['msg'])).toContain('The checkpointer thread failed; the writer checkpoints by itself from now on');
    const started = performance.now();
    await checkpointer.stop();
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
