// The filter processor on metric batches pushed in process: a metric that matches metrics.metric
// goes with all its points, a point that matches metrics.datapoint alone; the rows that go on are
// the rows that came, in their order; error_mode on a metric; the README's metric conditions.
import { describe, expect, it } from 'vitest';
import { PermanentError } from '../../../src/errors.js';
import { batchOf, type Batch } from '../../../src/model/batch.js';
import type { DataPointRow, Metric } from '../../../src/model/metrics.js';
import { readmeExample } from '../../helpers/processed.js';
import { processorPipeline } from '../../helpers/processors.js';
import { attrs, metricKindsBatch, RECEIVED } from '../../helpers/rows.js';

/** The filter in a metrics pipeline; what it hands on, as the rows themselves. */
async function filtered(settings: string, batch: Batch<'metrics'> = metricKindsBatch()): Promise<{ out: readonly DataPointRow[] | undefined; batches: number; lines: Record<string, unknown>[] }> {
  const { service, push, rec, lines } = processorPipeline('filter', settings, ['metrics']);
  await service.start();
  await push(batch);
  await service.shutdown();
  const batches = rec.batches.get('capture') ?? [];
  return { out: batches.at(-1)?.rows as readonly DataPointRow[] | undefined, batches: batches.length, lines };
}

const ROWS = metricKindsBatch().rows;
const names = (rows: readonly DataPointRow[] | undefined): string[] => (rows ?? []).map((r) => `${r.metric.name}${r.attributes['region'] === undefined ? '' : `/${String(r.attributes['region'])}`}`);

describe('the filter processor on metrics', () => {
  it('drops a metric that matches with all its points, and the points that match, handing on the others as they came', async () => {
    const batch = metricKindsBatch();
    const { out } = await filtered(
      `metrics:
  metric: ['name == "latency"', 'type == METRIC_DATA_TYPE_SUMMARY']
  datapoint: ['attributes["region"] == "us"', 'metric.name == "cpu" and value_double < 0.5']`,
      batch,
    );
    expect(out).toEqual([batch.rows[0], batch.rows[4]]);
    expect(out?.[0]).toBe(batch.rows[0]);
    expect(out?.[1]).toBe(batch.rows[4]);
    expect(batch.rows).toHaveLength(6);
  });

  it('hands on the batch itself when nothing matches, and nothing when everything does', async () => {
    const batch = metricKindsBatch();
    const { service, push, last, rec } = processorPipeline('filter', `metrics:\n  metric: ['name == "none"']\n  datapoint: ['flags == FLAG_NO_RECORDED_VALUE']`, ['metrics']);
    await service.start();
    await push(batch);
    expect(last()).toBe(batch);
    await push(batchOf('metrics', 'shop', RECEIVED, [batch.rows[2] as DataPointRow].map((row) => ({ ...row, flags: 1 }))));
    expect(rec.batches.get('capture')).toHaveLength(1);
    await service.shutdown();
  });

  it('reads the points of a metric with HasAttrOnDatapoint and HasAttrKeyOnDatapoint (the first point with the key decides)', async () => {
    expect(names((await filtered(`metrics:\n  metric: ['HasAttrKeyOnDatapoint("route")']`)).out)).toEqual(['orders/eu', 'orders/us', 'cpu', 'sizes', 'rpc']);
    expect(names((await filtered(`metrics:\n  metric: ['HasAttrOnDatapoint("region", "us")']`)).out)).toEqual(names(ROWS));
    expect(names((await filtered(`metrics:\n  metric: ['HasAttrOnDatapoint("region", "eu")']`)).out)).toEqual(['cpu', 'latency', 'sizes', 'rpc']);
  });

  it('drops the points of each Metric object, not of another metric of the same name', async () => {
    const base = ROWS[2] as DataPointRow;
    const other: Metric = { ...base.metric, unit: '%' };
    const rows = [base, { ...base, metric: other }, base];
    const { out } = await filtered(`metrics:\n  metric: ['name == "cpu" and unit == "1"']`, batchOf('metrics', 'shop', RECEIVED, rows));
    expect(out).toEqual([rows[1]]);
  });

  it('error_mode propagate refuses the batch naming the metric condition; ignore counts it as not matching', async () => {
    const condition = `metrics:\n  metric: ['ToLowerCase(metadata["owner"]) == "x"', 'name == "orders"']`;
    const { service, push } = processorPipeline('filter', condition, ['metrics']);
    await service.start();
    const refused = push(metricKindsBatch());
    await expect(refused).rejects.toThrow(PermanentError);
    await expect(refused).rejects.toThrow('filter filter: the condition "ToLowerCase(metadata[\\"owner\\"]) == \\"x\\"" could not be evaluated on a metric: ToLowerCase: expected string but got nil');
    await service.shutdown();
    const ignored = await filtered(`error_mode: ignore\n${condition}`);
    expect(names(ignored.out)).toEqual(['cpu', 'latency', 'sizes', 'rpc']);
    expect(ignored.lines.filter((l) => String(l['msg']).startsWith('A filter condition could not be evaluated')).map((l) => l['failures'])).toEqual([5]);
  });

  it('does what the metric conditions of the example in its README say', async () => {
    const point = ROWS[2] as DataPointRow;
    const queue: Metric = { ...point.metric, name: 'queue.depth' };
    const rows: DataPointRow[] = [
      ...ROWS,
      { ...point, metric: queue, attributes: attrs({ queue: 'test' }) },
      { ...point, metric: queue, attributes: attrs({ queue: 'orders' }) },
      { ...point, metric: { ...point.metric, name: 'gc.pauses' }, attributes: attrs({ debug: true }) },
    ];
    const { out } = await filtered(readmeExample('filter', 'filter/noise'), batchOf('metrics', 'shop', RECEIVED, rows));
    expect(out).toEqual([...ROWS.slice(0, 5), rows[7]]);
  });
});
