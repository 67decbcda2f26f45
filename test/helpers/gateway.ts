// Starts the built otelgate (dist/cli.js) on a free loopback port with its own keys file in a
// temporary folder, and stops it. What the pipelines export shows in the debug exporter's log lines.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKey } from '../../src/auth/key.js';
import { writeKeysFile } from '../../src/auth/keysfile.js';
import { afterAll } from 'vitest';
import type { Backend } from './backend.js';
import type { Scope } from '../../src/auth/authenticator.js';
import type { Signal } from '../../src/model/signal.js';
import { ROOT, RunningCli, type LogLine } from './cli.js';
import { otlpJsonToProtobuf } from './otlp.js';

export interface Gateway {
  url: string;
  dir: string;
  keysFile: string;
  /** One key per project asked for, or by the names of GatewayOptions.keys. */
  keys: Record<string, string>;
  run: RunningCli;
  /** The debug exporter's count lines so far, e.g. {project, 'log records': 3}. */
  exported(title: 'Logs' | 'Traces' | 'Metrics'): LogLine[];
  /** GET /api/v1/query/{what}?params with `key`. */
  read(what: 'logs' | 'spans' | 'metrics', key: string | undefined, params?: Record<string, string>): Promise<ReadResult>;
  stop(): Promise<number | null>;
}

/** The ingest receiver with API keys from `keysFile`, every signal to `exporter` (its YAML in `exporters`). */
function gatewayConfig(keysFile: string, exporter: string, exporters: string, extraIngestLines = ''): string {
  return `
extensions:
  apikeyauth:
    keys_file: ${keysFile}
    reload_interval: 200ms
receivers:
  ingest:
    endpoint: 127.0.0.1:0
    auth: {authenticator: apikeyauth}
${extraIngestLines}
exporters:
${exporters}
service:
  extensions: [apikeyauth]
  pipelines:
    logs: {receivers: [ingest], exporters: [${exporter}]}
    traces: {receivers: [ingest], exporters: [${exporter}]}
    metrics: {receivers: [ingest], exporters: [${exporter}]}
`;
}

/** A gateway whose pipelines end in the debug exporter (what they carry shows in Gateway.exported). */
export const GATEWAY_CONFIG = (keysFile: string, extra = ''): string => gatewayConfig(keysFile, 'debug', '  debug:', extra);

/** A gateway that writes every signal to the embedded store at `dbPath` (read back with Gateway.read). */
export const STORE_CONFIG =
  (dbPath: string, extraStoreLines = '') =>
  (keysFile: string): string =>
    gatewayConfig(keysFile, 'store', `  store:\n    path: ${dbPath}\n${extraStoreLines}`);

export interface ReadResult {
  status: number;
  /** The parsed JSON answer: {rows} on 200, {message} otherwise. */
  body: { rows?: Record<string, unknown>[]; message?: string };
  text: string;
}

export interface GatewayOptions {
  /** A key for each, of both scopes, named by its project in Gateway.keys. */
  projects?: string[];
  /** Instead of `projects`: keys by the names they get in Gateway.keys (without scopes: both). */
  keys?: Record<string, { project: string; scopes?: Scope[] }>;
  /** Config text; receives the keys file path. Default: GATEWAY_CONFIG. */
  config?: (keysFile: string) => string;
  /** More --config files to merge after it (paths), or the config files to use instead when `replace`. */
  configs?: string[];
  env?: Record<string, string>;
  /** What starts otelgate run, when not the clone's dist/cli.js (an installed package's). */
  command?: readonly string[];
  /** Its working directory, when not the clone. */
  cwd?: string;
}

export async function startGateway(options: GatewayOptions = {}): Promise<Gateway> {
  const dir = mkdtempSync(join(tmpdir(), 'otelgate-gw-'));
  const keysFile = join(dir, 'keys.yaml');
  const keys: Record<string, string> = {};
  const wanted: NonNullable<GatewayOptions['keys']> = options.keys ?? Object.fromEntries((options.projects ?? ['default']).map((project) => [project, { project }]));
  const entries = Object.entries(wanted).map(([name, { project, scopes }]) => {
    const key = generateKey();
    keys[name] = key.key;
    return { id: key.id, project, sha256: key.sha256, ...(scopes === undefined ? {} : { scopes }) };
  });
  writeKeysFile(keysFile, entries);
  const configFile = join(dir, 'config.yaml');
  writeFileSync(configFile, (options.config ?? GATEWAY_CONFIG)(keysFile));
  const args = ['--config', configFile, ...(options.configs ?? []).flatMap((file) => ['--config', file])];
  const run = new RunningCli(args, { env: options.env, command: options.command, cwd: options.cwd });
  const started = await run.waitFor('Starting HTTP server');
  await run.waitFor('Everything is ready');
  return {
    url: `http://${String(started['endpoint'])}`,
    dir,
    keysFile,
    keys,
    run,
    exported: (title) => run.lines.filter((l) => l.msg === title && l['name'] !== undefined),
    async read(what, key, params = {}) {
      const url = `http://${String(started['endpoint'])}/api/v1/query/${what}?${new URLSearchParams(params).toString()}`;
      const response = await fetch(url, { headers: key === undefined ? {} : { Authorization: `Bearer ${key}` } });
      const text = await response.text();
      return { status: response.status, body: JSON.parse(text) as ReadResult['body'], text };
    },
    stop: () => run.stop(),
  };
}

/** The gateways and backends a test file starts, stopped after all its tests. */
export function stoppedAfterAll(): { gateways: Gateway[]; backends: Pick<Backend<unknown>, 'stop'>[] } {
  const gateways: Gateway[] = [];
  const backends: Pick<Backend<unknown>, 'stop'>[] = [];
  afterAll(async () => {
    for (const gateway of gateways) await gateway.stop();
    for (const backend of backends) await backend.stop();
  });
  return { gateways, backends };
}

/** Posts testdata/otlp/<signal>.json to a gateway with `key`, as JSON or as its protobuf twin; resolves with the status. */
export async function postGolden(gateway: Gateway, signal: Signal, key: string, protobuf: boolean): Promise<number> {
  const json = readFileSync(join(ROOT, 'testdata', 'otlp', `${signal}.json`), 'utf8');
  const response = await fetch(`${gateway.url}/v1/${signal}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': protobuf ? 'application/x-protobuf' : 'application/json' },
    body: protobuf ? otlpJsonToProtobuf(signal, JSON.parse(json)) : json,
  });
  await response.arrayBuffer();
  return response.status;
}

/** Rows read back, as a sorted list of their JSON: rows of equal time may be stored in another order. */
export const rowSet = (rows: Record<string, unknown>[] | undefined): string[] => (rows ?? []).map((row) => JSON.stringify(row)).sort();
