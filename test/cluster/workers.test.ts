// service.workers: 2 on the built CLI: two worker processes share the receiver's port, the primary
// serves both workers' metrics, replaces a worker killed with kill -9, and shuts both down.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateKey } from '../../src/auth/key.js';
import { writeKeysFile } from '../../src/auth/keysfile.js';
import { RunningCli, type LogLine } from '../helpers/cli.js';
import { startGateway, type Gateway } from '../helpers/gateway.js';
import { waitUntil } from '../helpers/wait.js';

const gateways: Gateway[] = [];
afterEach(async () => {
  for (const gateway of gateways.splice(0)) if (gateway.run.child.exitCode === null) await gateway.stop();
});

/** A log record on a connection of its own (connections are handed to the workers in turn). */
function send(gateway: Gateway, message: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify([{ message }]);
    const req = request(
      `${gateway.url}/api/v1/ingest`,
      { method: 'POST', agent: false, headers: { Authorization: `Bearer ${gateway.keys['default']}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

interface WorkersOptions {
  exporter?: string;
  endpoint?: string;
  /** More of the service section, after a comma. */
  service?: string;
  /** Start without a keys file: the first worker creates one, with a key for this project. */
  firstKeyProject?: string;
}

/** A dir with a keys file of one key (or none, see firstKeyProject), and a config of `workers` workers ingesting logs. */
function workersConfig(workers: number, options: WorkersOptions = {}): { config: string; keysFile: string; key: string } {
  const { exporter = 'nop', endpoint = '127.0.0.1:0', service = '', firstKeyProject } = options;
  const dir = mkdtempSync(join(tmpdir(), 'otelgate-workers-'));
  const keysFile = join(dir, 'keys.yaml');
  const key = generateKey();
  if (firstKeyProject === undefined) writeKeysFile(keysFile, [{ id: key.id, project: 'p', sha256: key.sha256 }]);
  const firstKey = firstKeyProject === undefined ? '' : `, first_key_project: ${firstKeyProject}`;
  const config = join(dir, 'config.yaml');
  writeFileSync(
    config,
    `extensions: {apikeyauth: {keys_file: ${keysFile}${firstKey}}}\nreceivers: {ingest: {endpoint: "${endpoint}", auth: {authenticator: apikeyauth}}}\nexporters: {${exporter}: }\nservice: {workers: ${workers}, extensions: [apikeyauth], pipelines: {logs: {receivers: [ingest], exporters: [${exporter}]}}${service}}\n`,
  );
  return { config, keysFile, key: key.key };
}

const readyCount = (run: RunningCli): number => run.lines.filter((l) => l.msg.includes('Everything is ready')).length;

async function workersGateway(): Promise<Gateway> {
  const gateway = await startGateway({
    configs: ['testdata/cluster/two_workers.yaml'],
  });
  gateways.push(gateway);
  await until(() => gateway.run.lines.filter((l) => l.msg.includes('Everything is ready')).length === 3);
  return gateway;
}

/** Waits for `done`, however long a loaded machine takes; fails the test if it never holds. */
async function until(done: () => boolean): Promise<void> {
  if (!(await waitUntil(done))) throw new Error('timed out');
}

const byWorker = (lines: LogLine[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const line of lines) counts[String(line['worker'])] = (counts[String(line['worker'])] ?? 0) + Number(line['log records']);
  return counts;
};

describe('service.workers', () => {
  it('runs the pipelines in two processes on one port, serves both workers\' metrics, and shuts both down', async () => {
    const gateway = await workersGateway();
    const ready = gateway.run.lines.filter((l) => l.msg.includes('Everything is ready'));
    const pids = new Set(ready.map((l) => l['pid']));
    expect(pids.size).toBe(3);
    expect(ready.map((l) => l['worker'])).toEqual([1, 2, undefined]);
    // One port for both: every worker logged the same receiver endpoint.
    const endpoints = gateway.run.lines.filter((l) => l.msg === 'Starting HTTP server').map((l) => l['endpoint']);
    expect(endpoints).toHaveLength(2);
    expect(endpoints[0]).toBe(endpoints[1]);

    for (let i = 0; i < 10; i++) expect(await send(gateway, `record ${i}`)).toBe(202);
    await until(() => gateway.exported('Logs').length === 10);
    // Connections go to the workers in turn.
    expect(byWorker(gateway.exported('Logs'))).toEqual({ '1': 5, '2': 5 });

    const metricsAt = gateway.run.lines.find((l) => l.msg === 'Serving metrics')?.['endpoint'];
    const text = await (await fetch(`http://${String(metricsAt)}/metrics`)).text();
    const accepted = text.split('\n').filter((l) => l.startsWith('otelcol_receiver_accepted_log_records_total{'));
    expect(accepted.map((l) => l.replace(/\{.*\}/, (labels) => (labels.includes('worker="1"') ? '{1}' : labels.includes('worker="2"') ? '{2}' : labels)))).toEqual([
      'otelcol_receiver_accepted_log_records_total{1} 5',
      'otelcol_receiver_accepted_log_records_total{2} 5',
    ]);
    expect(text.split('\n').filter((l) => l.startsWith('# TYPE otelcol_receiver_accepted_log_records_total '))).toHaveLength(1);

    expect(await gateway.stop()).toBe(0);
    expect(gateway.run.lines.filter((l) => l.msg === 'Shutdown complete.').map((l) => l['worker'])).toEqual(expect.arrayContaining([1, 2]));
    expect(gateway.run.lines.filter((l) => l.msg === 'Shutdown complete.')).toHaveLength(2);
  });

  it('reloads on SIGHUP: the primary reads the files, every worker restarts with them; an invalid config changes nothing', async () => {
    const gateway = await workersGateway();
    const file = `${gateway.dir}/config.yaml`;
    const good = readFileSync(file, 'utf8');
    writeFileSync(file, good.replace('  debug:', '  debug:\n    verbosty: basic'));
    gateway.run.child.kill('SIGHUP');
    await gateway.run.waitFor('The new config is invalid; otelgate keeps running with the config it has');
    expect(gateway.run.lines.filter((l) => l.msg === 'Reload asked by the primary')).toEqual([]);

    writeFileSync(file, good.replace('  debug:', '  debug:\n    verbosity: detailed'));
    gateway.run.child.kill('SIGHUP');
    await until(() => gateway.run.lines.filter((l) => l.msg.startsWith('Config reloaded')).length === 2);
    expect(gateway.run.lines.filter((l) => l.msg.startsWith('Config reloaded')).map((l) => l['worker']).sort()).toEqual([1, 2]);
    const endpoints = gateway.run.lines.filter((l) => l.msg === 'Starting HTTP server').map((l) => String(l['endpoint']));
    const now = { ...gateway, url: `http://${endpoints[endpoints.length - 1] as string}` };
    for (let i = 0; i < 4; i++) expect(await send(now, `after ${i}`)).toBe(202);
    await until(() => gateway.exported('Logs').length === 4);
    // verbosity: detailed logs every record: the workers run the new config.
    await until(() => gateway.run.lines.filter((l) => l.msg.startsWith('ResourceLog #0') && l.msg.includes('LogRecord #0')).length === 4);
    expect(await gateway.stop()).toBe(0);
  });

  it('replaces a worker killed with kill -9, and answers on the same port', async () => {
    const gateway = await workersGateway();
    const first = gateway.run.lines.find((l) => l.msg.includes('Everything is ready') && l['worker'] === 1) as LogLine;
    process.kill(Number(first['pid']), 'SIGKILL');
    await gateway.run.waitFor('A worker exited; starting another in its place');
    await until(() => gateway.run.lines.filter((l) => l.msg.includes('Everything is ready') && l['worker'] === 1).length === 2);
    const replacement = gateway.run.lines.filter((l) => l.msg.includes('Everything is ready') && l['worker'] === 1)[1] as LogLine;
    expect(replacement['pid']).not.toBe(first['pid']);

    for (let i = 0; i < 4; i++) expect(await send(gateway, `after ${i}`)).toBe(202);
    await until(() => gateway.exported('Logs').length === 4);
    expect(byWorker(gateway.exported('Logs'))).toEqual({ '1': 2, '2': 2 });
    expect(await gateway.stop()).toBe(0);
  });

  it('creates the first key once, in the first worker, before the next starts', async () => {
    const { config, keysFile } = workersConfig(2, { firstKeyProject: 'demo' });
    const run = new RunningCli(['--config', config]);
    let stdout = '';
    run.child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    await until(() => run.lines.filter((l) => l.msg.includes('Everything is ready')).length === 3);
    run.child.kill('SIGTERM');
    expect(await run.exit()).toBe(0);
    // The second worker began only once the first was ready: nothing of it comes before.
    const firstReady = run.lines.findIndex((l) => l.msg.includes('Everything is ready') && l['worker'] === 1);
    const secondFirst = run.lines.findIndex((l) => l['worker'] === 2);
    expect(firstReady).toBeGreaterThan(-1);
    expect(secondFirst).toBeGreaterThan(firstReady);
    expect(stdout.match(/otg_[a-z0-9]+_[A-Za-z0-9]+/g)).toHaveLength(1);
    expect(readFileSync(keysFile, 'utf8').match(/sha256:/g)).toHaveLength(1);
  });

  it('stops, exit 1, when a worker cannot start', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const { config } = workersConfig(2, { endpoint: `127.0.0.1:${port}` });
      const run = new RunningCli(['--config', config]);
      expect(await run.exit()).toBe(1);
      expect(run.lines.map((l) => l.msg)).toContain('A worker could not start; otelgate stops');
      const failures = run.lines.filter((l) => l.msg.startsWith('otelgate could not start: '));
      expect(failures.map((l) => [l['worker'], l.msg])).toEqual([[1, `otelgate could not start: ingest could not start: bind EADDRINUSE 127.0.0.1:${port}`]]);
      expect(run.lines.filter((l) => l.msg.includes('Everything is ready'))).toHaveLength(0);
    } finally {
      taken.close();
    }
  });

  it("shuts every worker down cleanly on a terminal's Ctrl-C (SIGINT to the whole group), answering the requests under way", async () => {
    // The worker hears the SIGINT and the primary's shutdown message in either order; neither may
    // count as a second signal. A few rounds make both orders likely (before the fix, 13 of 20
    // single rounds failed).
    for (let round = 0; round < 3; round++) {
      const { config, key } = workersConfig(2, { exporter: 'debug' });
      const run = new RunningCli(['--config', config], { detached: true });
      await until(() => readyCount(run) === 3);
      const [host, port] = String(run.lines.find((l) => l.msg === 'Starting HTTP server')?.['endpoint']).split(':');
      const body = JSON.stringify([{ message: 'under way at Ctrl-C' }]);
      const answers: Promise<string>[] = [];
      const received: (() => string)[] = [];
      const sockets: Socket[] = [];
      for (let i = 0; i < 2; i++) {
        const socket = connect(Number(port), host);
        await new Promise((resolve) => socket.once('connect', resolve));
        // Expect: 100-continue, so that a worker says when it has the request in hand.
        socket.write(`POST /api/v1/ingest HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n${body.slice(0, 5)}`);
        let got = '';
        socket.on('data', (data: Buffer) => (got += data.toString()));
        socket.on('error', () => {});
        received.push(() => got);
        // The last status line: the answer after the 100 Continue.
        answers.push(new Promise((resolve) => socket.on('close', () => resolve(got.split('\r\n').filter((line) => line.startsWith('HTTP/1.1 ')).at(-1) ?? ''))));
        sockets.push(socket);
      }
      await until(() => received.every((got) => got().startsWith('HTTP/1.1 100 Continue\r\n')));
      process.kill(-Number(run.child.pid), 'SIGINT');
      // Both workers are shutting down while their requests are still under way.
      await until(() => [1, 2].every((worker) => run.lines.some((l) => l.msg === 'Starting shutdown...' && l['worker'] === worker)));
      for (const socket of sockets) socket.end(body.slice(5));
      expect(await run.exit()).toBe(0);
      expect(await Promise.all(answers)).toEqual(['HTTP/1.1 202 Accepted', 'HTTP/1.1 202 Accepted']);
      expect(run.lines.filter((l) => l.msg.startsWith('Second signal'))).toEqual([]);
    }
  }, 60_000);

  it('keeps running when a scrape asks a worker that has just died, and replaces it', async () => {
    const { config } = workersConfig(2, { service: ', telemetry: {metrics: {readers: [{pull: {exporter: {prometheus: {host: 127.0.0.1, port: 0}}}}]}}' });
    const run = new RunningCli(['--config', config]);
    await until(() => readyCount(run) === 3);
    const metricsAt = `http://${String(run.lines.find((l) => l.msg === 'Serving metrics')?.['endpoint'])}/metrics`;
    let scraping = true;
    const scrapers = Array.from({ length: 8 }, async () => {
      while (scraping) await (await fetch(metricsAt)).text();
    });
    for (let kill = 0; kill < 3; kill++) {
      const ready = run.lines.filter((l) => l.msg.includes('Everything is ready') && l['worker'] === 1);
      process.kill(Number(ready[ready.length - 1]?.['pid']), 'SIGKILL');
      await until(() => run.lines.filter((l) => l.msg.includes('Everything is ready') && l['worker'] === 1).length === kill + 2);
    }
    scraping = false;
    await Promise.all(scrapers);
    expect(run.child.exitCode).toBeNull();
    expect(run.lines.filter((l) => l.level === 'fatal')).toEqual([]);
    const text = await (await fetch(metricsAt)).text();
    expect(text.split('\n').filter((l) => l.startsWith('target_info{')).map((l) => /worker="(\d)"/.exec(l)?.[1])).toEqual(['1', '2']);
    run.child.kill('SIGTERM');
    expect(await run.exit()).toBe(0);
  }, 60_000);

  it('gives every worker, replacements too, the config the primary read at start', async () => {
    const { config, key } = workersConfig(2, { exporter: 'debug' });
    const run = new RunningCli(['--config', config]);
    await until(() => readyCount(run) === 3);
    // An edit on disk, even a broken one, reaches no worker: it takes effect at the next start.
    writeFileSync(config, 'receivers: [\n');
    const first = run.lines.find((l) => l.msg.includes('Everything is ready') && l['worker'] === 1);
    process.kill(Number(first?.['pid']), 'SIGKILL');
    await until(() => run.lines.filter((l) => l.msg.includes('Everything is ready') && l['worker'] === 1).length === 2);
    const url = `http://${String(run.lines.find((l) => l.msg === 'Starting HTTP server')?.['endpoint'])}`;
    for (let i = 0; i < 4; i++) {
      const response = await fetch(`${url}/api/v1/ingest`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Connection: 'close' }, body: '[{"message":"after the edit"}]' });
      expect(response.status).toBe(202);
    }
    run.child.kill('SIGTERM');
    expect(await run.exit()).toBe(0);
  });

  it('stops, exit 1, when a replacement worker cannot start', async () => {
    const { config, keysFile } = workersConfig(2);
    const run = new RunningCli(['--config', config]);
    await until(() => readyCount(run) === 3);
    // Without its keys file (and no first_key_project) a worker cannot start.
    rmSync(keysFile);
    const first = run.lines.find((l) => l.msg.includes('Everything is ready') && l['worker'] === 1);
    process.kill(Number(first?.['pid']), 'SIGKILL');
    expect(await run.exit()).toBe(1);
    expect(run.lines.map((l) => l.msg)).toContain('The replacement worker could not start; otelgate stops');
  });

  it('stops, exit 1, when workers keep dying (5 times within a minute)', async () => {
    const { config } = workersConfig(2);
    const run = new RunningCli(['--config', config]);
    await until(() => readyCount(run) === 3);
    for (let death = 1; death <= 5; death++) {
      const ready = run.lines.filter((l) => l.msg.includes('Everything is ready') && l['worker'] === 1);
      expect(ready).toHaveLength(death);
      const pid = Number(ready[death - 1]?.['pid']);
      // A worker that dies before the primary has its ready message failed to start, which stops
      // otelgate at once: this test is about crashes of running workers.
      await until(() => run.lines.some((l) => l.msg === 'A worker is ready' && l['worker_pid'] === pid));
      process.kill(pid, 'SIGKILL');
      if (death < 5) await until(() => run.lines.filter((l) => l.msg.includes('Everything is ready') && l['worker'] === 1).length === death + 1);
    }
    expect(await run.exit()).toBe(1);
    expect(run.lines.filter((l) => l.msg === 'A worker exited; starting another in its place')).toHaveLength(4);
    expect(run.lines.filter((l) => l.msg === 'Workers keep exiting; otelgate stops').map((l) => l['exits'])).toEqual([5]);
  }, 60_000);
});
