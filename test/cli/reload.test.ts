// SIGHUP, as a Collector user sends it: otelgate reads its config files again; a valid config
// replaces the running pipelines (the batches under way finish first, nothing answered is lost),
// an invalid one is reported and the running config kept. SIGHUP never ends the process.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningCli } from '../helpers/cli.js';
import { STORE_CONFIG, startGateway, type Gateway } from '../helpers/gateway.js';
import { waitUntil } from '../helpers/wait.js';

let gw: Gateway | undefined;

afterEach(async () => {
  if (gw !== undefined) expect(await gw.stop()).toBe(0);
  gw = undefined;
});

/** Where the ingest receiver listens now: a reload on port 0 may move it. */
function ingestUrl(run: RunningCli): string {
  const started = run.lines.filter((l) => l.msg === 'Starting HTTP server');
  return `http://${String(started[started.length - 1]?.['endpoint'])}`;
}

/** Sends SIGHUP and waits for the log line that ends the reload, the nth of its kind. */
async function reload(run: RunningCli, outcome: string, nth: number): Promise<void> {
  run.child.kill('SIGHUP');
  if (!(await waitUntil(() => run.lines.filter((l) => l.msg.startsWith(outcome)).length >= nth))) {
    throw new Error(`no "${outcome}" ${nth} after SIGHUP; saw:\n${run.lines.map((l) => l.msg).join('\n')}`);
  }
}

/** Log lines reach the test through a pipe, after the answer they go with: wait for them. */
async function eventually(condition: () => boolean): Promise<void> {
  expect(await waitUntil(condition)).toBe(true);
}

const sendLog = (url: string, key: string, message: string): Promise<number> =>
  fetch(`${url}/api/v1/ingest`, { method: 'POST', headers: { Authorization: `Bearer ${key}` }, body: JSON.stringify({ message }) }).then((r) => r.status);

/** The bodies of the stored logs, newest first, read where the receiver listens now. */
async function storedBodies(run: RunningCli, key: string): Promise<string[]> {
  const read = await fetch(`${ingestUrl(run)}/api/v1/query/logs?limit=10000`, { headers: { Authorization: `Bearer ${key}` } });
  expect(read.status).toBe(200);
  return ((await read.json()) as { rows: { body: string }[] }).rows.map((row) => row.body);
}

const storeIn = (): string => join(mkdtempSync(join(tmpdir(), 'otelgate-reload-')), 'otelgate.db');

