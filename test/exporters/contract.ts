// The exporter contract: what every remote exporter must do against a real backend on loopback
// that the test stops, starts, holds and makes answer what it wants, with otelgate running as it
// runs for users (the built CLI). Every record answered 200 must arrive: across an outage, a full
// queue, SIGTERM and kill -9; a 429's Retry-After is honoured; a permanent refusal is dropped and
// not sent again. Each exporter's faults test runs it with its own wire (how its backend reads a
// request) through the one exporter helper they share.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BackendKind, ContractBackend } from '../helpers/backend.js';
import { waitUntil } from '../helpers/wait.js';
import type { Signal } from '../../src/model/signal.js';
import { FAST_RETRY, forwardingHead, send as sendLogs, startForwarder, stoppedAfterEach, workspace, type Answer, type Forwarder } from '../helpers/forwarder.js';

export interface ContractSubject<R> {
  /** The exporter's type, as a config names it. */
  type: string;
  /** Its backend: HTTP with the wire it reads (httpBackends), or gRPC. */
  backend: BackendKind<R>;
  /** The exporter's settings that point it at the backend at `url`, as YAML lines (no indent). */
  settings(url: string): string[];
  /** The messages (simple JSON `message`s sent by the test, or what `send` makes of them) that rows the backend read carry. */
  messages(rows: readonly R[]): string[];
  /** The pipeline it runs in: logs unless it says otherwise. */
  signal?: Signal;
  /** Sends these messages in one request to the forwarder, answered `accepted` when taken; default: simple JSON log records, 202. */
  send?(forwarder: Forwarder, messages: readonly string[]): Promise<Answer>;
  accepted?: number;
}

