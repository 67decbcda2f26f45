// The disk under otlp_http's sending queue fills up while the backend is down: the file_storage
// directory is a small tmpfs. The ingest answers 503 (Retry-After: 5) for what the queue cannot
// write, keeps nothing of such a request, loses nothing it answered 2xx for, and takes data again
// by itself once the backend is back and delivering the queue has freed room.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startBackend, type Backend } from '../../helpers/backend.js';
import type { RunningCli } from '../../helpers/cli.js';
import { FAST_RETRY, forwardingHead, arrivals, send, startForwarder, workspace, type Workspace } from '../../helpers/forwarder.js';
import { waitUntil } from '../../helpers/wait.js';

/** Why this machine cannot mount a tmpfs (it takes root in a container that allows it), or undefined when it can. */
function cannotMount(): string | undefined {
  const probe = mkdtempSync(join(tmpdir(), 'otelgate-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'pipe' });
    execFileSync('umount', [probe], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    return error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

const refusedMount = cannotMount();
if (refusedMount !== undefined) console.log(`otlp_http disk-full tests skipped: cannot mount a tmpfs here (${refusedMount}); they need root and a mount-capable container`);

const running: RunningCli[] = [];
const backends: Backend[] = [];
const mounts: string[] = [];
afterEach(async () => {
  // otelgate first: a mount that a process still uses cannot be unmounted.
  for (const run of running.splice(0)) {
    run.kill();
    await run.exit().catch(() => null);
  }
  for (const backend of backends.splice(0)) await backend.stop();
  for (const mount of mounts.splice(0)) {
    execFileSync('umount', [mount]);
    rmSync(mount, { recursive: true, force: true });
  }
});

/** A tmpfs of `size` (mount's -o size=), unmounted after the test. */
function tmpfs(size: string): string {
  const mount = mkdtempSync(join(tmpdir(), 'otelgate-queue-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', mount]);
  mounts.push(mount);
  return mount;
}

function config(ws: Workspace, directory: string, backend: Backend): string {
  return `${forwardingHead(ws.keysFile, directory)}
exporters:
  otlp_http/b:
    endpoint: ${backend.url}
    ${FAST_RETRY}
    # Far more than the disk holds: the disk is what fills.
    sending_queue: {storage: file_storage, queue_size: 1000000, num_consumers: 1}
service:
  extensions: [apikeyauth, file_storage]
  pipelines:
    logs: {receivers: [ingest], exporters: [otlp_http/b]}
`;
}

/** Request `i`'s records, about `bytes` of message text in all. */
function records(tag: string, i: number, bytes: number): string[] {
  const count = 20;
  return Array.from({ length: count }, (_, j) => `${tag}-${i}-${j}-`.padEnd(bytes / count, 'x'));
}

/** Every file under `dir` with its size, for a failure's message; a file removed meanwhile is left out. */
function describeTree(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => ({ name, stat: statSync(join(dir, name), { throwIfNoEntry: false }) }))
    .filter(({ stat }) => stat?.isFile() === true)
    .map(({ name, stat }) => `${name} (${stat?.size} bytes)`)
    .join(', ');
}

function arrivedAll(backend: Backend, sent: readonly string[]): boolean {
  const got = arrivals(backend);
  return sent.every((body) => got.has(body));
}

/**
 * Fills the queue's disk with the backend down, brings the backend back, and checks what arrived.
 * `size` is the tmpfs, `bytes` the size of each request.
 */
async function fillDrainAndRecover(size: string, bytes: number): Promise<void> {
  const backend = await startBackend();
  backends.push(backend);
  await backend.stop();
  const ws = workspace('diskfull');
  const directory = tmpfs(size);
  const gate = await startForwarder(ws, config(ws, directory, backend), running);

  const accepted: string[][] = [];
  let refusal: Awaited<ReturnType<typeof send>> | undefined;
  for (let i = 0; refusal === undefined; i++) {
    const batch = records('fill', i, bytes);
    const answer = await send(gate, batch);
    if (answer.status === 202) accepted.push(batch);
    else refusal = answer;
    if (i > 100_000) throw new Error('the disk never filled');
  }
  expect(refusal).toEqual({ status: 503, retryAfter: '5' });
  expect(accepted.length).toBeGreaterThan(3);
  const cannotWrite = await gate.run.waitFor('Sending queue cannot write');
  expect(String(cannotWrite['err'])).toContain('ENOSPC');
  // Still full: refused again, and nothing of a refused request is kept.
  const refused = [records('refused', 0, bytes), records('refused', 1, bytes)];
  for (const batch of refused) expect(await send(gate, batch)).toEqual({ status: 503, retryAfter: '5' });

  await backend.start();
  const sent = accepted.flat();
  expect(await waitUntil(() => arrivedAll(backend, sent), 60_000)).toBe(true);
  // Every record answered 2xx arrived, and nothing of any request answered 503 (no half batch).
  const got = arrivals(backend);
  const answered = new Set(sent);
  expect([...got.keys()].filter((body) => !answered.has(body))).toEqual([]);
  console.log(`disk full on a ${size} tmpfs: ${accepted.length} requests answered 202, ${[...got.values()].reduce((a, b) => a + b)} records delivered for ${sent.length}`);

  // Delivering freed room: the ingest takes data again, by itself, and it arrives.
  const after = records('after', 0, bytes);
  const takesAgain = await waitUntil(async () => (await send(gate, after)).status === 202, 30_000);
  // The message is built only on failure: the queue removes delivered segments while it runs.
  if (!takesAgain) expect.fail(`still refused once every record was delivered; the queue's disk holds: ${describeTree(directory)}; df -k: ${execFileSync('df', ['-k', directory]).toString()}`);
  expect(await waitUntil(() => arrivedAll(backend, after))).toBe(true);
  await gate.run.waitFor('Sending queue writes again');
  for (let i = 1; i <= 3; i++) expect(await send(gate, records('after', i, bytes))).toEqual({ status: 202, retryAfter: undefined });
}

describe.skipIf(refusedMount !== undefined)('otlp_http: the disk under the sending queue fills up', () => {
  it('answers 503 with Retry-After: 5, loses nothing answered 2xx, and takes data again once delivering frees room (a queue of several segments)', async () => {
    // 24 MiB: three 8 MiB segments; delivering removes the sealed ones.
    await fillDrainAndRecover('24m', 100_000);
  }, 120_000);

  it('the same when the whole queue is in the segment being written (the disk is smaller than a segment grows)', async () => {
    // 1 MiB: the one segment never reaches 8 MiB, so it is never sealed; once every record in it
    // is delivered, its room must still come back.
    await fillDrainAndRecover('1m', 20_000);
  }, 120_000);
});
