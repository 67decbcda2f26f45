// Retention of the store exporter: rows older than their signal's retention (by their own time) are
// deleted, younger ones stay, "0" keeps everything, deletion works in chunks across projects; and
// through the CLI, the start-up retention pass of a restarted otelgate deletes a 31-day-old point.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { builtinRegistry } from '../../../src/components.js';
import type { StoreConfig } from '../../../src/exporters/store/config.js';
import { storeExporterFactory, type StoreExporter } from '../../../src/exporters/store/factory.js';
import type { Batch } from '../../../src/model/batch.js';
import type { LogRow } from '../../../src/model/logs.js';
import type { DataPointRow } from '../../../src/model/metrics.js';
import type { Signal } from '../../../src/model/signal.js';
import type { SpanRow } from '../../../src/model/traces.js';
import { parseQuery } from '../../../src/query/params.js';
import type { Component } from '../../../src/runtime/component.js';
import { configFrom } from '../../helpers/config.js';
import { startGateway, STORE_CONFIG, type Gateway } from '../../helpers/gateway.js';
import { testContext } from '../../helpers/components.js';
import { RECEIVED, logRow, metricBatch, resource, scope, spanBatch } from '../../helpers/rows.js';
import { consumeContext } from '../../../src/runtime/component.js';

const MS_PER_DAY = 86_400_000;
const NS_PER_MS = 1_000_000n;
const HOUR_NS = 3_600_000_000_000n;

/** The store's settings with every default filled in, validated by the real config loader. */
function storeConfig(path: string, extra = ''): StoreConfig {
  const resolved = configFrom(
    `
receivers:
  nop:
exporters:
  store:
    path: ${path}
${extra}
service:
  pipelines:
    logs: {receivers: [nop], exporters: [store]}
    traces: {receivers: [nop], exporters: [store]}
    metrics: {receivers: [nop], exporters: [store]}
`,
    builtinRegistry(),
  );
  return resolved.components.exporter.get('store')?.config as StoreConfig;
}

interface Started {
  exporter: StoreExporter;
  lines: Record<string, unknown>[];
}

const running: Component[] = [];
afterEach(async () => {
  for (const component of running.splice(0)) await component.shutdown();
});

/** The store from its factory, as the Service makes it, once its start-up retention pass is done. */
async function startStore(config: StoreConfig): Promise<Started> {
  const { ctx, lines } = testContext('store', 'exporter');
  const exporter = storeExporterFactory.create(config, ctx) as StoreExporter;
  await exporter.start();
  running.push(exporter);
  // On an empty store the pass begun in start() has ended before the next turn of the event loop,
  // where a receiver would begin listening: no waiting.
  await new Promise((resolve) => setImmediate(resolve));
  const passes = lines.filter((l) => l['msg'] === 'Retention pass done');
  expect(passes).toHaveLength(1);
  expect(passes[0]?.['deleted']).toEqual({ logs: 0, traces: 0, metrics: 0 });
  return { exporter, lines };
}

const tmpDb = (): string => join(mkdtempSync(join(tmpdir(), 'otelgate-retention-')), 'otelgate.db');

function logs(project: string, marker: string, times: bigint[], observed?: bigint[]): Batch<'logs'> {
  const res = resource();
  const sc = scope();
  const rows: LogRow[] = times.map((t, i) => ({ ...logRow(i, res, sc), timeUnixNano: t, observedTimeUnixNano: observed?.[i] ?? t, body: `${marker}-${i}` }));
  return { signal: 'logs', project, receivedUnixNano: RECEIVED, exclusive: false, rows };
}

function spans(project: string, marker: string, times: bigint[]): Batch<'traces'> {
  const template = spanBatch(project).rows[0] as SpanRow;
  const rows: SpanRow[] = times.map((t, i) => ({
    ...template,
    spanId: (i + 1).toString(16).padStart(16, '0'),
    name: `${marker}-${i}`,
    startTimeUnixNano: t,
    endTimeUnixNano: t + 1_000_000n,
  }));
  return { signal: 'traces', project, receivedUnixNano: RECEIVED, exclusive: false, rows };
}

