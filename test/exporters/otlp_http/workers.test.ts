// otlp_http with service.workers: 2 on the built CLI, the backend down: each worker slot keeps its
// own queue directory; a worker killed with kill -9 is replaced by one for the same slot, which
// takes over that slot's queue, and once the backend is back every record answered 2xx arrives,
// those the killed worker had queued included.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LogRow } from '../../../src/model/logs.js';
import { decodeOtlp } from '../../../src/otlp/decode.js';
import { startBackend, type Backend } from '../../helpers/backend.js';
import type { RunningCli } from '../../helpers/cli.js';
import { FAST_RETRY, forwardingHead, arrivals, send, startForwarder, workspace } from '../../helpers/forwarder.js';
import { fileRecords, segmentFiles } from '../../helpers/queue.js';
import { waitUntil } from '../../helpers/wait.js';

const running: RunningCli[] = [];
const backends: Backend[] = [];
afterEach(async () => {
  for (const run of running.splice(0)) {
    // The primary kills its workers when it stops; SIGTERM lets it.
    await run.stop().catch(() => run.kill());
    await run.exit().catch(() => null);
  }
  for (const backend of backends.splice(0)) await backend.stop();
});

/** The bodies of the log records in a queue directory's segment files, acknowledged or not. */
function queued(dir: string): string[] {
  return segmentFiles(dir).flatMap((file) => fileRecords(file).flatMap((record) => decodeOtlp('logs', 'protobuf', record.payload).rows.map((row) => (row as LogRow).body as string)));
}

const ready = (run: RunningCli, worker: number): number => run.lines.filter((l) => l.msg.includes('Everything is ready') && l['worker'] === worker).length;

describe('otlp_http with service.workers: 2', () => {
  it('gives each worker slot its own queue, which a replacement worker takes over after kill -9; every record answered 2xx arrives', async () => {
    const backend = await startBackend();
    backends.push(backend);
    await backend.stop();
    const ws = workspace('workers-queue');
    const storage = join(ws.dir, 'queue');
    const config = `${forwardingHead(ws.keysFile, storage)}
exporters:
  otlp_http/b:
    endpoint: ${backend.url}
    ${FAST_RETRY}
    sending_queue: {storage: file_storage, num_consumers: 1}
service:
  workers: 2
  extensions: [apikeyauth, file_storage]
  pipelines:
    logs: {receivers: [ingest], exporters: [otlp_http/b]}
`;
    const gate = await startForwarder(ws, config, running, 2);
    // Worker 1 keeps the queue a single process keeps: going from one process to several keeps what was queued.
    const slot = (worker: number): string => join(storage, worker === 1 ? 'exporter_otlp_http_b_logs' : `exporter_otlp_http_b_logs_worker${worker}`);
    expect(readdirSync(storage).sort()).toEqual(['exporter_otlp_http_b_logs', 'exporter_otlp_http_b_logs_worker2']);

    const sent: string[] = [];
    for (let i = 0; i < 10; i++) {
      expect(await send(gate, [`before-${i}`])).toEqual({ status: 202, retryAfter: undefined });
      sent.push(`before-${i}`);
    }
    // Connections go to the workers in turn, and a 202 comes after the record is on disk.
    const first = queued(slot(1));
    const second = queued(slot(2));
    expect([first.length, second.length]).toEqual([5, 5]);
    expect([...first, ...second].sort()).toEqual([...sent].sort());

    const worker1 = gate.run.lines.find((l) => l.msg === 'A worker is ready' && l['worker'] === 1);
    const pid = Number(worker1?.['worker_pid']);
    expect(pid).toBeGreaterThan(0);
    process.kill(pid, 'SIGKILL');
    const exited = await gate.run.waitFor('A worker exited; starting another in its place');
    expect([exited['worker'], exited['worker_pid'], exited['signal']]).toEqual([1, pid, 'SIGKILL']);
    expect(await waitUntil(() => ready(gate.run, 1) === 2)).toBe(true);
    // The replacement opened slot 1's queue and found what the killed worker had queued there.
    const taken = gate.run.lines.filter((l) => l.msg === 'Sending queue holds entries from before: delivering them');
    expect(taken.map((l) => [l['worker'], l['directory'], l['records'], l['corruptRecords'], l['tornBytes']])).toEqual([[1, slot(1), 5, 0, 0]]);
    expect(readdirSync(storage).sort()).toEqual(['exporter_otlp_http_b_logs', 'exporter_otlp_http_b_logs_worker2']);
    expect(existsSync(join(storage, 'exporter_otlp_http_b_logs_worker1'))).toBe(false);

    for (let i = 0; i < 4; i++) {
      expect(await send(gate, [`after-${i}`])).toEqual({ status: 202, retryAfter: undefined });
      sent.push(`after-${i}`);
    }
    expect(queued(slot(1)).length + queued(slot(2)).length).toBe(14);

    await backend.start();
    expect(await waitUntil(() => arrivals(backend).size === sent.length)).toBe(true);
    // The backend was down until now: nothing had reached it, so each record arrives exactly once.
    expect([...arrivals(backend)].sort(([a], [b]) => a.localeCompare(b))).toEqual(sent.map((body): [string, number] => [body, 1]).sort(([a], [b]) => a.localeCompare(b)));
  }, 60_000);
});
