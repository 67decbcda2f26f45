// The checkpointer thread's failure is not the store's: the writer takes checkpoints back, and
// shutdown does not wait for a thread that is already gone.
import { describe, expect, it } from 'vitest';
import { Checkpointer } from '../../../src/exporters/store/checkpointer.js';
import { memoryLogger } from '../../helpers/logger.js';
import { settles, waitUntil } from '../../helpers/wait.js';

describe('store checkpointer', () => {
  it('hands checkpoints back when its thread fails, and stops without waiting for the thread that is gone', async () => {
    const { logger, lines } = memoryLogger();
    let handedBack = 0;
    const checkpointer = new Checkpointer('/nonexistent-folder/store.db', { intervalMs: 1000 }, logger, { hold: () => {}, release: () => {} }, () => handedBack++);
    expect(await waitUntil(() => handedBack > 0)).toBe(true);
    expect(handedBack).toBe(1);
    expect(lines.map((l) => l['msg'])).toContain('The checkpointer thread failed; the writer checkpoints by itself from now on');
    // Waiting for a thread that is gone would never end.
    expect(await settles(checkpointer.stop())).toBe(true);
  });
});