function points(project: string, marker: string, times: bigint[]): Batch<'metrics'> {
  const template = metricBatch(project).rows[0] as DataPointRow;
  const rows: DataPointRow[] = times.map((t, i) => ({
    ...template,
    metric: { ...template.metric, name: `${marker}-${i}` },
    startTimeUnixNano: t - 60_000_000_000n,
    timeUnixNano: t,
  }));
  return { signal: 'metrics', project, receivedUnixNano: RECEIVED, exclusive: false, rows };
}

const NAME_FIELD: Record<Signal, string> = { logs: 'body', traces: 'name', metrics: 'metric_name' };

/** What the store answers for one project and signal: the marker field of every row, newest first. */
async function names(exporter: StoreExporter, project: string, signal: Signal): Promise<string[]> {
  const { rows, truncated } = await exporter.read(project, parseQuery(signal, [['limit', '10000']]));
  expect(truncated).toBe(false);
  return rows.map((text) => (JSON.parse(text) as Record<string, string>)[NAME_FIELD[signal]] as string);
}

describe('store retention, in process', () => {
  it('deletes exactly the rows older than each signal’s default retention (logs and spans 168h, metrics 720h) and keeps the younger ones', async () => {
    const { exporter } = await startStore(storeConfig(tmpDb()));
    const nowMs = Date.now();
    const nowNs = BigInt(nowMs) * NS_PER_MS;
    const daysAgo = (days: number): bigint => nowNs - BigInt(days) * 24n * HOUR_NS;
    const logCutoff = nowNs - 168n * HOUR_NS;
    const metricCutoff = nowNs - 720n * HOUR_NS;

    await exporter.consume(
      // old-3 has no time of its own: its observed time (8 days ago) is the one retention goes by.
      logs('default', 'log-old', [daysAgo(8), daysAgo(8) + 5n, logCutoff - 1n, 0n], [daysAgo(8), daysAgo(8) + 5n, logCutoff - 1n, daysAgo(8)]),
      consumeContext(),
    );
    // new-2 is exactly at the cutoff: "older than" does not include it. new-3 has an old observed time but a young own time.
    await exporter.consume(logs('default', 'log-new', [daysAgo(6), daysAgo(6) + 7n, logCutoff, daysAgo(1)], [daysAgo(6), daysAgo(6), logCutoff, daysAgo(9)]), consumeContext());
    await exporter.consume(spans('default', 'span-old', [daysAgo(8), logCutoff - 1n]), consumeContext());
    await exporter.consume(spans('default', 'span-new', [daysAgo(6), daysAgo(6) + 1n, logCutoff]), consumeContext());
    // Metrics 8 days old are well within their 30 days.
    await exporter.consume(points('default', 'point-old', [daysAgo(31), daysAgo(31) + 3n, metricCutoff - 1n]), consumeContext());
    await exporter.consume(points('default', 'point-new', [daysAgo(29), metricCutoff, daysAgo(8)]), consumeContext());

    expect(await names(exporter, 'default', 'logs')).toHaveLength(8);
    expect(await names(exporter, 'default', 'traces')).toHaveLength(5);
    expect(await names(exporter, 'default', 'metrics')).toHaveLength(6);

    expect(await exporter.retain(nowMs)).toEqual({ logs: 4, traces: 2, metrics: 3 });

    expect(await names(exporter, 'default', 'logs')).toEqual(['log-new-3', 'log-new-1', 'log-new-0', 'log-new-2']);
    expect(await names(exporter, 'default', 'traces')).toEqual(['span-new-1', 'span-new-0', 'span-new-2']);
    expect(await names(exporter, 'default', 'metrics')).toEqual(['point-new-2', 'point-new-0', 'point-new-1']);

    // A second pass at the same time finds nothing more to delete.
    expect(await exporter.retain(nowMs)).toEqual({ logs: 0, traces: 0, metrics: 0 });
    expect(await names(exporter, 'default', 'logs')).toHaveLength(4);
    expect(await names(exporter, 'default', 'traces')).toHaveLength(3);
    expect(await names(exporter, 'default', 'metrics')).toHaveLength(3);
  });

  it('keeps a time past 2^63 ns (after 2262) as the largest time: newest, never expired early', async () => {
    const { exporter } = await startStore(storeConfig(tmpDb()));
    const nowMs = Date.now();
    const nowNs = BigInt(nowMs) * NS_PER_MS;
    await exporter.consume(logs('default', 'far', [2n ** 63n + 5n, 2n ** 64n - 1n]), consumeContext());
    await exporter.consume(logs('default', 'now', [nowNs]), consumeContext());
    expect(await exporter.retain(nowMs)).toEqual({ logs: 0, traces: 0, metrics: 0 });
    const rows = (await exporter.read('default', parseQuery('logs', []))).rows.map((text) => JSON.parse(text) as Record<string, string>);
    expect(rows.map((r) => [r['body'], r['time_unix_nano']])).toEqual([
      ['far-1', '9223372036854775807'],
      ['far-0', '9223372036854775807'],
      ['now-0', String(nowNs)],
    ]);
  });

  it('keeps everything when a retention is "0", whatever the age of the rows', async () => {
    const { exporter, lines } = await startStore(storeConfig(tmpDb(), '    retention: {logs: "0", traces: "0", metrics: "0"}'));
    const nowMs = Date.now();
    const longAgo = BigInt(nowMs - 3650 * MS_PER_DAY) * NS_PER_MS;
    await exporter.consume(logs('default', 'log', [longAgo, 1n, longAgo + 1n]), consumeContext());
    await exporter.consume(spans('default', 'span', [longAgo, 1n]), consumeContext());
    await exporter.consume(points('default', 'point', [longAgo, 1n, BigInt(nowMs - 31 * MS_PER_DAY) * NS_PER_MS]), consumeContext());

    expect(await exporter.retain(nowMs)).toEqual({ logs: 0, traces: 0, metrics: 0 });
    expect((await names(exporter, 'default', 'logs')).sort()).toEqual(['log-0', 'log-1', 'log-2']);
    expect((await names(exporter, 'default', 'traces')).sort()).toEqual(['span-0', 'span-1']);
    expect((await names(exporter, 'default', 'metrics')).sort()).toEqual(['point-0', 'point-1', 'point-2']);
    expect(lines.filter((l) => l['msg'] === 'Retention pass done')).toHaveLength(2);
  });

  it('deletes 12,000 old log rows of 2 projects in chunks (one project exactly one chunk), keeping each project’s young row', async () => {
    const { exporter, lines } = await startStore(storeConfig(tmpDb()));
    const nowMs = Date.now();
    const old = BigInt(nowMs - 8 * MS_PER_DAY) * NS_PER_MS;
    const young = BigInt(nowMs - 6 * MS_PER_DAY) * NS_PER_MS;
    const spread = (count: number): bigint[] => Array.from({ length: count }, (_, i) => old - BigInt(i) * 1_000n);
    // 7,000 in project "alpha" (a full chunk of 5,000, then 2,000) and 5,000 in "beta" (exactly one full chunk).
    await exporter.consume(logs('alpha', 'alpha-old', spread(7_000)), consumeContext());
    await exporter.consume(logs('beta', 'beta-old', spread(5_000)), consumeContext());
    await exporter.consume(logs('alpha', 'alpha-new', [young]), consumeContext());
    await exporter.consume(logs('beta', 'beta-new', [young]), consumeContext());
    // Other signals have nothing old.
    await exporter.consume(spans('alpha', 'span-new', [young]), consumeContext());
    expect(await names(exporter, 'alpha', 'logs')).toHaveLength(7_001);
    expect(await names(exporter, 'beta', 'logs')).toHaveLength(5_001);

    expect(await exporter.retain(nowMs)).toEqual({ logs: 12_000, traces: 0, metrics: 0 });
    expect(await names(exporter, 'alpha', 'logs')).toEqual(['alpha-new-0']);
    expect(await names(exporter, 'beta', 'logs')).toEqual(['beta-new-0']);
    expect(await names(exporter, 'alpha', 'traces')).toEqual(['span-new-0']);
    const done = lines.filter((l) => l['msg'] === 'Retention pass done');
    expect(done.map((l) => l['deleted'])).toEqual([
      { logs: 0, traces: 0, metrics: 0 },
      { logs: 12_000, traces: 0, metrics: 0 },
    ]);
  });

  it('stops a pass under way at shutdown after its current chunk, and logs nothing once shutdown has begun', async () => {
    const { exporter, lines } = await startStore(storeConfig(tmpDb()));
    const nowMs = Date.now();
    const old = BigInt(nowMs - 8 * MS_PER_DAY) * NS_PER_MS;
    await exporter.consume(logs('alpha', 'alpha-old', Array.from({ length: 7_000 }, (_, i) => old - BigInt(i))), consumeContext());
    // The pass deletes its first chunk of 5,000 before it yields; shutdown stops it there.
    const pass = exporter.retain(nowMs);
    await exporter.shutdown();
    expect(await pass).toEqual({ logs: 5_000, traces: 0, metrics: 0 });
    // The one line is the start-up pass's.
    expect(lines.filter((l) => l['msg'] === 'Retention pass done')).toHaveLength(1);
    await expect(exporter.retain(nowMs)).rejects.toMatchObject({ code: 'SHUTTING_DOWN' });
  });
});

