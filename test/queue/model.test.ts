// The disk queue against an in-memory model, over random sequences of append, take (also one
// that has to wait for the next append), ack, nack,
// restart, crash (the process dies: nothing more reaches the disk, appends and acknowledgements
// under way may or may not have), a torn last write (the newest segment cut inside its last
// record, or garbage after it) and a damaged record in the middle (one bit flipped). After every
// step: nothing whose append resolved and that was not acknowledged is lost; what was taken and
// not acknowledged comes again after a restart; what was acknowledged never comes again; damage is
// set aside and counted exactly; the size limit holds; open never fails.
import { mkdtempSync, rmSync, statSync, truncateSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { QueueFullError } from '../../src/errors.js';
import { DiskQueue } from '../../src/queue/disk-queue.js';
import type { QueueSizer } from '../../src/queue/types.js';
import { cutOffHeader, fileRecords, firstIdOf, segmentFiles, testDisk, tornBytesAtOpen, type TestDisk } from '../helpers/queue.js';

const ROOT = mkdtempSync(join(tmpdir(), 'otelgate-queue-model-'));
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

interface Meta {
  tag: string;
  project: string;
}

type Op =
  | { kind: 'append'; entries: { extra: number; items: number }[] }
  | { kind: 'take'; count: number }
  | { kind: 'waitingTake'; extra: number }
  | { kind: 'ack'; picks: number[] }
  | { kind: 'nack'; picks: number[] }
  | { kind: 'restart' }
  | { kind: 'crash'; appends: number; acks: number }
  | { kind: 'torn'; truncate: boolean; cut: number; garbage: number }
  | { kind: 'corrupt'; pick: number; byte: number; bit: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('append' as const), entries: fc.array(fc.record({ extra: fc.integer({ min: 0, max: 600 }), items: fc.integer({ min: 0, max: 5 }) }), { minLength: 1, maxLength: 6 }) }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('take' as const), count: fc.integer({ min: 1, max: 5 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('waitingTake' as const), extra: fc.integer({ min: 0, max: 600 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('ack' as const), picks: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('nack' as const), picks: fc.array(fc.nat(), { minLength: 1, maxLength: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('restart' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('crash' as const), appends: fc.integer({ min: 0, max: 3 }), acks: fc.integer({ min: 0, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('torn' as const), truncate: fc.boolean(), cut: fc.double({ min: 0, max: 1, noNaN: true }), garbage: fc.integer({ min: 1, max: 80 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('corrupt' as const), pick: fc.nat(), byte: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }) },
);

const configArb = fc.record({
  sizer: fc.constantFrom<QueueSizer>('requests', 'items', 'bytes'),
  fsync: fc.boolean(),
  compactOnStart: fc.boolean(),
  segmentBytes: fc.integer({ min: 300, max: 3000 }),
});
const CAPACITY: Record<QueueSizer, number> = { requests: 12, items: 30, bytes: 5000 };

/** What the model knows of one appended entry. */
interface Entry {
  tag: string;
  payload: Buffer;
  items: number;
  id: number | undefined;
  /**
   * available: in the queue, not taken; taken: handed out by the open queue; acked: done; gone:
   * destroyed by the test's own damage. `sure` false: a crash left it open whether the append
   * (for available) or the acknowledgement (for acked) reached the disk.
   */
  state: 'available' | 'taken' | 'acked' | 'gone';
  sure: boolean;
}

class Model {
  readonly entries = new Map<string, Entry>();
  private n = 0;

  newEntry(extra: number, items: number): Entry {
    const tag = `e${++this.n}`;
    const entry: Entry = { tag, payload: Buffer.concat([Buffer.from(`${tag}:`), Buffer.alloc(extra, 0x2e)]), items, id: undefined, state: 'available', sure: true };
    return entry;
  }

  list(filter: (e: Entry) => boolean): Entry[] {
    return [...this.entries.values()].filter(filter);
  }

  sizeOf(sizer: QueueSizer, e: Entry): number {
    return sizer === 'requests' ? 1 : sizer === 'items' ? e.items : e.payload.length;
  }

  /** After a restart: everything taken is available again. */
  restarted(): void {
    for (const e of this.entries.values()) if (e.state === 'taken') e.state = 'available';
  }

  /** Bounds on what the queue must hold: sure ones at least, unsure ones possibly. */
  bounds(sizer: QueueSizer): { min: number; max: number } {
    let min = 0;
    let max = 0;
    for (const e of this.entries.values()) {
      const size = this.sizeOf(sizer, e);
      if ((e.state === 'available' || e.state === 'taken') && e.sure) {
        min += size;
        max += size;
      } else if ((e.state === 'available' && !e.sure) || (e.state === 'acked' && !e.sure)) max += size;
    }
    return { min, max };
  }
}

const tagOf = (payload: Uint8Array): string => Buffer.from(payload).toString('latin1').split(':')[0] as string;

interface Run {
  dir: string;
  disk: TestDisk;
  queue: DiskQueue<Meta>;
  model: Model;
  sizer: QueueSizer;
  open(): Promise<void>;
}

async function check(run: Run, expectRecovery?: { corruptRecords: [number, number]; corruptBytes: number; tornBytes: number }): Promise<void> {
  const stats = run.queue.stats();
  const sure = run.model.bounds(run.sizer);
  expect(stats.size).toBeGreaterThanOrEqual(sure.min);
  expect(stats.size).toBeLessThanOrEqual(sure.max);
  // The size limit: only an acknowledgement that a crash may have lost can bring back more.
  const unsureAcked = run.model.list((e) => e.state === 'acked' && !e.sure).reduce((sum, e) => sum + run.model.sizeOf(run.sizer, e), 0);
  expect(stats.size).toBeLessThanOrEqual(CAPACITY[run.sizer] + unsureAcked);
  expect(stats.inFlight).toBe(run.model.list((e) => e.state === 'taken').length);
  if (expectRecovery !== undefined) {
    const r = stats.recovery;
    expect(r.corruptRecords).toBeGreaterThanOrEqual(expectRecovery.corruptRecords[0]);
    expect(r.corruptRecords).toBeLessThanOrEqual(expectRecovery.corruptRecords[1]);
    expect([r.corruptBytes, r.tornBytes, r.unreadableSegments, r.ackLogDamagedBytes]).toEqual([expectRecovery.corruptBytes, expectRecovery.tornBytes, 0, 0]);
  }
}

async function take(run: Run, count: number): Promise<void> {
  const { queue, model } = run;
  for (let i = 0; i < count; i++) {
    const stats = queue.stats();
    if (stats.requests - stats.inFlight === 0) return;
    const taken = await queue.take();
    expect(taken).toBeDefined();
    if (taken === undefined) return;
    const entry = model.entries.get(tagOf(taken.payload));
    expect(entry, `took ${tagOf(taken.payload)}`).toBeDefined();
    if (entry === undefined) return;
    expect([entry.state === 'taken', entry.state === 'gone', entry.state === 'acked' && entry.sure], `took ${entry.tag} (${entry.state})`).toEqual([false, false, false]);
    if (entry.state === 'available' && entry.sure) {
      // Oldest first: no sure entry older than it is waiting.
      const older = model.list((e) => e.state === 'available' && e.sure && (e.id as number) < taken.id);
      expect(older.map((e) => e.tag)).toEqual([]);
      expect(taken.id).toBe(entry.id);
    }
    expect([Buffer.from(taken.payload).equals(entry.payload), taken.items, taken.metadata]).toEqual([true, entry.items, { tag: entry.tag, project: `p${entry.payload.length % 3}` }]);
    entry.state = 'taken';
    entry.sure = true;
    entry.id = taken.id;
  }
}

/**
 * Once everything is taken, a take waits: it must be answered by the next entry appended, not
 * by one taken already. (A take that waits in vain is ended by its signal.)
 */
async function waitingTake(run: Run, extra: number): Promise<void> {
  const stats = run.queue.stats();
  if (stats.requests > stats.inFlight) return take(run, 1);
  const controller = new AbortController();
  const waiting = run.queue.take(controller.signal);
  await new Promise((resolve) => setImmediate(resolve));
  const entry = run.model.newEntry(extra, 1);
  await append(run, [entry], false);
  if (entry.state === 'gone') {
    controller.abort();
    expect(await waiting).toBeUndefined();
    return;
  }
  const taken = await waiting;
  expect(taken === undefined ? undefined : tagOf(taken.payload)).toBe(entry.tag);
  entry.state = 'taken';
  entry.id = taken?.id;
}

/** Appends at once, in order; resolves once every append has settled. `crashing`: a crash is coming, so an admitted append may fail. */
function append(run: Run, entries: Entry[], crashing: boolean): Promise<void> {
  const { queue, model, sizer } = run;
  // Admission is decided at the call, in call order: the model predicts each refusal exactly.
  let room = CAPACITY[sizer] - queue.stats().size;
  const settled = entries.map((entry) => {
    model.entries.set(entry.tag, entry);
    const need = model.sizeOf(sizer, entry);
    const fits = need <= room;
    if (fits) room -= need;
    const appended = queue.append({ payload: entry.payload, metadata: { tag: entry.tag, project: `p${entry.payload.length % 3}` }, items: entry.items });
    return appended.then(
      (id) => {
        expect(fits, `${entry.tag} was admitted`).toBe(true);
        entry.id = id;
      },
      (error: unknown) => {
        if (!fits) {
          expect(error).toBeInstanceOf(QueueFullError);
          entry.state = 'gone';
          return;
        }
        // Only a crash makes an admitted append fail here: it may have reached the disk.
        expect(crashing, `${entry.tag}: ${String(error)}`).toBe(true);
        entry.sure = false;
      },
    );
  });
  return Promise.all(settled).then(() => undefined);
}

const newestSegment = (run: Run): string | undefined => segmentFiles(run.dir).at(-1);

/** The bytes open is to find torn in the newest segment: past its own records, up to a reused file's older ones. */
const tornAtOpen = (run: Run): number => {
  const newest = newestSegment(run);
  return newest === undefined ? 0 : tornBytesAtOpen(newest);
};

/**
 * The newest segment's last record cut, or garbage written after it where the next write would
 * have gone (over a reused file's older bytes); returns the torn bytes to expect at least: a
 * reused file adds the rest of the older record the garbage ends in.
 */
function tear(run: Run, truncate: boolean, cut: number, garbage: number): number {
  const newest = newestSegment(run);
  if (newest === undefined) return 0;
  const records = fileRecords(newest);
  const last = records[records.length - 1];
  if (truncate) {
    if (last === undefined) return 0;
    const keep = 1 + Math.floor(cut * (last.length - 2));
    truncateSync(newest, last.at + keep);
    const entry = run.model.entries.get(tagOf(last.payload)) as Entry;
    entry.state = 'gone';
    return keep;
  }
  const end = last === undefined ? 0 : last.at + last.length;
  const buf = readFileSync(newest);
  // What a write cut off leaves: the start of the next record's header (magic, a checksum that
  // will not match, a length, the id), then bytes below "O", so no other magic number appears.
  const header = cutOffHeader(last === undefined ? firstIdOf(newest) : last.id + 1, 0xffff);
  const torn = Buffer.from(Array.from({ length: garbage }, (_, i) => (i < 20 ? (header[i] as number) : (i * 37 + cut * 100) & 0x3f)));
  writeFileSync(newest, Buffer.concat([buf.subarray(0, end), torn, buf.subarray(Math.min(buf.length, end + garbage))]));
  return garbage;
}

/** One bit flipped in a record that has a whole record after it; returns the damage to expect. */
function corrupt(run: Run, pick: number, byte: number, bit: number): { records: [number, number]; bytes: number } {
  const files = segmentFiles(run.dir);
  const all = files.flatMap((file, i) => {
    const records = fileRecords(file);
    // What a record in the newest file is found to be on disk settles an append a crash left open.
    for (const r of records) {
      const e = run.model.entries.get(tagOf(r.payload)) as Entry;
      if (e.state === 'available' && !e.sure) {
        e.sure = true;
        e.id = r.id;
      }
    }
    return i === files.length - 1 ? records.slice(0, -1) : records;
  });
  const victim = all[pick % Math.max(1, all.length)];
  if (victim === undefined) return { records: [0, 0], bytes: 0 };
  const buf = readFileSync(victim.file);
  const at = victim.at + (byte % victim.length);
  buf[at] = (buf[at] as number) ^ (1 << bit);
  writeFileSync(victim.file, buf);
  const entry = run.model.entries.get(tagOf(victim.payload)) as Entry;
  const wasAcked = entry.state === 'acked';
  const sureAcked = wasAcked && entry.sure;
  entry.state = 'gone';
  // An acknowledged record is no loss; one whose acknowledgement a crash left open may count.
  return { records: sureAcked ? [0, 0] : wasAcked ? [0, 1] : [1, 1], bytes: victim.length };
}

async function crash(run: Run, appends: number, acks: number): Promise<void> {
  const { model, queue } = run;
  const pending: Promise<unknown>[] = [];
  pending.push(append(run, Array.from({ length: appends }, (_, i) => model.newEntry(i * 50, i)), true));
  for (const entry of model.list((e) => e.state === 'taken').slice(0, acks)) {
    entry.state = 'acked';
    entry.sure = false;
    pending.push(
      queue.ack(entry.id as number).then(
        () => {
          entry.sure = true;
        },
        () => undefined,
      ),
    );
  }
  run.disk.kill();
  await queue.close();
  await Promise.all(pending);
  model.restarted();
}

type Config = typeof configArb extends fc.Arbitrary<infer T> ? T : never;

async function runOps(config: Config, ops: Op[]): Promise<void> {
  const dir = mkdtempSync(join(ROOT, 'q-'));
  const model = new Model();
  const run: Run = {
    dir,
    model,
    sizer: config.sizer,
    disk: testDisk(),
    queue: undefined as unknown as DiskQueue<Meta>,
    async open() {
      this.disk = testDisk();
      this.queue = await DiskQueue.open<Meta>({ directory: dir, disk: this.disk, sizer: config.sizer, capacity: CAPACITY[config.sizer], fsync: config.fsync, segmentBytes: config.segmentBytes, compactOnStart: config.compactOnStart });
    },
  };
  try {
    await run.open();
    for (const op of ops) {
      switch (op.kind) {
        case 'append':
          await append(run, op.entries.map((e) => model.newEntry(e.extra, e.items)), false);
          await check(run);
          break;
        case 'take':
          await take(run, op.count);
          await check(run);
          break;
        case 'waitingTake':
          await waitingTake(run, op.extra);
          await check(run);
          break;
        case 'ack': {
          const taken = model.list((e) => e.state === 'taken');
          const picked = [...new Set(op.picks.map((p) => taken[p % Math.max(1, taken.length)]).filter((e) => e !== undefined))];
          await Promise.all(picked.map((e) => run.queue.ack(e.id as number)));
          for (const e of picked) e.state = 'acked';
          await check(run);
          break;
        }
        case 'nack': {
          const taken = model.list((e) => e.state === 'taken');
          const picked = [...new Set(op.picks.map((p) => taken[p % Math.max(1, taken.length)]).filter((e) => e !== undefined))];
          for (const e of picked) {
            run.queue.nack(e.id as number);
            e.state = 'available';
          }
          await check(run);
          break;
        }
        case 'restart':
          await run.queue.close();
          model.restarted();
          await run.open();
          await check(run, { corruptRecords: [0, 0], corruptBytes: 0, tornBytes: 0 });
          break;
        case 'crash': {
          await crash(run, op.appends, op.acks);
          // Nothing torn, but a reused newest segment's older bytes past its own records.
          const tornBytes = tornAtOpen(run);
          await run.open();
          await check(run, { corruptRecords: [0, 0], corruptBytes: 0, tornBytes });
          break;
        }
        case 'torn': {
          await crash(run, 0, 0);
          const torn = tear(run, op.truncate, op.cut, op.garbage);
          const tornBytes = tornAtOpen(run);
          // A reused file adds the rest of the older record the cut write ends in; a write cut
          // off before its magic number was written is not told from that rest.
          if (op.truncate) expect(tornBytes).toBe(torn);
          else if (torn >= 4) expect(tornBytes).toBeGreaterThanOrEqual(torn);
          await run.open();
          await check(run, { corruptRecords: [0, 0], corruptBytes: 0, tornBytes });
          break;
        }
        case 'corrupt': {
          await crash(run, 0, 0);
          const damage = corrupt(run, op.pick, op.byte, op.bit);
          const tornBytes = tornAtOpen(run);
          await run.open();
          await check(run, { corruptRecords: damage.records, corruptBytes: damage.bytes, tornBytes });
          break;
        }
      }
    }
    await drain(run);
  } finally {
    await run.queue.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** At the end: after a restart every sure entry not acknowledged comes exactly once, and then the directory empties. */
async function drain(run: Run): Promise<void> {
  const { model } = run;
  await run.queue.close();
  model.restarted();
  await run.open();
  const seen: string[] = [];
  for (let stats = run.queue.stats(); stats.requests > stats.inFlight; stats = run.queue.stats()) {
    const taken = await run.queue.take();
    if (taken === undefined) break;
    seen.push(tagOf(taken.payload));
    const entry = model.entries.get(tagOf(taken.payload));
    expect(entry !== undefined && entry.state !== 'gone' && !(entry.state === 'acked' && entry.sure), `drained ${tagOf(taken.payload)}`).toBe(true);
    await run.queue.ack(taken.id);
  }
  expect(seen.length).toBe(new Set(seen).size);
  const mustCome = model.list((e) => e.state === 'available' && e.sure).map((e) => e.tag);
  expect(mustCome.filter((tag) => !seen.includes(tag))).toEqual([]);
  await run.queue.close();
  await run.open();
  expect([run.queue.stats().requests, segmentFiles(run.dir).length]).toEqual([0, 0]);
  expect(statSync(join(run.dir, 'acks.log')).size).toBeLessThan(200);
}

describe('the disk queue against a model', () => {
  it('keeps every entry it accepted and not acknowledged, delivers nothing acknowledged again, counts damage exactly', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(configArb, fc.array(opArb, { minLength: 5, maxLength: 40 }), async (config, ops) => {
        await runOps(config, ops);
      }),
      { numRuns: 200 },
    );
  });
});
