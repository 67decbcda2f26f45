// The probabilistic_sampler processor in a pipeline of the built otelgate, over real HTTP, with a
// store behind it, and a second pipeline fed by the same receiver without it: the first store
// holds exactly the records and spans the Collector would keep (its count for these trace ids is
// 45 of 99 at 50 percent), with their sampling values, the second everything as it came. The
// client is answered as if nothing had been dropped, and every decision is counted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogRow } from '../../../src/model/logs.js';
import { sampleLogs } from '../../../src/processors/probabilistic_sampler/logs.js';
import { makeSampler, Report } from '../../../src/processors/probabilistic_sampler/sampler.js';
import { sample } from '../../helpers/forwarder.js';
import { startGateway, type Gateway } from '../../helpers/gateway.js';
import { ALL, postJson, processedAndRaw, storedRaw } from '../../helpers/processed.js';
import { attrs, logRow } from '../../helpers/rows.js';

const config = processedAndRaw(
  'probabilistic_sampler/half:\n  sampling_percentage: 50',
  ['probabilistic_sampler/half'],
  ['logs', 'traces'],
  'telemetry: {metrics: {readers: [{pull: {exporter: {prometheus: {host: 127.0.0.1, port: 0}}}}]}}',
);

/** The trace ids of the Collector's TestLogsSampling (8 zero bytes, then 8 times i), i = 1…99. */
const TRACE_IDS = Array.from({ length: 99 }, (_, k) => `${'00'.repeat(8)}${(k + 1).toString(16).padStart(2, '0').repeat(8)}`);

/** What the sampler keeps of them, decided in process (the decisions are checked against the Collector's in collector.test.ts). */
function keptInProcess(): string[] {
  const rows: LogRow[] = TRACE_IDS.map((traceId) => ({ ...logRow(0), traceId, attributes: attrs({}) }));
  const sampler = makeSampler({ percent: 50, mode: 'hash_seed', hashSeed: 0, precision: 4, attributeSource: 'traceID', fromAttribute: '' });
  return sampleLogs(rows, { sampler, failClosed: true, priorityAttribute: '', precision: 4 }, new Report()).map((row) => row.traceId);
}

const T0 = 1_763_800_000_000_000_000n;

function otlpLogs(): string {
  const logRecords = TRACE_IDS.map((traceId, i) => ({ timeUnixNano: String(T0 + BigInt(i)), body: { stringValue: `record ${i}` }, traceId, spanId: 'eee19b7ec3c1b174' }));
  return JSON.stringify({ resourceLogs: [{ resource: { attributes: [] }, scopeLogs: [{ scope: {}, logRecords }] }] });
}

function otlpSpans(): string {
  const spans = TRACE_IDS.map((traceId, i) => ({ traceId, spanId: 'eee19b7ec3c1b174', name: `span ${i}`, kind: 2, startTimeUnixNano: String(T0), endTimeUnixNano: String(T0 + 1_000_000n) }));
  return JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: {}, spans }] }] });
}

let gateway: Gateway;

beforeAll(async () => {
  gateway = await startGateway({ projects: ['shop'], config });
});

afterAll(async () => {
  await gateway?.stop();
});

async function metric(name: string, ...labels: string[]): Promise<number | undefined> {
  const metricsAt = gateway.run.lines.find((l) => l.msg === 'Serving metrics')?.['endpoint'];
  const lines = (await (await fetch(`http://${String(metricsAt)}/metrics`)).text()).split('\n');
  return sample(lines, name, ...labels);
}

describe('the probabilistic_sampler processor in a pipeline', () => {
  const expected = keptInProcess();

  it('stores the log records the Collector would keep, with sampling.randomness and sampling.threshold, while the other pipeline stores all 99; answers {} and counts', async () => {
    expect(expected).toHaveLength(45);
    expect(await postJson(gateway, '/v1/logs', 'shop', otlpLogs())).toEqual([200, '{}']);
    const rows = (await gateway.read('logs', gateway.keys['shop'], ALL)).body.rows ?? [];
    expect(rows.map((row) => String(row['trace_id'])).sort()).toEqual([...expected].sort());
    for (const row of rows) expect(Object.keys(row['attributes'] as object).sort()).toEqual(['sampling.randomness', 'sampling.threshold']);
    expect(rows.map((row) => (row['attributes'] as Record<string, string>)['sampling.threshold'])).toEqual(expected.map(() => '8'));
    const raw = storedRaw(gateway, 'logs', 'shop');
    expect(raw.map((row) => String(row['trace_id'])).sort()).toEqual([...TRACE_IDS].sort());
    expect(raw.every((row) => Object.keys(row['attributes'] as object).length === 0)).toBe(true);
    const counted = 'processor="probabilistic_sampler/half"';
    expect(await metric('otelcol_processor_probabilistic_sampler_count_logs_sampled_total', counted, 'sampled="true"', 'policy="trace_id_hash"')).toBe(45);
    expect(await metric('otelcol_processor_probabilistic_sampler_count_logs_sampled_total', counted, 'sampled="false"', 'policy="trace_id_hash"')).toBe(54);
  });

  it('stores the spans of the same trace ids, each with ot=rv and th in its tracestate, while the other pipeline stores them all as they came', async () => {
    expect(await postJson(gateway, '/v1/traces', 'shop', otlpSpans())).toEqual([200, '{}']);
    const rows = (await gateway.read('spans', gateway.keys['shop'], ALL)).body.rows ?? [];
    expect(rows.map((row) => String(row['trace_id'])).sort()).toEqual([...expected].sort());
    for (const row of rows) expect(row['trace_state']).toMatch(/^ot=rv:[0-9a-f]{14};th:8$/);
    const raw = storedRaw(gateway, 'spans', 'shop');
    expect(raw).toHaveLength(TRACE_IDS.length);
    expect(raw.every((row) => row['trace_state'] === '')).toBe(true);
    expect(await metric('otelcol_processor_probabilistic_sampler_count_traces_sampled_total', 'sampled="false"')).toBe(54);
  });
});
