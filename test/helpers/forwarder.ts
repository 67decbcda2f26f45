// otelgate as a forwarder for exporter tests: the built CLI with a keys file of one key (project
// "shop"), simple JSON log records sent to its ingest endpoint, and its own metrics read from the
// Prometheus endpoint it serves on a free port.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKey } from '../../src/auth/key.js';
import { writeKeysFile } from '../../src/auth/keysfile.js';
import type { LogRow } from '../../src/model/logs.js';
import { afterEach } from 'vitest';
import type { Backend } from './backend.js';
import { RunningCli } from './cli.js';
import { waitUntil } from './wait.js';

/** The otelgates and backends of a test file: SIGKILLed and stopped after each test. */
export function stoppedAfterEach(): { running: RunningCli[]; backends: Pick<Backend<unknown>, 'stop'>[] } {
  const running: RunningCli[] = [];
  const backends: Pick<Backend<unknown>, 'stop'>[] = [];
  afterEach(async () => {
    for (const run of running.splice(0)) {
      run.kill();
      await run.exit().catch(() => null);
    }
    for (const backend of backends.splice(0)) await backend.stop();
  });
  return { running, backends };
}

export interface Workspace {
  dir: string;
  keysFile: string;
  key: string;
}

/** A temporary folder with a keys file for project "shop", and the key. */
export function workspace(prefix: string): Workspace {
  const dir = mkdtempSync(join(tmpdir(), `otelgate-${prefix}-`));
  const keysFile = join(dir, 'keys.yaml');
  const key = generateKey();
  writeKeysFile(keysFile, [{ id: key.id, project: 'shop', sha256: key.sha256 }]);
  return { dir, keysFile, key: key.key };
}

/**
 * The head of a forwarding config: apikeyauth with the keys file, a file_storage extension in
 * `queueDirectory` (by default `queue` beside the keys file; none for `memory`), and the ingest
 * receiver on a free loopback port with that authenticator.
 */
export function forwardingHead(keysFile: string, queueDirectory: string | 'memory' = join(keysFile, '..', 'queue')): string {
  const storage = queueDirectory === 'memory' ? '' : `\n  file_storage: {directory: ${queueDirectory}}`;
  return `
extensions:
  apikeyauth: {keys_file: ${keysFile}}${storage}
receivers:
  ingest: {endpoint: 127.0.0.1:0, auth: {authenticator: apikeyauth}}`;
}

/** Retries fast and for ever, so that a test's backend outage is over in moments and nothing is given up. */
export const FAST_RETRY = 'retry_on_failure: {initial_interval: 100ms, max_interval: 500ms, max_elapsed_time: 0s}';

/** The own-metrics reader on a free loopback port, as a `service:` entry's value. */
export const METRICS_READER = '{metrics: {readers: [{pull: {exporter: {prometheus: {host: 127.0.0.1, port: 0}}}}]}}';

export interface Forwarder {
  url: string;
  key: string;
  run: RunningCli;
  /** The own-metrics endpoint, when the config has a reader. */
  metricsUrl: string | undefined;
}

/**
 * Writes `config` to the workspace and starts otelgate on it; resolves once every worker is ready.
 * `cwd`: the working directory, for what a config puts in ./data by default.
 */
export async function startForwarder(ws: Workspace, config: string, running: RunningCli[], workers = 1, cwd?: string): Promise<Forwarder> {
  const file = join(ws.dir, 'config.yaml');
  writeFileSync(file, config);
  const run = new RunningCli(['--config', file], { cwd });
  running.push(run);
  const started = await run.waitFor('Starting HTTP server');
  // With workers the primary logs it too, after its workers.
  const ready = workers === 1 ? 1 : workers + 1;
  if (!(await waitUntil(() => run.lines.filter((l) => l.msg.includes('Everything is ready')).length === ready))) {
    throw new Error(`otelgate did not get ready; it logged:\n${run.lines.map((l) => l.msg).join('\n')}`);
  }
  const metricsAt = run.lines.find((l) => l.msg === 'Serving metrics')?.['endpoint'];
  return { url: `http://${String(started['endpoint'])}`, key: ws.key, run, metricsUrl: metricsAt === undefined ? undefined : `http://${String(metricsAt)}/metrics` };
}

export interface Answer {
  status: number;
  retryAfter: string | undefined;
}

/**
 * Sends simple JSON log records with these messages in one request, on a connection of its own
 * (with service.workers, connections go to the workers in turn); the status and Retry-After.
 */
export function send(forwarder: Forwarder, messages: readonly string[]): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify(messages.map((message) => ({ message })));
    const req = request(
      `${forwarder.url}/api/v1/ingest`,
      {
        method: 'POST',
        agent: false,
        headers: { Authorization: `Bearer ${forwarder.key}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Sends these messages as OTLP JSON metrics in one request: one gauge point each, at the present
 * time, its attribute `m` the message; the status and Retry-After.
 */
export async function sendMetrics(forwarder: Pick<Forwarder, 'url' | 'key'>, messages: readonly string[]): Promise<Answer> {
  const now = String(BigInt(Date.now()) * 1_000_000n);
  const points = messages.map((m, i) => ({ timeUnixNano: now, asDouble: i, attributes: [{ key: 'm', value: { stringValue: m } }] }));
  const body = { resourceMetrics: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'contract' } }] }, scopeMetrics: [{ metrics: [{ name: 'contract.gauge', gauge: { dataPoints: points } }] }] }] };
  const response = await fetch(`${forwarder.url}/v1/metrics`, { method: 'POST', headers: { Authorization: `Bearer ${forwarder.key}`, 'Content-Type': 'application/json', Connection: 'close' }, body: JSON.stringify(body) });
  await response.arrayBuffer();
  return { status: response.status, retryAfter: response.headers.get('retry-after') ?? undefined };
}

/** The bodies of the log records the backend answered 2xx, in the order they arrived. */
export const bodies = (backend: Backend): string[] => backend.delivered('logs').map((row) => (row as LogRow).body as string);

/** How many times each body arrived. */
export function arrivals(backend: Backend): Map<string, number> {
  const counts = new Map<string, number>();
  for (const body of bodies(backend)) counts.set(body, (counts.get(body) ?? 0) + 1);
  return counts;
}

/** The samples of the own-metrics endpoint: one line each, comments left out. */
export async function scrape(forwarder: Forwarder): Promise<string[]> {
  if (forwarder.metricsUrl === undefined) throw new Error('this otelgate serves no metrics');
  const response = await fetch(forwarder.metricsUrl);
  if (response.status !== 200) throw new Error(`the metrics endpoint answered ${response.status}`);
  return (await response.text()).split('\n').filter((line) => line !== '' && !line.startsWith('#'));
}

/** The value of the one sample of `name` with every one of `labels` (`key="value"`); undefined when there is none. */
export function sample(lines: readonly string[], name: string, ...labels: string[]): number | undefined {
  const found = lines.filter((l) => l.startsWith(`${name}{`) && labels.every((label) => l.includes(label)));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} with ${labels.join(', ')}:\n${found.join('\n')}`);
  const line = found[0];
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}
