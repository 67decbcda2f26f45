// A real Prometheus for exporter tests: Debian's package (.ci/run installs it), started on a free
// loopback port with its remote-write receiver on and a temporary storage directory, queried
// through its HTTP API. Without the binary, tests that need it are skipped with a warning, unless
// OTELGATE_REQUIRE_PROMETHEUS is set (as .ci/run sets it): then its absence fails them.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from './wait.js';

const CANDIDATES = ['/usr/bin/prometheus', '/usr/local/bin/prometheus'];

export const PROMETHEUS_BINARY = process.env['PROMETHEUS_BINARY'] ?? CANDIDATES.find((path) => existsSync(path));

/** Whether the tests that need Prometheus run here; throws where they must run and can't. */
export function prometheusAvailable(): boolean {
  if (PROMETHEUS_BINARY !== undefined) return true;
  if (process.env['OTELGATE_REQUIRE_PROMETHEUS'] !== undefined) throw new Error('OTELGATE_REQUIRE_PROMETHEUS is set but there is no prometheus binary: apt-get install -y prometheus');
  console.warn('No prometheus binary (apt-get install -y prometheus): the tests against a real Prometheus are skipped');
  return false;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

export interface PromSample {
  metric: Record<string, string>;
  value: [number, string];
}

export class Prometheus {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    private readonly output: () => string,
  ) {}

  get remoteWriteUrl(): string {
    return `${this.url}/api/v1/write`;
  }

  static async start(): Promise<Prometheus> {
    if (PROMETHEUS_BINARY === undefined) throw new Error('no prometheus binary');
    const dir = mkdtempSync(join(tmpdir(), 'otelgate-prometheus-'));
    writeFileSync(join(dir, 'prometheus.yml'), 'global:\n  scrape_interval: 1h\n');
    const port = await freePort();
    const child = spawn(
      PROMETHEUS_BINARY,
      [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--web.enable-remote-write-receiver'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const prometheus = new Prometheus(child, `http://127.0.0.1:${port}`, () => output);
    const ready = await waitUntil(async () => {
      try {
        return (await fetch(`${prometheus.url}/-/ready`)).status === 200;
      } catch {
        return false;
      }
    }, 30_000);
    if (!ready) {
      child.kill('SIGKILL');
      throw new Error(`Prometheus did not get ready:\n${output}`);
    }
    return prometheus;
  }

  /** An instant query at the present time: its vector. */
  async query(expression: string): Promise<PromSample[]> {
    const response = await fetch(`${this.url}/api/v1/query?${new URLSearchParams({ query: expression }).toString()}`);
    const body = (await response.json()) as { status: string; data?: { result: PromSample[] }; error?: string };
    if (body.status !== 'success') throw new Error(`query ${expression}: ${body.error ?? response.status}`);
    return body.data?.result ?? [];
  }

  /** Prometheus's own log so far: what it said about the requests it refused. */
  log(): string {
    return this.output();
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}
