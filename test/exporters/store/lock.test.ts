// The store has one writer. A second store exporter on the same file, in this process or in another
// otelgate, is refused with STORE_LOCKED, naming the file, the holder (pid, host) and the fix; the
// holder goes on writing, and otelgate query reads beside it. The lock goes with its holder (a
// clean shutdown, a failed start, kill -9), so a restart never needs a cleanup, and a row left by
// a dead holder, even one with this process's pid, blocks nothing. Of several otelgates starting at
// the same moment, exactly one gets the store.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { builtinRegistry } from '../../../src/components.js';
import { ComponentStartError, StoreLockedError } from '../../../src/errors.js';
import type { StoreConfig } from '../../../src/exporters/store/config.js';
import { openForReading } from '../../../src/exporters/store/database.js';
import { storeExporterFactory } from '../../../src/exporters/store/factory.js';
import type { Exporter } from '../../../src/runtime/component.js';
import { Service } from '../../../src/runtime/service.js';
import { ROOT, RunningCli, runCli } from '../../helpers/cli.js';
import { testContext } from '../../helpers/components.js';
import { configFrom } from '../../helpers/config.js';
import { startGateway, STORE_CONFIG, type Gateway } from '../../helpers/gateway.js';
import { memoryLogger } from '../../helpers/logger.js';
import { logBatch } from '../../helpers/rows.js';
import { consumeContext } from '../../../src/runtime/component.js';

const tmpDb = (): string => join(mkdtempSync(join(tmpdir(), 'otelgate-lock-')), 'otelgate.db');

/** Store exporters `ids`, all on `path`, each in the logs pipeline, validated by the real config loader (logs kept for ever: the test rows are from 2023). */
const storesConfig = (path: string, ids: string[]) =>
  configFrom(
    `receivers: {nop: }\nexporters:\n${ids.map((id) => `  ${id}: {path: ${path}, retention: {logs: "0"}}\n`).join('')}` +
      `service: {pipelines: {logs: {receivers: [nop], exporters: [${ids.join(', ')}]}}}\n`,
    builtinRegistry(),
  );

const running: { shutdown(): Promise<unknown> }[] = [];
const gateways: Gateway[] = [];
afterEach(async () => {
  for (const component of running.splice(0).reverse()) await component.shutdown();
  for (const gw of gateways.splice(0)) if (gw.run.child.exitCode === null && gw.run.child.signalCode === null) await gw.stop();
});

function createStore(path: string, id = 'store'): Exporter {
  const config = storesConfig(path, [id]).components.exporter.get(id)?.config as StoreConfig;
  return storeExporterFactory.create(config, testContext(id, 'exporter').ctx);
}

async function startStore(path: string, id = 'store'): Promise<Exporter> {
  const exporter = createStore(path, id);
  await exporter.start();
  running.push(exporter);
  return exporter;
}

const refusal = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => {
      throw new Error('started, but should have been refused');
    },
    (error: unknown) => error,
  );

function countLogs(path: string): number {
  const db = openForReading(path);
  try {
    return Number((db.prepare('SELECT count(*) AS n FROM logs').get() as { n: number }).n);
  } finally {
    db.close();
  }
}

