// The filter and transform processors on metrics in a pipeline of the built otelgate, over real
// HTTP, with a store behind them, and a second pipeline fed by the same receiver without them: the
// first store holds exactly the points the conditions leave, as the statements changed them, the
// second exactly what was sent. The client is answered as if nothing had been dropped, and the
// dropped points are counted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sample } from '../../helpers/forwarder.js';
import { startGateway, type Gateway } from '../../helpers/gateway.js';
import { ALL, postJson, processedAndRaw, storedRaw } from '../../helpers/processed.js';

const config = processedAndRaw(
  `filter/metrics:
  error_mode: ignore
  metrics:
    metric: ['type == METRIC_DATA_TYPE_SUMMARY', 'HasAttrKeyOnDatapoint("debug")']
    datapoint: ['attributes["http.route"] == "/health"']
transform/metrics:
  metric_statements:
    - set(metric.unit, "{request}") where metric.name == "http.requests"
    - convert_sum_to_gauge() where metric.name == "process.memory.usage"
    - set(datapoint.attributes["env"], "prod")`,
  ['filter/metrics', 'transform/metrics'],
  ['metrics'],
  'telemetry: {metrics: {readers: [{pull: {exporter: {prometheus: {host: 127.0.0.1, port: 0}}}}]}}',
);

const T = 1_763_800_000_000_000_000n;
const point = (i: number, value: Record<string, unknown>, attributes: Record<string, string | boolean> = {}) => ({
  startTimeUnixNano: String(T),
  timeUnixNano: String(T + BigInt(i)),
  ...value,
  attributes: Object.entries(attributes).map(([key, v]) => ({ key, value: typeof v === 'boolean' ? { boolValue: v } : { stringValue: v } })),
});

const METRICS = JSON.stringify({
  resourceMetrics: [
    {
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'shop' } }] },
      scopeMetrics: [
        {
          scope: { name: 'app.meter' },
          metrics: [
            { name: 'http.requests', unit: '1', sum: { aggregationTemporality: 2, isMonotonic: true, dataPoints: [point(1, { asInt: '5' }, { 'http.route': '/cart' }), point(2, { asInt: '3' }, { 'http.route': '/health' })] } },
            { name: 'process.memory.usage', unit: 'By', sum: { aggregationTemporality: 2, isMonotonic: false, dataPoints: [point(3, { asDouble: 1024 })] } },
            { name: 'rpc.duration', unit: 's', summary: { dataPoints: [point(4, { count: '2', sum: 3, quantileValues: [{ quantile: 0.5, value: 1 }] })] } },
            { name: 'debug.counter', unit: '1', gauge: { dataPoints: [point(5, { asInt: '1' }, { debug: true })] } },
          ],
        },
      ],
    },
  ],
});

let gateway: Gateway;

beforeAll(async () => {
  gateway = await startGateway({ projects: ['shop'], config });
});

afterAll(async () => {
  await gateway?.stop();
});

/** A stored point as [name, unit, type, value, attributes], oldest first. */
const shape = (rows: Record<string, unknown>[]): unknown[][] =>
  rows.map((r) => [r['metric_name'], r['unit'], r['type'], r['value'] ?? r['count'], r['attributes'], r['time_unix_nano']]).sort((a, b) => String(a[5]).localeCompare(String(b[5]))).map((r) => r.slice(0, 5));

describe('the filter and transform processors on metrics in a pipeline', () => {
  it('store what the conditions leave as the statements changed it, while the other pipeline stores everything; answer {} and count the drops', async () => {
    expect(await postJson(gateway, '/v1/metrics', 'shop', METRICS)).toEqual([200, '{}']);

    expect(shape((await gateway.read('metrics', gateway.keys['shop'], ALL)).body.rows ?? [])).toEqual([
      ['http.requests', '{request}', 'sum', 5, { 'http.route': '/cart', env: 'prod' }],
      ['process.memory.usage', 'By', 'gauge', 1024, { env: 'prod' }],
    ]);
    expect(shape(storedRaw(gateway, 'metrics', 'shop'))).toEqual([
      ['http.requests', '1', 'sum', 5, { 'http.route': '/cart' }],
      ['http.requests', '1', 'sum', 3, { 'http.route': '/health' }],
      ['process.memory.usage', 'By', 'sum', 1024, {}],
      ['rpc.duration', 's', 'summary', 2, {}],
      ['debug.counter', '1', 'gauge', 1, { debug: true }],
    ]);

    const metricsAt = gateway.run.lines.find((l) => l.msg === 'Serving metrics')?.['endpoint'];
    const lines = (await (await fetch(`http://${String(metricsAt)}/metrics`)).text()).split('\n');
    expect(sample(lines, 'otelcol_processor_filter_datapoints_filtered_total', 'filter="filter/metrics"')).toBe(3);
  });
});
