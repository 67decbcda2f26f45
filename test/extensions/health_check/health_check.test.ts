// The health_check extension over real HTTP: 503 until the service is ready, 200 with the
// Collector's JSON while it is, 503 again from the moment shutdown begins; its settings; the CLI.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinRegistry } from '../../../src/components.js';
import { ConfigError } from '../../../src/errors.js';
import type { HealthCheckConfig } from '../../../src/extensions/health_check/config.js';
import { goDuration, healthCheckExtensionFactory } from '../../../src/extensions/health_check/factory.js';
import type { Component } from '../../../src/runtime/component.js';
import { Registry } from '../../../src/runtime/registry.js';
import { Service } from '../../../src/runtime/service.js';
import { RunningCli } from '../../helpers/cli.js';
import { captureExporter, recorder, testContext, testReceiver } from '../../helpers/components.js';
import { configFrom } from '../../helpers/config.js';
import { memoryLogger } from '../../helpers/logger.js';
import { logBatch } from '../../helpers/rows.js';
import { waitUntil } from '../../helpers/wait.js';
import { consumeContext } from '../../../src/runtime/component.js';

const NOT_AVAILABLE = '{"status":"Server not available","upSince":"0001-01-01T00:00:00Z","uptime":""}';
const UPTIME = /^(\d+(?:\.\d+)?)(ns|µs|ms|s)$/;
const UNIT_MS: Record<string, number> = { ns: 1e-6, µs: 1e-3, ms: 1, s: 1000 };

interface Answer {
  status: number;
  type: string | null;
  body: string;
}

async function get(base: string, path = '/', method = 'GET'): Promise<Answer> {
  const response = await fetch(`${base}${path}`, { method });
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
}

/** The endpoint the extension logged once listening, as a base URL. */
function baseUrl(lines: Record<string, unknown>[]): string {
  const line = lines.find((l) => l['msg'] === 'Starting health_check extension');
  expect(line).toBeDefined();
  return `http://${String(line?.['endpoint'])}`;
}

function states(lines: Record<string, unknown>[]): unknown[] {
  return lines.filter((l) => l['msg'] === 'Health Check state change').map((l) => l['status']);
}

/** The extension alone, from its factory, as the Service would make it. */
async function startAlone(settings: Partial<HealthCheckConfig> = {}): Promise<{ component: Component; base: string; lines: Record<string, unknown>[] }> {
  const { ctx, lines } = testContext('health_check', 'extension');
  const config: HealthCheckConfig = { endpoint: '127.0.0.1:0', path: '/', ...settings };
  const component = healthCheckExtensionFactory.create(config, ctx);
  await component.start();
  return { component, base: baseUrl(lines), lines };
}