/** Runs the contract's tests, in a describe block of their own. */
export function exporterContract<R>(subject: ContractSubject<R>): void {
  const { running, backends } = stoppedAfterEach();
  const exporter = `${subject.type}/b`;
  const signal = subject.signal ?? 'logs';
  const send = subject.send ?? sendLogs;
  const accepted = subject.accepted ?? 202;
  const { ok, throttled, refused } = subject.backend.statuses;

  /** otelgate with the exporter to `url`, and `queue` lines under its sending_queue. */
  function configFor(dir: string, keysFile: string, url: string, queue = ''): string {
    const lines = [...subject.settings(url), 'tenant: {header: X-Scope-OrgID}', FAST_RETRY, 'sending_queue:', '  storage: file_storage', ...queue.split('\n').filter((l) => l !== '').map((l) => `  ${l}`)];
    return `${forwardingHead(keysFile, join(dir, 'queue'))}
exporters:
  ${exporter}:
${lines.map((l) => `    ${l}`).join('\n')}
service:
  extensions: [apikeyauth, file_storage]
  pipelines:
    ${signal}: {receivers: [ingest], exporters: [${exporter}]}
`;
  }

  async function backendDown(): Promise<ContractBackend<R>> {
    const backend = await subject.backend.start();
    backends.push(backend);
    await backend.stop();
    return backend;
  }

  async function backendUp(): Promise<ContractBackend<R>> {
    const backend = await subject.backend.start();
    backends.push(backend);
    return backend;
  }

  /** The messages the backend answered 2xx, in the order they arrived. */
  const bodies = (backend: ContractBackend<R>): string[] => subject.messages(backend.delivered(signal));

  /** Every message of `sent` arrived at least once; prints how many came twice. */
  function expectAllArrived(backend: ContractBackend<R>, sent: string[], what: string): void {
    const got = bodies(backend);
    const seen = new Set(got);
    expect(sent.filter((m) => !seen.has(m))).toEqual([]);
    console.log(`${subject.type}, ${what}: ${sent.length} records answered 2xx, ${got.length} delivered, ${got.length - seen.size} duplicates`);
  }

  describe(`${subject.type} against a backend that fails (the exporter contract)`, () => {
    it('delivers every record answered 200 while the backend was down for 30 s, with the tenant header', async () => {
      const backend = await backendDown();
      const ws = workspace('faults');
      const { dir, keysFile } = ws;
      const forwarder = await startForwarder(ws, configFor(dir, keysFile, backend.url), running);
      const sent: string[] = [];
      const until = performance.now() + 30_000;
      for (let i = 0; performance.now() < until; i++) {
        const batch = [`outage-${i}-a`, `outage-${i}-b`];
        expect((await send(forwarder, batch)).status).toBe(accepted);
        sent.push(...batch);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(bodies(backend)).toEqual([]);
      await backend.start();
      expect(await waitUntil(() => new Set(bodies(backend)).size === sent.length, 60_000)).toBe(true);
      expectAllArrived(backend, sent, 'outage');
      expect(new Set(backend.received.map((r) => r.headers['x-scope-orgid']))).toEqual(new Set(['shop']));
    }, 120_000);

    it('answers 503 once the queue is full, drops nothing queued, and delivers the oldest after recovery', async () => {
      const backend = await backendDown();
      const ws = workspace('faults');
      const { dir, keysFile } = ws;
      const forwarder = await startForwarder(ws, configFor(dir, keysFile, backend.url, 'queue_size: 5\nnum_consumers: 1'), running);
      const taken: string[] = [];
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        const { status } = await send(forwarder, [`full-${i}`]);
        statuses.push(status);
        if (status === accepted) taken.push(`full-${i}`);
      }
      // queue_size counts what is not yet delivered, the request a consumer holds in its retries included.
      expect(statuses).toEqual([...Array(5).fill(accepted), ...Array(7).fill(503)]);
      await backend.start();
      expect(await waitUntil(() => new Set(bodies(backend)).size === taken.length)).toBe(true);
      expectAllArrived(backend, taken, 'full queue');
      expect(bodies(backend)[0]).toBe('full-0');
      // Room again: new records are taken.
      expect((await send(forwarder, ['after'])).status).toBe(accepted);
      expect(await waitUntil(() => bodies(backend).includes('after'))).toBe(true);
    }, 60_000);

    it('does not drop a request whose retries ran out: it goes back to the queue and arrives once the backend is back', async () => {
      const backend = await backendDown();
      const ws = workspace('faults');
      const { dir, keysFile } = ws;
      const config = configFor(dir, keysFile, backend.url).replace('max_elapsed_time: 0s', 'max_elapsed_time: 1s');
      const forwarder = await startForwarder(ws, config, running);
      expect((await send(forwarder, ['late'])).status).toBe(accepted);
      const gaveUp = await forwarder.run.waitFor('Could not deliver a request yet');
      expect(gaveUp['reason']).toBe('max_elapsed_time');
      await backend.start();
      expect(await waitUntil(() => bodies(backend).includes('late'))).toBe(true);
      expect(forwarder.run.lines.filter((l) => l.msg.includes('refused a request for good'))).toEqual([]);
    }, 60_000);

    it('honours the backend\'s "retry after 3 s" (a 429 with Retry-After: 3, a RESOURCE_EXHAUSTED with a RetryInfo)', async () => {
      const backend = await backendUp();
      let answered = 0;
      backend.judge(() => (answered++ === 0 ? { throttle: 3 } : undefined));
      const times: number[] = [];
      backend.hold = async () => void times.push(performance.now());
      const ws = workspace('faults');
      const { dir, keysFile } = ws;
      const forwarder = await startForwarder(ws, configFor(dir, keysFile, backend.url), running);
      expect((await send(forwarder, ['throttled'])).status).toBe(accepted);
      expect(await waitUntil(() => bodies(backend).includes('throttled'))).toBe(true);
      expect(backend.received.map((r) => r.status)).toEqual([throttled, ok]);
      expect((times[1] as number) - (times[0] as number)).toBeGreaterThanOrEqual(2900);
    }, 60_000);

    it('drops a request the backend refuses for good (a 400, an INVALID_ARGUMENT), logs it with the backend\'s message, and never sends it again', async () => {
      const backend = await backendUp();
      backend.judge((rows) => (subject.messages(rows).includes('poison') ? { refuse: 'bad data: field x' } : undefined));
      const ws = workspace('faults');
      const { dir, keysFile } = ws;
      const forwarder = await startForwarder(ws, configFor(dir, keysFile, backend.url, 'num_consumers: 1'), running);
      expect((await send(forwarder, ['poison', 'with it'])).status).toBe(accepted);
      const dropped = await forwarder.run.waitFor('refused a request for good');
      expect(dropped['items']).toBe(2);
      expect(dropped).toMatchObject(subject.backend.refusalLog);
      expect(String(dropped['message'])).toContain('bad data: field x');
      expect((await send(forwarder, ['fine'])).status).toBe(accepted);
      expect(await waitUntil(() => bodies(backend).includes('fine'))).toBe(true);
      expect(backend.received.map((r) => r.status)).toEqual([refused, ok]);
    }, 60_000);

    it('keeps what the backend did not take on disk through SIGTERM, and delivers it after a restart', async () => {
      const backend = await backendDown();
      const ws = workspace('faults');
      const { dir, keysFile } = ws;
      const config = configFor(dir, keysFile, backend.url);
      const first = await startForwarder(ws, config, running);
      const sent = Array.from({ length: 10 }, (_, i) => `sigterm-${i}`);
      for (const message of sent) expect((await send(first, [message])).status).toBe(accepted);
      expect(await first.run.stop()).toBe(0);
      await backend.start();
      await startForwarder(ws, config, running);
      expect(await waitUntil(() => new Set(bodies(backend)).size === sent.length)).toBe(true);
      expectAllArrived(backend, sent, 'SIGTERM');
    }, 60_000);

    it('keeps its queue on disk in ./data/queue when the config names no storage, and delivers it after a restart', async () => {
      const backend = await backendDown();
      const ws = workspace('faults');
      const config = configFor(ws.dir, ws.keysFile, backend.url).replace('      storage: file_storage\n', '      num_consumers: 10\n').replace(`\n  file_storage: {directory: ${join(ws.dir, 'queue')}}`, '').replace('[apikeyauth, file_storage]', '[apikeyauth]');
      expect(config).not.toContain('file_storage');
      const first = await startForwarder(ws, config, running, 1, ws.dir);
      expect((await send(first, ['default-storage'])).status).toBe(accepted);
      expect(await first.run.stop()).toBe(0);
      expect(readdirSync(join(ws.dir, 'data', 'queue'))).toEqual([`exporter_${subject.type}_b_${signal}`]);
      await backend.start();
      await startForwarder(ws, config, running, 1, ws.dir);
      expect(await waitUntil(() => bodies(backend).includes('default-storage'))).toBe(true);
    }, 60_000);

    it('loses nothing answered 200 when killed with SIGKILL in the middle of delivering', async () => {
      const backend = await backendUp();
      // The backend takes its time: requests are under way when otelgate is killed.
      backend.hold = () => new Promise((resolve) => setTimeout(resolve, 50));
      const ws = workspace('faults');
      const { dir, keysFile } = ws;
      const config = configFor(dir, keysFile, backend.url);
      const first = await startForwarder(ws, config, running);
      const sent: string[] = [];
      for (let i = 0; i < 200; i++) {
        const batch = [`kill-${i}-a`, `kill-${i}-b`, `kill-${i}-c`];
        if ((await send(first, batch)).status === accepted) sent.push(...batch);
        if (i === 150) first.run.kill();
        if (i >= 150) break;
      }
      await first.run.exit();
      const before = bodies(backend).length;
      await startForwarder(ws, config, running);
      expect(await waitUntil(() => new Set(bodies(backend)).size >= sent.length)).toBe(true);
      expectAllArrived(backend, sent, `kill -9 (${before} delivered before the kill)`);
    }, 60_000);
  });
}