describe('SIGHUP', () => {
  it('restarts the pipelines with a valid new config, keeping what was stored', async () => {
    const g = (gw = await startGateway({ config: STORE_CONFIG(storeIn()) }));
    const key = g.keys['default'] as string;
    expect(await sendLog(g.url, key, 'before')).toBe(202);

    // The new config adds a debug exporter to the logs pipeline: its lines show the new pipeline runs.
    const file = `${g.dir}/config.yaml`;
    writeFileSync(file, readFileSync(file, 'utf8').replace('  store:\n', '  debug: {}\n  store:\n').replace('logs: {receivers: [ingest], exporters: [store]}', 'logs: {receivers: [ingest], exporters: [store, debug]}'));
    await reload(g.run, 'Config reloaded', 1);
    expect(g.run.lines.filter((l) => l.msg === 'Received signal from OS; reloading the config')).toHaveLength(1);

    expect(await sendLog(ingestUrl(g.run), key, 'after')).toBe(202);
    await eventually(() => g.exported('Logs').length > 0);
    expect(g.exported('Logs')).toMatchObject([{ 'log records': 1 }]);
    expect(await storedBodies(g.run, key)).toEqual(['after', 'before']);
  });

  it('keeps the running config when the new one is invalid, and says what is wrong', async () => {
    const g = (gw = await startGateway());
    const key = g.keys['default'] as string;
    const file = `${g.dir}/config.yaml`;
    const good = readFileSync(file, 'utf8');
    writeFileSync(file, good.replace('  debug:', '  debug:\n    verbosty: detailed'));
    await reload(g.run, 'The new config is invalid', 1);
    const errors = g.run.lines.filter((l) => l.level === 'error').map((l) => l.msg);
    expect(errors).toEqual([
      expect.stringMatching(/config\.yaml:\d+:\d+: exporters\.debug\.verbosty: unknown setting "verbosty"\. Did you mean "verbosity"\?$/),
      'The new config is invalid; otelgate keeps running with the config it has',
    ]);
    // Nothing was restarted: the same listener answers.
    expect(g.run.lines.filter((l) => l.msg === 'Starting HTTP server')).toHaveLength(1);
    expect(await sendLog(g.url, key, 'still here')).toBe(202);
    await eventually(() => g.exported('Logs').length > 0);
    expect(g.exported('Logs')).toMatchObject([{ 'log records': 1 }]);
  });

  it('starts the previous config again when the new one cannot start, and keeps serving', async () => {
    const g = (gw = await startGateway());
    const key = g.keys['default'] as string;
    const taken = createServer();
    const port = await new Promise<number>((resolve) => taken.listen(0, '127.0.0.1', () => resolve((taken.address() as AddressInfo).port)));
    try {
      const file = `${g.dir}/config.yaml`;
      writeFileSync(file, readFileSync(file, 'utf8').replace('endpoint: 127.0.0.1:0', `endpoint: 127.0.0.1:${port}`));
      await reload(g.run, 'The previous config runs again', 1);
      const errors = g.run.lines.filter((l) => l.level === 'error').map((l) => l.msg);
      expect(errors).toEqual([expect.stringMatching(new RegExp(`^The new config could not start: ingest could not start: .*EADDRINUSE.*127\\.0\\.0\\.1:${port}; starting the previous one again$`))]);
      expect(await sendLog(ingestUrl(g.run), key, 'still here')).toBe(202);
    } finally {
      taken.close();
    }
  });

  it('loses nothing it answered: every record accepted while reloads run is stored', async () => {
    const g = (gw = await startGateway({ config: STORE_CONFIG(storeIn()) }));
    const key = g.keys['default'] as string;
    const accepted: string[] = [];
    let sending = true;
    // Four senders, one request at a time each; a request refused while the port blinks is not counted.
    const senders = [0, 1, 2, 3].map(async (sender) => {
      for (let n = 0; sending; n++) {
        const message = `${sender}-${n}`;
        try {
          if ((await sendLog(ingestUrl(g.run), key, message)) === 202) accepted.push(message);
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }
    });
    try {
      for (let round = 1; round <= 3; round++) {
        const before = accepted.length;
        await eventually(() => accepted.length >= before + 20);
        await reload(g.run, 'Config reloaded', round);
      }
      const before = accepted.length;
      await eventually(() => accepted.length >= before + 20);
    } finally {
      sending = false;
      await Promise.all(senders);
    }
    // Every record answered is stored. A request cut by the reload after its batch was handed on
    // (a keep-alive connection closed under it) may be stored unanswered: stored holds at least what
    // was accepted, each once, and nothing that was not sent.
    const stored = await storedBodies(g.run, key);
    expect(new Set(stored).size).toBe(stored.length);
    expect(stored).toEqual(expect.arrayContaining(accepted));
    for (const body of stored) expect(body).toMatch(/^[0-3]-\d+$/);
  });

  it('waits for pipelines that outlive shutdown_timeout to stop before starting the new ones, and loses nothing', async () => {
    const g = (gw = await startGateway({ config: (keysFile) => STORE_CONFIG(storeIn())(keysFile).replace('service:\n', 'service:\n  shutdown_timeout: 1s\n') }));
    const key = g.keys['default'] as string;
    // A client that sends its headers and half its body, and the rest only once the reload has waited past the timeout.
    const body = JSON.stringify({ message: 'slow' });
    const socket = connect(Number(new URL(g.url).port), '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`POST /api/v1/ingest HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`);
    // 100 Continue: otelgate has the request, so the reload finds it under way.
    await eventually(() => answer.startsWith('HTTP/1.1 100 Continue\r\n\r\n'));
    socket.write(body.slice(0, 5));
    await reload(g.run, 'The running pipelines did not stop within shutdown_timeout', 1);
    socket.end(body.slice(5));
    await eventually(() => /\r\n\r\n.*\r\n\r\n/s.test(answer));
    expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 202 /);
    await eventually(() => g.run.lines.some((l) => l.msg.startsWith('Config reloaded')));
    expect(g.run.lines.filter((l) => l.level === 'error').map((l) => l.msg)).toEqual([
      'The running pipelines did not stop within shutdown_timeout; waiting for them before starting the new ones',
    ]);
    expect(await sendLog(ingestUrl(g.run), key, 'after')).toBe(202);
    expect(await storedBodies(g.run, key)).toEqual(['after', 'slow']);
  });
});