describe('health_check extension', () => {
  it('answers 503 "Server not available" until ready(), then 200 "Server available" with upSince and a Go uptime; 503 again after notReady()', async () => {
    const { component, base, lines } = await startAlone();
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await get(base)).toEqual({ status: 503, type: 'application/json', body: NOT_AVAILABLE });

    const before = Date.now();
    const beforeNs = process.hrtime.bigint();
    component.ready?.();
    const after = Date.now();
    const afterNs = process.hrtime.bigint();
    await new Promise((resolve) => setTimeout(resolve, 30));
    const askedNs = process.hrtime.bigint();
    const first = await get(base);
    const answeredNs = process.hrtime.bigint();
    expect([first.status, first.type]).toEqual([200, 'application/json']);
    const body = JSON.parse(first.body) as Record<string, string>;
    expect(Object.keys(body)).toEqual(['status', 'upSince', 'uptime']);
    expect(body['status']).toBe('Server available');
    expect(body['upSince']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(body['upSince'] as string)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(body['upSince'] as string)).toBeLessThanOrEqual(after);
    // The uptime is bracketed by what this test saw, however long the machine took: at least from
    // ready() to asking, at most from before ready() to the answer.
    const [, amount, unit] = UPTIME.exec(body['uptime'] as string) ?? [];
    const uptimeMs = Number(amount) * (UNIT_MS[unit as string] as number);
    expect(uptimeMs).toBeGreaterThanOrEqual(Number(askedNs - afterNs) / 1e6 - 0.001);
    expect(uptimeMs).toBeLessThanOrEqual(Number(answeredNs - beforeNs) / 1e6 + 0.001);

    // A second ready() keeps the time it became ready, as the Collector does.
    component.ready?.();
    const second = JSON.parse((await get(base)).body) as Record<string, string>;
    expect(second['upSince']).toBe(body['upSince']);

    component.notReady?.();
    expect(await get(base)).toEqual({ status: 503, type: 'application/json', body: NOT_AVAILABLE });
    expect(states(lines)).toEqual(['ready', 'ready', 'unavailable']);
    await component.shutdown();
    await expect(get(base)).rejects.toThrow();
  });

  it('answers only on its path (any method, query ignored) and 404 elsewhere', async () => {
    const { component, base } = await startAlone({ path: '/health/status' });
    component.ready?.();
    expect((await get(base, '/health/status')).status).toBe(200);
    expect((await get(base, '/health/status?verbose=1')).status).toBe(200);
    expect((await get(base, '/health/status', 'POST')).status).toBe(200);
    const notFound = { status: 404, type: 'text/plain; charset=utf-8', body: '404 page not found\n' };
    expect(await get(base, '/')).toEqual(notFound);
    expect(await get(base, '/health')).toEqual(notFound);
    expect(await get(base, '/health/status/')).toEqual(notFound);
    expect(await get(base, '/metrics')).toEqual(notFound);
    await component.shutdown();
  });

  it('answers everything below a path that ends in "/", as Go\'s ServeMux: the default "/" answers every URL', async () => {
    for (const [path, answered, notFound] of [
      ['/', ['/', '/healthz', '/a/b?c=d'], []],
      ['/health/', ['/health/', '/health/live', '/health/a/b'], ['/health', '/healthz', '/']],
    ] as const) {
      const { component, base } = await startAlone({ path });
      component.ready?.();
      for (const url of answered) expect([url, (await get(base, url)).status]).toEqual([url, 200]);
      for (const url of notFound) expect([url, (await get(base, url)).status]).toEqual([url, 404]);
      await component.shutdown();
    }
  });

  it('answers response_body.unhealthy with 503 and response_body.healthy with 200 instead of the JSON', async () => {
    const { component, base } = await startAlone({ response_body: { healthy: 'I am fine', unhealthy: 'not yet' } });
    expect(await get(base)).toEqual({ status: 503, type: 'text/plain; charset=utf-8', body: 'not yet' });
    component.ready?.();
    expect(await get(base)).toEqual({ status: 200, type: 'text/plain; charset=utf-8', body: 'I am fine' });
    component.notReady?.();
    expect(await get(base)).toEqual({ status: 503, type: 'text/plain; charset=utf-8', body: 'not yet' });
    await component.shutdown();
  });

  it('fails to start when its port is taken', async () => {
    const { component, base } = await startAlone();
    await expect(startAlone({ endpoint: new URL(base).host })).rejects.toThrow(/EADDRINUSE/);
    await component.shutdown();
  });
});

describe('health_check in the Service', () => {
  const CONFIG = `
receivers: {testin: }
exporters: {capture: }
extensions: {health_check: {endpoint: "127.0.0.1:0"}}
service:
  extensions: [health_check]
  pipelines:
    logs: {receivers: [testin], exporters: [capture]}
`;

  it('is ready once every component has started, and 503 from the start of shutdown while batches still drain', async () => {
    const rec = recorder();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const registry = new Registry([testReceiver(rec), captureExporter(rec, { gate }), healthCheckExtensionFactory]);
    const { logger, lines } = memoryLogger();
    const service = new Service(configFrom(CONFIG, registry), logger);
    await service.start();
    const base = baseUrl(lines);
    const ready = await get(base);
    expect([ready.status, (JSON.parse(ready.body) as Record<string, string>)['status']]).toEqual([200, 'Server available']);

    const inFlight = service.consumer('testin', 'logs')?.consume(logBatch(1), consumeContext());
    expect(await waitUntil(() => rec.events.includes('consume capture'))).toBe(true);
    let done = false;
    const shutdown = service.shutdown().then((result) => {
      done = true;
      return result;
    });
    expect(await get(base)).toEqual({ status: 503, type: 'application/json', body: NOT_AVAILABLE });
    expect(done).toBe(false);
    expect(rec.events).toContain('shutdown testin');
    expect(rec.events).not.toContain('shutdown capture');

    release();
    await inFlight;
    await expect(shutdown).resolves.toEqual({ clean: true, abandoned: 0, stopped: expect.any(Promise) });
    await expect(get(base)).rejects.toThrow();
    expect(states(lines)).toEqual(['ready', 'unavailable']);
  });

  it('is never ready when another component fails to start', async () => {
    const rec = recorder();
    const failing = { ...captureExporter(rec), create: () => ({ start: () => Promise.reject(new Error('no')), shutdown: async () => {}, consume: async () => {} }) };
    const { logger, lines } = memoryLogger();
    const service = new Service(configFrom(CONFIG, new Registry([testReceiver(rec), failing, healthCheckExtensionFactory])), logger);
    await expect(service.start()).rejects.toThrow(/no/);
    expect(states(lines)).toEqual([]);
    await expect(get(baseUrl(lines))).rejects.toThrow();
  });
});