/** Sends one log line to the gateway's simple JSON endpoint as project default; resolves to the status. */
async function ingest(gw: Gateway, message: string): Promise<number> {
  const response = await fetch(`${gw.url}/api/v1/ingest`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${gw.keys['default'] as string}`, 'Content-Type': 'application/json' },
    body: JSON.stringify([{ message, level: 'info' }]),
  });
  await response.text();
  return response.status;
}

/** A child node process whose stdout lines are collected; until(n) waits (up to 20 s) for n of them. */
function spawnLines(args: string[]): { process: ChildProcessWithoutNullStreams; lines: string[]; until(count: number): Promise<void> } {
  const child = spawn(process.execPath, args);
  const lines: string[] = [];
  let buffered = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    let newline: number;
    while ((newline = buffered.indexOf('\n')) !== -1) {
      lines.push(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return {
    process: child,
    lines,
    async until(count) {
      for (const deadline = Date.now() + 20_000; lines.length < count; await new Promise((resolve) => setTimeout(resolve, 20))) {
        if (Date.now() > deadline) throw new Error(`the child said ${JSON.stringify(lines)} in 20 s, not ${count} lines; stderr: ${stderr}`);
      }
    },
  };
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('one store writer in one process', () => {
  it('refuses a second store exporter on the same file, naming the first, which goes on writing', async () => {
    const path = tmpDb();
    const first = await startStore(path, 'store/a');
    const error = await refusal(createStore(path, 'store/b').start());

    expect(error).toBeInstanceOf(StoreLockedError);
    const locked = error as StoreLockedError;
    expect(locked.code).toBe('STORE_LOCKED');
    expect(locked.retryable).toBe(false);
    expect(locked.file).toBe(path);
    expect(locked.holder).toEqual({ pid: process.pid, host: hostname(), exporter: 'store/a', since: expect.stringMatching(ISO) as string, here: true });
    expect(locked.message).toBe(
      `${path} is already being written by another store exporter of this otelgate ` +
        `(pid ${process.pid} on host ${hostname()}, exporter "store/a", since ${locked.holder?.since}); ` +
        'a store has one writer: give exporters.store/b.path another file',
    );

    await first.consume(logBatch(3), consumeContext());
    expect(countLogs(path)).toBe(3);
  });

  it('fails the Service start with the store lock as the cause, and the first store it started lets the file go', async () => {
    const path = tmpDb();
    const { logger } = memoryLogger();
    const service = new Service(storesConfig(path, ['store/a', 'store/b']), logger);
    const error = await refusal(service.start());

    expect(error).toBeInstanceOf(ComponentStartError);
    expect((error as ComponentStartError).componentId).toBe('store/b');
    expect((error as Error).message).toMatch(new RegExp(`^store/b could not start: ${path} is already being written by another store exporter of this otelgate \\(pid ${process.pid} `));
    expect((error as Error).cause).toBeInstanceOf(StoreLockedError);
    // store/a was shut down when store/b failed: the file is free.
    await startStore(path);
  });

  it('lets a new store start on the file after a clean shutdown, as a reload does; the same exporter starts again too', async () => {
    const path = tmpDb();
    const first = createStore(path);
    await first.start();
    await first.consume(logBatch(2), consumeContext());
    await first.shutdown();

    const second = await startStore(path);
    await second.consume(logBatch(1), consumeContext());
    expect(countLogs(path)).toBe(3);
    await second.shutdown();
    running.pop();

    await first.start();
    running.push(first);
    await first.consume(logBatch(1), consumeContext());
    expect(countLogs(path)).toBe(4);
  });

  it('lets the file go when the start fails after the lock was taken (a store of a newer otelgate)', async () => {
    const path = tmpDb();
    const newer = new DatabaseSync(path);
    newer.exec('PRAGMA user_version = 999');
    newer.close();
    // Both fail for the schema, never for the lock the first would have kept.
    for (const id of ['store/a', 'store/b']) expect(String(await refusal(createStore(path, id).start()))).toMatch(/was written by a newer otelgate/);
  });

  it('is not blocked by the row of a holder that died, even one with this very pid (a container restarted as pid 1)', async () => {
    const path = tmpDb();
    const left = new DatabaseSync(`${path}.lock`);
    left.exec('CREATE TABLE holder (pid INTEGER NOT NULL, host TEXT NOT NULL, exporter TEXT NOT NULL, since TEXT NOT NULL)');
    left.prepare('INSERT INTO holder VALUES (?, ?, ?, ?)').run(process.pid, hostname(), 'store/old', '2020-01-01T00:00:00.000Z');
    left.close();
    await startStore(path);
    const error = (await refusal(createStore(path, 'store/b').start())) as StoreLockedError;
    // The row is the live holder's now.
    expect(error.holder).toMatchObject({ pid: process.pid, exporter: 'store', here: true });
    expect(error.holder?.since).not.toBe('2020-01-01T00:00:00.000Z');
  });
});

describe('one store writer across processes', () => {
  it('refuses a second otelgate on the store (exit 1, naming the file, pid and host); the first keeps running and otelgate query reads beside it', async () => {
    const path = tmpDb();
    const first = await startGateway({ config: STORE_CONFIG(path) });
    gateways.push(first);
    const config = join(first.dir, 'config.yaml');

    const second = new RunningCli(['--config', config]);
    expect(await second.exit()).toBe(1);
    const expected = `${path} is already being written by another otelgate (pid ${first.run.child.pid} on host ${hostname()}, exporter "store", since `;
    const line = second.lines.find((l) => l.level === 'error' && l.msg.includes(expected));
    expect(line, second.lines.map((l) => l.msg).join('\n')).toBeDefined();
    expect(line?.msg).toContain('a store has one writer: stop that one first, or give exporters.store.path another file');
    expect(second.lines.some((l) => l.msg.includes('Everything is ready'))).toBe(false);

    expect(first.run.child.exitCode).toBeNull();
    expect(await ingest(first, 'after the refusal')).toBe(202);
    const query = runCli(['query', 'logs', '--project', 'default', '--config', config]);
    expect([query.status, query.stderr]).toEqual([0, '']);
    expect(query.stdout).toContain('"body":"after the refusal"');
  });

  it('starts a new otelgate on the store, with no cleanup, after the holder was killed with SIGKILL; it has what the first stored', async () => {
    const path = tmpDb();
    const first = await startGateway({ config: STORE_CONFIG(path) });
    gateways.push(first);
    expect(await ingest(first, 'before the kill')).toBe(202);
    first.run.kill();
    await first.run.exit();

    const next = await startGateway({ config: STORE_CONFIG(path) });
    gateways.push(next);
    const read = await next.read('logs', next.keys['default']);
    expect(read.status).toBe(200);
    expect(read.body.rows?.map((row) => row['body'])).toEqual(['before the kill']);
    expect(await next.stop()).toBe(0);
  });

  it('gives the store to exactly one of several processes taking it at the same moment; the others are refused', async () => {
    const lockModule = pathToFileURL(join(ROOT, 'dist/exporters/store/lock.js')).href;
    // Each child says ready, takes the lock on "go", says how it went, and holds what it got until killed.
    const script = `
      const { lockStore } = await import(process.argv[1]);
      process.stdout.write('ready\\n');
      process.stdin.setEncoding('utf8').once('data', () => {
        try {
          lockStore(process.argv[2], process.argv[3]);
          process.stdout.write('held\\n');
          setInterval(() => {}, 1 << 30);
        } catch (error) {
          process.stdout.write((error.code ?? error.message) + '\\n');
          process.exit(0);
        }
      });`;
    for (let round = 0; round < 3; round++) {
      const path = tmpDb();
      const children = Array.from({ length: 4 }, (_, i) => spawnLines(['--input-type=module', '-e', script, lockModule, path, `store/${i}`]));
      try {
        await Promise.all(children.map((child) => child.until(1)));
        for (const child of children) child.process.stdin.write('go\n');
        await Promise.all(children.map((child) => child.until(2)));
        expect(children.map((child) => child.lines[1]).sort()).toEqual(['STORE_LOCKED', 'STORE_LOCKED', 'STORE_LOCKED', 'held']);
      } finally {
        for (const child of children) child.process.kill('SIGKILL');
      }
    }
  });
});
