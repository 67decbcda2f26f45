// The drain gives a consumer back once the backend has answered, not once the queue has recorded
// the answer: a slow acknowledgement write does not hold the next request back. Against a real
// disk queue whose acknowledgement-log writes the test holds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { Drain, type Outgoing, type QueuedMeta, type RemoteExporterSpec } from '../../../src/exporters/helper/queued-exporter.js';
import { DiskQueue } from '../../../src/queue/disk-queue.js';
import { testContext } from '../../helpers/components.js';
import { testDisk } from '../../helpers/queue.js';
import { waitUntil } from '../../helpers/wait.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const META: QueuedMeta = { project: 'p', received: '0', keyId: 'k', metadata: {} };

describe('Drain', () => {
  it('sends the next request while the answer to the one before is being recorded, at most num_consumers answers so', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'otelgate-drain-'));
    dirs.push(directory);
    const disk = testDisk();
    const queue = await DiskQueue.open<QueuedMeta>({ directory, disk, capacity: 10 });
    for (const name of ['a', 'b', 'c']) await queue.append({ payload: Buffer.from(name), metadata: META, items: 1 });
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    disk.hold = (op, path) => (op === 'writev' && path.endsWith('acks.log') ? held : undefined);
    const pushed: string[] = [];
    const { ctx } = testContext('otlp_http', 'exporter');
    const spec: RemoteExporterSpec = {
      ctx,
      queue: { enabled: true, num_consumers: 1, queue_size: 10, sizer: 'requests', block_on_overflow: false },
      queueId: 'otlp_http',
      partitionBy: [],
      retryPauseMs: 10,
      start: async () => undefined,
      shutdown: async () => undefined,
      push: async (out: Outgoing) => {
        pushed.push(Buffer.from(out.payload).toString());
        return { kind: 'success', outcome: { kind: 'success', status: 200 }, attempts: 1 };
      },
    };
    const drain = new Drain('logs', queue, spec, undefined);
    drain.start();
    // One consumer: "b" goes while the acknowledgement of "a" is held.
    expect(await waitUntil(() => pushed.length === 2)).toBe(true);
    expect(pushed).toEqual(['a', 'b']);
    // "b"'s answer is the second being recorded: that one holds its consumer, so "c" waits.
    await sleep(100);
    expect(pushed).toEqual(['a', 'b']);
    release();
    expect(await waitUntil(() => pushed.length === 3 && queue.stats().requests === 0)).toBe(true);
    expect(pushed).toEqual(['a', 'b', 'c']);
    await drain.shutdown();
  });
});