describe('health_check settings', () => {
  function problems(settings: string): string[] {
    try {
      configFrom(`extensions: {health_check: ${settings}}\nreceivers: {nop: }\nexporters: {nop: }\nservice: {extensions: [health_check], pipelines: {logs: {receivers: [nop], exporters: [nop]}}}\n`, builtinRegistry());
    } catch (error) {
      if (error instanceof ConfigError) return error.issues.filter((i) => i.severity === 'error').map((i) => `${i.path}: ${i.message}`);
      throw error;
    }
    return [];
  }

  it('defaults to localhost:13133 and /, without response_body, as the Collector', () => {
    const resolved = configFrom(
      'extensions: {health_check: }\nreceivers: {nop: }\nexporters: {nop: }\nservice: {extensions: [health_check], pipelines: {logs: {receivers: [nop], exporters: [nop]}}}\n',
      builtinRegistry(),
    );
    expect(resolved.components.extension.get('health_check')?.config).toEqual({ endpoint: 'localhost:13133', path: '/' });
    expect(problems('{response_body: {healthy: up}}')).toEqual([]);
  });

  it('accepts the Collector\'s check_collector_pipeline, as a Collector config writes it', () => {
    expect(problems('{check_collector_pipeline: {enabled: true, interval: 5m, exporter_failure_threshold: 5}}')).toEqual([]);
  });

  it('rejects an endpoint that is not host:port, a path without a leading /, and unknown settings', () => {
    expect(problems('{endpoint: "localhost"}')).toEqual(['extensions.health_check.endpoint: "localhost" is not host:port, e.g. localhost:13133 or :13133']);
    expect(problems('{path: "health"}')).toEqual(['extensions.health_check.path: "health" must start with "/"']);
    expect(problems('{colour: blue}')).toHaveLength(1);
    expect(problems('{colour: blue}')[0]).toMatch(/^extensions\.health_check\.colour: unknown setting/);
    expect(problems('{check_collector_pipeline: {enabled: true, checks: 3}}')[0]).toMatch(/^extensions\.health_check\.check_collector_pipeline\.checks: unknown setting/);
    expect(problems('{response_body: {healthy: up, sick: down}}')[0]).toMatch(/^extensions\.health_check\.response_body\.sick: unknown setting/);
  });
});

describe('goDuration', () => {
  it.each([
    [0n, '0s'],
    [1n, '1ns'],
    [999n, '999ns'],
    [1_000n, '1µs'],
    [1_500n, '1.5µs'],
    [1_000_000n, '1ms'],
    [1_234_567n, '1.234567ms'],
    [999_999_999n, '999.999999ms'],
    [1_000_000_000n, '1s'],
    [1_500_000_000n, '1.5s'],
    [60_000_000_000n, '1m0s'],
    [61_250_000_000n, '1m1.25s'],
    [3_600_000_000_000n, '1h0m0s'],
    [3_723_000_000_001n, '1h2m3.000000001s'],
    [360_000_000_000_000n, '100h0m0s'],
  ])('writes %s ns as Go does: %s', (ns, text) => {
    expect(goDuration(ns)).toBe(text);
  });
});

describe('health_check from the built CLI', () => {
  it('answers 200 once otelgate logs it is ready, turns unavailable when shutdown starts, and stops with it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'otelgate-health-'));
    const file = join(dir, 'config.yaml');
    writeFileSync(
      file,
      'extensions: {health_check: {endpoint: "127.0.0.1:0", path: /healthz}}\nreceivers: {nop: }\nexporters: {nop: }\n' +
        'service: {extensions: [health_check], telemetry: {logs: {level: debug}}, pipelines: {logs: {receivers: [nop], exporters: [nop]}}}\n',
    );
    const run = new RunningCli(['--config', file]);
    try {
      const started = await run.waitFor('Starting health_check extension');
      await run.waitFor('Everything is ready');
      const base = `http://${String(started['endpoint'])}`;
      const answer = await get(base, '/healthz');
      expect([answer.status, (JSON.parse(answer.body) as Record<string, string>)['status']]).toEqual([200, 'Server available']);
      expect((await get(base, '/')).status).toBe(404);
      run.child.kill('SIGTERM');
      expect(await run.exit()).toBe(0);
      const messages = run.lines.map((l) => (l.msg === 'Health Check state change' ? `${l.msg}: ${String(l['status'])}` : l.msg));
      expect(messages.filter((m) => m.startsWith('Health Check') || m.startsWith('Everything') || m.startsWith('Starting shutdown'))).toEqual([
        'Health Check state change: ready',
        'Everything is ready. Begin running and processing data.',
        'Starting shutdown...',
        'Health Check state change: unavailable',
      ]);
    } finally {
      run.kill();
    }
  });
});
