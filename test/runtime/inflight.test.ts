// Inflight and fanout are plain functions returning promises (so that no suspended frame holds a
// batch): a consumer that throws instead of rejecting must still come out as a rejection, and be
// counted out.
import { describe, expect, it } from 'vitest';
import type { Consumer } from '../../src/runtime/component.js';
import { consumeContext } from '../../src/runtime/component.js';
import { fanout } from '../../src/runtime/fanout.js';
import { Inflight } from '../../src/runtime/inflight.js';
import { logBatch } from '../helpers/rows.js';

const throwing: Consumer = {
  consume: () => {
    throw new Error('thrown, not rejected');
  },
};
const accepting: Consumer = { consume: () => Promise.resolve() };

describe('Inflight and fanout with a consumer that throws', () => {
  it('Inflight rejects, counts the batch out, and closes at once after', async () => {
    const inflight = new Inflight();
    const wrapped = inflight.wrap(throwing, false);
    await expect(wrapped.consume(logBatch(1), consumeContext())).rejects.toThrow('thrown, not rejected');
    expect(inflight.size).toBe(0);
    await inflight.close();
    await expect(wrapped.consume(logBatch(1), consumeContext())).rejects.toMatchObject({ name: 'ShuttingDownError' });
  });

  it('fanout rejects with the error of the one that threw, after the others accepted', async () => {
    let accepted = 0;
    const counting: Consumer = { consume: () => Promise.resolve(void accepted++) };
    await expect(fanout([counting, throwing, accepting]).consume(logBatch(1), consumeContext())).rejects.toThrow('thrown, not rejected');
    expect(accepted).toBe(1);
  });
});
