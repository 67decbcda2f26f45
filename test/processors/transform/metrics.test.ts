// The transform processor on metric batches pushed in process: metric statements run once per
// metric and give all its points one new Metric; data point statements make new rows; contexts
// inferred from paths and functions; the batch that came never changes; the README's metric
// statements.
import { describe, expect, it } from 'vitest';
import { batchOf, type Batch } from '../../../src/model/batch.js';
import type { DataPointRow, Metric } from '../../../src/model/metrics.js';
import { readmeExample } from '../../helpers/processed.js';
import { processorPipeline, processorProblems } from '../../helpers/processors.js';
import { attrs, metricKindsBatch, RECEIVED } from '../../helpers/rows.js';

async function run(settings: string, batch: Batch<'metrics'> = metricKindsBatch()): Promise<{ out: readonly DataPointRow[]; batch: Batch<'metrics'>; lines: Record<string, unknown>[] }> {
  const { service, push, last, lines } = processorPipeline('transform', settings, ['metrics']);
  await service.start();
  await push(batch);
  await service.shutdown();
  return { out: last()?.rows as readonly DataPointRow[], batch, lines };
}

const problems = (settings: string): string[] => processorProblems('transform', settings);

describe('the transform processor on metrics', () => {
  it('sets a metric\'s name and unit on one new Metric its points share, and a point\'s attribute on new rows; the batch that came stays', async () => {
    const { out, batch } = await run(`metric_statements:
  - set(metric.name, "orders.placed") where metric.name == "orders"
  - set(metric.unit, "{order}") where metric.name == "orders.placed"
  - set(datapoint.attributes["env"], "prod") where metric.type == METRIC_DATA_TYPE_SUM`);
    const [eu, us, ...rest] = out;
    const renamed: Metric = { ...(batch.rows[0] as DataPointRow).metric, name: 'orders.placed', unit: '{order}' };
    expect(eu).toEqual({ ...batch.rows[0], metric: renamed, attributes: attrs({ region: 'eu', env: 'prod' }) });
    expect(us).toEqual({ ...batch.rows[1], metric: renamed, attributes: attrs({ region: 'us', tier: 2n, env: 'prod' }) });
    expect(eu?.metric).toBe(us?.metric);
    // The other metrics' points are the rows that came.
    rest.forEach((row, i) => expect(row).toBe(batch.rows[i + 2]));
    expect(batch.rows.map((r) => [r.metric.name, r.metric.unit])).toEqual([['orders', '1'], ['orders', '1'], ['cpu', '1'], ['latency', 'ms'], ['sizes', '1'], ['rpc', '1']]);
    expect((batch.rows[0] as DataPointRow).attributes).toEqual(attrs({ region: 'eu' }));
  });

  it('runs a metric\'s statements once per metric, and a later group sees what they changed', async () => {
    const { out } = await run(`metric_statements:
  - context: metric
    statements: ['set(metadata["seen"], Concat([name, "x"], "-"))', 'set(description, "counted")']
  - context: datapoint
    conditions: ['metric.description == "counted"']
    statements: ['set(attributes["metric"], metric.metadata["seen"])']`);
    expect(out.map((r) => [r.metric.metadata['seen'], r.attributes['metric']])).toEqual([
      ['orders-x', 'orders-x'],
      ['orders-x', 'orders-x'],
      ['cpu-x', 'cpu-x'],
      ['latency-x', 'latency-x'],
      ['sizes-x', 'sizes-x'],
      ['rpc-x', 'rpc-x'],
    ]);
    expect(new Set(out.map((r) => r.metric)).size).toBe(5);
  });

  it('converts a sum to a gauge and a gauge to a sum for all the points of the metric, inferring the metric context', async () => {
    const { out, batch } = await run(`metric_statements:
  - convert_sum_to_gauge() where name == "orders"
  - convert_gauge_to_sum("delta", false) where metric.name == "cpu"
  - set(datapoint.value_double, datapoint.value_double * 100.0) where metric.type == METRIC_DATA_TYPE_SUM`);
    expect(out.slice(0, 3).map((r) => [r.metric.name, r.metric.type, r.metric.temporality, r.metric.isMonotonic, r.kind === 'number' ? r.value : undefined])).toEqual([
      ['orders', 'gauge', 0, false, 42n],
      ['orders', 'gauge', 0, false, 7n],
      ['cpu', 'sum', 1, false, 25],
    ]);
    expect(out[0]?.metric).toBe(out[1]?.metric);
    expect((batch.rows[0] as DataPointRow).metric.type).toBe('sum');
  });

  it('hands on the batch itself when no statement changes a row', async () => {
    const batch = metricKindsBatch();
    const { out } = await run(`metric_statements: ['set(metric.unit, "x") where metric.name == "none"', 'set(attributes["k"], nil)']`, batch);
    expect(out).toBe(batch.rows);
  });

  it('names the statements that do not compile: paths, contexts and the Collector\'s editors it does not have', () => {
    expect(problems(`metric_statements:
  - set(name, "x")
  - extract_sum_metric(true) where metric.name == "latency"
  - context: datapoint
    statements: ['convert_sum_to_gauge()']
  - context: metric
    statements: ['set(attributes["a"], 1)', 'set(type, METRIC_DATA_TYPE_GAUGE)']`)).toEqual([
      'processors.transform.metric_statements[0]: "set(name, \\"x\\")", column 5: name cannot be set in the datapoint context: it is not one of its paths',
      'processors.transform.metric_statements[1]: "extract_sum_metric(true) where metric.name == \\"latency\\"", column 1: extract_sum_metric is one of the Collector\'s metric editors that otelgate does not have yet',
      'processors.transform.metric_statements[2].statements[0]: "convert_sum_to_gauge()", column 1: convert_sum_to_gauge runs in the metric context: use metric paths (metric.name) in the statement, or give its group context: metric',
      'processors.transform.metric_statements[3].statements[0]: "set(attributes[\\"a\\"], 1)", column 5: attributes["a"] cannot be set in the metric context: it is not one of its paths',
      'processors.transform.metric_statements[3].statements[1]: "set(type, METRIC_DATA_TYPE_GAUGE)", column 5: type cannot be set in the metric context',
    ]);
  });

  it('does what the metric statements of the example in its README say', async () => {
    const point = metricKindsBatch().rows[2] as DataPointRow;
    const memory: Metric = { ...point.metric, name: 'process.memory.usage', type: 'sum', temporality: 2 };
    const rows: DataPointRow[] = [
      { ...point, metric: { ...point.metric, name: 'job.duration', unit: '' }, attributes: attrs({ 'pod.uid': 'a1', job: 'nightly' }) },
      { ...point, metric: memory, attributes: attrs({ 'pod.uid': 'a1' }) },
      { ...point, metric: memory, attributes: attrs({ 'pod.uid': 'b2' }) },
    ];
    const { out } = await run(readmeExample('transform', 'transform/tidy'), batchOf('metrics', 'shop', RECEIVED, rows));
    expect(out.map((r) => [r.metric.name, r.metric.unit, r.metric.type, { ...r.attributes }])).toEqual([
      ['job.duration', 's', 'gauge', { job: 'nightly' }],
      ['process.memory.usage', '1', 'gauge', {}],
      ['process.memory.usage', '1', 'gauge', {}],
    ]);
  });
});
