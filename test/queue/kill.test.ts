// kill -9 for real: a child process appends to a disk queue from eight loops at once and takes and
// acknowledges from two, printing each id once its append (or its acknowledgement) has resolved.
// The test SIGKILLs it in the middle of that, reopens the queue and holds it to what was printed:
// every id printed as appended and not as being acknowledged is there, exactly once; none printed
// as acknowledged comes again (one whose acknowledgement was under way may, or may not). It runs
// the built queue (dist/), as otelgate runs.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DiskQueue } from '../../src/queue/disk-queue.js';
import { ROOT } from '../helpers/cli.js';
import { waitUntil } from '../helpers/wait.js';

const DIR = mkdtempSync(join(tmpdir(), 'otelgate-queue-kill-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

// Lines are written with writeSync: a pipe that is full makes process.stdout buffer in the child,
// and a line buffered when the kill comes was never printed, though what it announces happened.
const CHILD = `
import { writeSync } from 'node:fs';
import { DiskQueue } from ${JSON.stringify(join(ROOT, 'dist/queue/disk-queue.js'))};
const [directory, fsync, acks] = process.argv.slice(1);
const queue = await DiskQueue.open({ directory, fsync: fsync === 'true', capacity: 1_000_000, segmentBytes: 64 * 1024 });
writeSync(1, 'open\\n');
let seq = 0;
const appender = async () => {
  for (;;) {
    const n = seq++;
    const id = await queue.append({ payload: Buffer.from('entry-' + n + ':' + 'x'.repeat(n % 500)), metadata: { n }, items: 1 });
    writeSync(1, 'appended ' + id + ' ' + n + '\\n');
  }
};
const consumer = async () => {
  for (;;) {
    const taken = await queue.take();
    // Half are acknowledged (the rest stay taken, as when a backend has not answered yet), or all,
    // so that whole segments are done and their files written over again (spares.ts).
    if (acks === 'half' && taken.metadata.n % 2 === 0) continue;
    writeSync(1, 'acking ' + taken.id + '\\n');
    await queue.ack(taken.id);
    writeSync(1, 'acked ' + taken.id + '\\n');
  }
};
for (let i = 0; i < 8; i++) void appender();
for (let i = 0; i < 2; i++) void consumer();
`;

interface Printed {
  appended: Map<number, number>;
  /** Acknowledging began: the kill may have come before or after it was written. */
  acking: Set<number>;
  acked: Set<number>;
  open: boolean;
}

function parse(text: string, printed: Printed): void {
  for (const line of text.split('\n')) {
    const [what, id, n] = line.split(' ');
    if (what === 'open') printed.open = true;
    if (what === 'appended' && n !== undefined) printed.appended.set(Number(id), Number(n));
    if (what === 'acking') printed.acking.add(Number(id));
    if (what === 'acked') printed.acked.add(Number(id));
  }
}

describe('disk queue: kill -9', () => {
  it.each([
    [false, 'half'],
    [true, 'half'],
    [false, 'all'],
  ] as const)('after SIGKILL in the middle of appends and acks (fsync %s, %s acknowledged), every entry printed as appended and not acknowledged is there once; none acknowledged comes again', { timeout: 120_000 }, async (fsync, acks) => {
    const directory = join(DIR, `fsync-${fsync}-${acks}`);
    const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD, directory, String(fsync), acks], { stdio: ['ignore', 'pipe', 'pipe'] });
    const printed: Printed = { appended: new Map(), acking: new Set(), acked: new Set(), open: false };
    let partial = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const text = partial + chunk;
      const end = text.lastIndexOf('\n');
      parse(text.slice(0, end + 1), printed);
      partial = text.slice(end + 1);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    // 'close', not 'exit': the lines the child wrote before the kill may still be in the pipe at its exit.
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, signal) => resolve(signal)));
    // Enough for several segments to have been written and some removed (with all acknowledged, reused).
    const acked = acks === 'all' ? 3000 : 500;
    expect(await waitUntil(() => stderr !== '' || (printed.appended.size >= 6000 && printed.acked.size >= acked), 60_000)).toBe(true);
    expect(stderr).toBe('');
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    // A line cut in two by the kill was never printed whole: it claims nothing.

    const queue = await DiskQueue.open<{ n: number }>({ directory, capacity: 1_000_000 });
    // A process killed damages nothing written: at most the newest segment's last write is torn.
    expect(queue.stats().recovery).toMatchObject({ corruptRecords: 0, corruptBytes: 0, unreadableSegments: 0 });
    const delivered = new Map<number, number>();
    const seen = new Set<number>();
    let duplicates = 0;
    for (let stats = queue.stats(); stats.requests > stats.inFlight; stats = queue.stats()) {
      const taken = await queue.take();
      if (taken === undefined) break;
      if (delivered.has(taken.id) || seen.has(taken.metadata.n)) duplicates++;
      seen.add(taken.metadata.n);
      delivered.set(taken.id, taken.metadata.n);
      expect(Buffer.from(taken.payload).toString().startsWith(`entry-${taken.metadata.n}:`)).toBe(true);
    }
    await queue.close();

    const missing = [...printed.appended].filter(([id]) => !printed.acking.has(id) && !delivered.has(id));
    const again = [...printed.acked].filter((id) => delivered.has(id));
    const wrong = [...printed.appended].filter(([id, n]) => delivered.has(id) && delivered.get(id) !== n);
    console.log(`kill -9 (fsync ${fsync}, ${acks} acknowledged): ${printed.appended.size} appends and ${printed.acked.size} acknowledgements printed; ${delivered.size} entries after restart, ${duplicates} duplicates, ${missing.length} missing`);
    expect({ missing: missing.length, acknowledgedAgain: again.length, duplicates, wrong: wrong.length }).toEqual({ missing: 0, acknowledgedAgain: 0, duplicates: 0, wrong: 0 });
  });
});