describe('store retention, through the CLI', () => {
  const gateways: Gateway[] = [];
  afterEach(async () => {
    for (const gw of gateways.splice(0)) if (gw.run.child.exitCode === null && gw.run.child.signalCode === null) await gw.stop();
  });

  it('a restarted otelgate’s start-up pass deletes the metric point dated 31 days ago and keeps the one dated 29 days ago', async () => {
    const db = tmpDb();
    const first = await startGateway({ config: STORE_CONFIG(db), projects: ['default'] });
    gateways.push(first);
    const key = first.keys['default'] as string;
    // Its own start-up pass is over before anything is sent, so both points are there to be read.
    expect((await first.run.waitFor('Retention pass done'))['deleted']).toEqual({ logs: 0, traces: 0, metrics: 0 });

    const nowMs = Date.now();
    const point = (name: string, days: number) => ({
      name,
      gauge: { dataPoints: [{ timeUnixNano: String(BigInt(nowMs - days * MS_PER_DAY) * NS_PER_MS), asInt: String(days) }] },
    });
    const body = { resourceMetrics: [{ scopeMetrics: [{ metrics: [point('aged.31d', 31), point('aged.29d', 29)] }] }] };
    const response = await fetch(`${first.url}/v1/metrics`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect([response.status, await response.text()]).toEqual([200, '{}']);
    for (const name of ['aged.31d', 'aged.29d']) {
      const read = await first.read('metrics', key, { name });
      expect(read.status).toBe(200);
      expect(read.body.rows?.map((r) => r['metric_name'])).toEqual([name]);
    }
    expect(await first.stop()).toBe(0);

    // The same db and the same keys file (the config function is handed a fresh one, which is not used).
    const second = await startGateway({ config: () => STORE_CONFIG(db)(first.keysFile), projects: ['unused'] });
    gateways.push(second);
    const pass = await second.run.waitFor('Retention pass done');
    expect(pass['deleted']).toEqual({ logs: 0, traces: 0, metrics: 1 });
    const gone = await second.read('metrics', key, { name: 'aged.31d' });
    expect([gone.status, gone.body.rows]).toEqual([200, []]);
    const kept = await second.read('metrics', key, { name: 'aged.29d' });
    expect(kept.status).toBe(200);
    expect(kept.body.rows).toHaveLength(1);
    expect(kept.body.rows?.[0]).toMatchObject({ metric_name: 'aged.29d', type: 'gauge', value: 29 });
    expect((await second.read('metrics', key, { limit: '10000' })).body.rows).toHaveLength(1);
    expect(await second.stop()).toBe(0);
  });
});
