// otelgate ends by letting its event loop run out, not by process.exit(): process.exit() stops
// Node's threads before V8, and a V8 thread compiling code that waits for a collection then waits
// for ever, and the process with it (src/cli.ts). So every component must let go of its handles at
// shutdown; process.exit() is only the fallback when one does not.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { generateKey } from '../../src/auth/key.js';
import { writeKeysFile } from '../../src/auth/keysfile.js';
import { CLI, RunningCli } from '../helpers/cli.js';
import { defaultPipelineConfigs } from '../helpers/default-pipeline.js';
import { waitUntil } from '../helpers/wait.js';

const REPORT = fileURLToPath(new URL('../../testdata/cli/report-process-exit.mjs', import.meta.url));

let backend: Server | undefined;
afterEach(() => backend?.close());

/**
 * Runs otelgate with `configs`, sends one log once it is ready, waits for `landed` (the log where
 * it goes), stops it with SIGTERM; says its exit code and whether process.exit() was called.
 */
async function stopped(configs: string[], landed: () => Promise<unknown>, key?: string): Promise<{ code: number | null; forced: boolean; complete: boolean }> {
  const run = new RunningCli(configs, { command: [process.execPath, '--import', REPORT, CLI, 'run'] });
  // 'exit' can come before the last of stderr is read, and the report is the last line written.
  const closed = new Promise((resolve) => run.child.once('close', resolve));
  try {
    const started = await run.waitFor('Starting HTTP server');
    await run.waitFor('Everything is ready');
    const answer = await fetch(`http://${String(started['endpoint'])}/api/v1/ingest`, {
      method: 'POST',
      body: JSON.stringify({ message: 'before the stop' }),
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key ?? (await run.printedKey())}` },
    });
    expect(answer.status).toBe(202);
    await landed();
  } finally {
    run.child.kill('SIGTERM');
  }
  const code = await run.exit();
  await closed;
  const messages = run.lines.map((line) => line.msg);
  return { code, forced: messages.some((msg) => msg.includes('process.exit(')), complete: messages.includes('Shutdown complete.') };
}

/** A config of `text` (given its folder, whose keys.yaml holds one key of the project default): its --config arguments and that key. */
function keyedConfig(text: (dir: string) => string): { configs: string[]; key: string } {
  const dir = mkdtempSync(join(tmpdir(), 'otelgate-exit-'));
  const key = generateKey();
  writeKeysFile(join(dir, 'keys.yaml'), [{ id: key.id, project: 'default', sha256: key.sha256 }]);
  const config = join(dir, 'config.yaml');
  writeFileSync(config, text(dir));
  return { configs: ['--config', config], key: key.key };
}

describe('otelgate run, stopped', () => {
  it('ends with its event loop on the default pipeline (store, health check, own metrics)', async () => {
    expect(await stopped(defaultPipelineConfigs('otelgate-exit-'), () => Promise.resolve())).toEqual({ code: 0, forced: false, complete: true });
  });

  it('ends with its event loop, workers and primary, with service.workers: 2, stopped while its second worker starts', async () => {
    const { configs, key } = keyedConfig(
      (dir) =>
        `extensions: {apikeyauth: {keys_file: ${dir}/keys.yaml}}\n` +
        'receivers: {ingest: {endpoint: "127.0.0.1:0", auth: {authenticator: apikeyauth}}}\nexporters: {debug: {}}\n' +
        'service: {workers: 2, extensions: [apikeyauth], pipelines: {logs: {receivers: [ingest], exporters: [debug]}}}\n',
    );
    // The first worker's "Everything is ready" comes while the second one starts: the primary is
    // stopped then, and the second worker must stop too, told before it listens to its primary.
    expect(await stopped(configs, () => Promise.resolve(), key)).toEqual({ code: 0, forced: false, complete: true });
  });

  it('ends with its event loop when forwarding through a queue on disk to a backend', async () => {
    let received = 0;
    backend = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received++;
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => backend?.listen(0, '127.0.0.1', resolve));
    const address = backend.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const { configs, key } = keyedConfig(
      (dir) =>
        `extensions: {apikeyauth: {keys_file: ${dir}/keys.yaml}, file_storage: {directory: ${dir}/queue}}\n` +
        'receivers: {ingest: {endpoint: "127.0.0.1:0", auth: {authenticator: apikeyauth}}}\n' +
        `exporters: {otlp_http: {endpoint: "http://127.0.0.1:${port}", sending_queue: {storage: file_storage}}}\n` +
        'service: {extensions: [apikeyauth, file_storage], pipelines: {logs: {receivers: [ingest], exporters: [otlp_http]}}}\n',
    );
    // Stopped once the log is delivered: the exporter then holds a connection to the backend.
    const delivered = (): Promise<boolean> => waitUntil(() => received === 1);
    expect(await stopped(configs, delivered, key)).toEqual({ code: 0, forced: false, complete: true });
    expect(received).toBe(1);
  });
});
