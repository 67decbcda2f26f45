// OTTL in the metric and data point contexts, with the results the Collector's ottlmetric and
// ottldatapoint paths give (nil for what a kind of metric or point does not have), the filter's
// HasAttrOnDatapoint / HasAttrKeyOnDatapoint, and statements that set a metric's and a point's
// fields: a metric changed is one new Metric for all its points, never the one that came.
import { describe, expect, it } from 'vitest';
import { withAttributes, type AnyValue } from '../../src/model/anyvalue.js';
import type { DataPointRow } from '../../src/model/metrics.js';
import { compileCondition, compileStatement } from '../../src/ottl/compile.js';
import { dataPointContext } from '../../src/ottl/contexts/datapoint.js';
import { newDraft } from '../../src/ottl/contexts/draft.js';
import { metricContext } from '../../src/ottl/contexts/metric.js';
import { metricStatementContexts, type MetricDraft } from '../../src/ottl/contexts/metric-setters.js';
import { OttlError } from '../../src/ottl/errors.js';
import { parseCondition, parseStatement } from '../../src/ottl/parser.js';
import { attrs, metricKindsBatch, T0 } from '../helpers/rows.js';

const ROWS = metricKindsBatch().rows;
const [EU, US, CPU, LATENCY, SIZES, RPC] = ROWS as [DataPointRow, DataPointRow, DataPointRow, DataPointRow, DataPointRow, DataPointRow];
/** Each metric's points, as the filter hands them to its metric conditions. */
const POINTS = new Map<string, DataPointRow[]>(['orders', 'cpu', 'latency', 'sizes', 'rpc'].map((name) => [name, ROWS.filter((r) => r.metric.name === name)]));

const onMetric = (text: string, name: string): boolean => {
  const points = POINTS.get(name) as DataPointRow[];
  return compileCondition(parseCondition(text), metricContext)({ row: points[0] as DataPointRow, points, project: 'shop' });
};
const onPoint = (text: string, row: DataPointRow): boolean => compileCondition(parseCondition(text), dataPointContext)({ row, project: 'shop' });

function compileError(compile: () => unknown): string {
  try {
    compile();
  } catch (error) {
    if (error instanceof OttlError) return error.message;
    throw error;
  }
  return 'compiled';
}

describe('OTTL conditions on a metric', () => {
  it.each([
    ['name == "orders"', 'orders', true],
    ['metric.name == "orders"', 'orders', true],
    ['description == "orders of the app" and unit == "1"', 'orders', true],
    ['type == METRIC_DATA_TYPE_SUM', 'orders', true],
    ['metric.type == METRIC_DATA_TYPE_GAUGE', 'cpu', true],
    ['type == METRIC_DATA_TYPE_HISTOGRAM', 'latency', true],
    ['type == METRIC_DATA_TYPE_EXPONENTIAL_HISTOGRAM', 'sizes', true],
    ['type == METRIC_DATA_TYPE_SUMMARY', 'rpc', true],
    ['type == 2', 'orders', true],
    ['aggregation_temporality == AGGREGATION_TEMPORALITY_CUMULATIVE', 'orders', true],
    ['aggregation_temporality == AGGREGATION_TEMPORALITY_DELTA', 'latency', true],
    // A gauge and a summary have no temporality, only a sum has monotonicity: nil, as the Collector's getters give.
    ['aggregation_temporality == nil', 'cpu', true],
    ['aggregation_temporality == nil', 'rpc', true],
    ['aggregation_temporality == AGGREGATION_TEMPORALITY_UNSPECIFIED', 'cpu', false],
    ['is_monotonic == true', 'orders', true],
    ['is_monotonic == nil', 'latency', true],
    ['metadata["owner"] == nil', 'orders', true],
    ['resource.attributes["service.name"] == "checkout"', 'orders', true],
    ['instrumentation_scope.name == "app.meter"', 'orders', true],
    ['project == "shop"', 'orders', true],
    // The first point that has the key decides: orders' eu point has no tier, its us point has 2 (not a string, so "").
    ['HasAttrKeyOnDatapoint("region")', 'orders', true],
    ['HasAttrKeyOnDatapoint("tier")', 'orders', true],
    ['HasAttrKeyOnDatapoint("region")', 'cpu', false],
    ['HasAttrOnDatapoint("region", "eu")', 'orders', true],
    ['HasAttrOnDatapoint("region", "us")', 'orders', false],
    ['HasAttrOnDatapoint("tier", "2")', 'orders', false],
    ['HasAttrOnDatapoint("tier", "")', 'orders', true],
  ] as const)('%s on %s is %s', (text, metric, expected) => {
    expect(onMetric(text, metric)).toBe(expected);
  });

  it('names the nearest path, refuses data_points and the data point enums with the reason', () => {
    const error = (text: string): string => compileError(() => compileCondition(parseCondition(text), metricContext));
    expect(error('nam == "x"')).toBe('column 1: nam is not a path of the metric context. Did you mean "name"?');
    expect(error('metric.unti == "x"')).toBe('column 1: metric.unti is not a path of the metric context. Did you mean "unit"?');
    expect(error('Len(data_points) > 1')).toBe(
      'column 5: data_points is not supported in otelgate: a metric\'s points are rows of their own (use the datapoint context, or HasAttrOnDatapoint / HasAttrKeyOnDatapoint in the filter\'s metric conditions)',
    );
    expect(error('attributes["a"] == "b"')).toBe('column 1: attributes["a"] is not a path of the metric context. Did you mean "resource.attributes"?');
    expect(error('HasAttrOnDatapoint("a")')).toBe('column 1: HasAttrOnDatapoint needs its expected_val (it takes key, expected_val)');
    expect(error('metric.name == "x" and FLAG_NONE == 0')).toMatch(/^column 24: FLAG_NONE is not an enum OTTL knows\./);
  });
});

describe('OTTL conditions on a data point', () => {
  it.each([
    ['attributes["region"] == "eu"', EU, true],
    ['datapoint.attributes["tier"] == nil', EU, true],
    ['metric.name == "orders" and metric.type == METRIC_DATA_TYPE_SUM', EU, true],
    ['value_int == 42', EU, true],
    // pdata's 0 for the value of the other type, nil on a point that has no value.
    ['value_double == 0.0', EU, true],
    ['value_double == 0.25 and value_int == 0', CPU, true],
    ['value_double == nil', LATENCY, true],
    ['start_time_unix_nano < time_unix_nano', EU, true],
    ['flags == FLAG_NONE', EU, true],
    ['flags == FLAG_NO_RECORDED_VALUE', EU, false],
    ['count == nil and sum == nil', EU, true],
    ['count == 6 and sum == 301.5', LATENCY, true],
    ['bucket_counts == [1, 3, 2]', LATENCY, true],
    ['explicit_bounds == [10.0, 100.0]', LATENCY, true],
    ['bucket_counts == nil and explicit_bounds == nil', SIZES, true],
    ['scale == nil and zero_count == nil', LATENCY, true],
    ['scale == 3 and zero_count == 1 and count == 5', SIZES, true],
    // An exponential histogram without a sum reads 0, as pdata's Sum().
    ['sum == 0.0', SIZES, true],
    ['positive.offset == -2 and positive.bucket_counts == [1, 2]', SIZES, true],
    ['datapoint.negative.offset == 0 and Len(negative.bucket_counts) == 1', SIZES, true],
    ['positive.offset == nil', LATENCY, true],
    ['Len(quantile_values) == 2 and sum == 10.0', RPC, true],
    ['quantile_values == nil', EU, true],
    ['Len(exemplars) == 1', EU, true],
    ['Len(exemplars) == 0', US, true],
    ['exemplars == nil', RPC, true],
    ['resource.attributes["host.name"] == "web-1" and scope.version == "1.2.0"', US, true],
    ['project == "shop"', US, true],
  ] as const)('%s is %s', (text, row, expected) => {
    expect(onPoint(text, row)).toBe(expected);
  });

  it('names the nearest path, and refuses the paths it does not read with the reason', () => {
    const error = (text: string): string => compileError(() => compileCondition(parseCondition(text), dataPointContext));
    expect(error('name == "orders"')).toBe('column 1: name is not a path of the datapoint context. Did you mean "metric.name"?');
    expect(error('atributes["a"] == 1')).toBe('column 1: atributes["a"] is not a path of the datapoint context. Did you mean "attributes"?');
    expect(error('positive == nil')).toBe('column 1: positive is not supported in otelgate: read datapoint.positive.offset and datapoint.positive.bucket_counts');
    expect(error('datapoint.time > Now()')).toBe('compiled');
    expect(error('count["a"] == 1')).toBe('column 7: count["a"]: count takes no keys');
    expect(error('HasAttrOnDatapoint("a", "b")')).toMatch(/^column 1: HasAttrOnDatapoint is not a converter otelgate has\./);
  });
});

/**
 * `statements` run in the transform's `context` on `row`, as the processor runs them; the row
 * after, and the batch's new metrics. The same on a copy of the row in an exclusive batch must
 * leave the same row, and mark a change made in place to its attributes.
 */
function run(statements: readonly string[], row: DataPointRow, context: 'datapoint' | 'metric' = 'datapoint'): { row: DataPointRow; metrics: number } {
  const ctx = metricStatementContexts[context];
  if (ctx === undefined) throw new Error(`no ${context} context`);
  const actions = statements.map((text) => compileStatement(parseStatement(text), ctx));
  const once = (start: DataPointRow, exclusive: boolean): MetricDraft => {
    const draft: MetricDraft = newDraft(start, 'shop', exclusive);
    for (const action of actions) action(draft);
    return draft;
  };
  const draft = once(row, false);
  const own = withAttributes(row.attributes);
  const exclusive = once({ ...row, attributes: own }, true);
  expect(exclusive.row).toEqual(draft.row);
  if (!exclusive.inPlace) expect({ ...own }).toEqual({ ...row.attributes });
  return { row: draft.row, metrics: draft.copies.metrics.size };
}

describe('OTTL statements on a metric and a data point', () => {
  it('sets the name and unit on one new Metric (the one that came stays), from either context', () => {
    for (const context of ['metric', 'datapoint'] as const) {
      const { row, metrics } = run(['set(metric.name, Concat([metric.name, "total"], "_"))', 'set(metric.unit, "{order}")', 'set(metric.metadata["owner"], "shop")'], EU, context);
      expect([row.metric.name, row.metric.unit, { ...row.metric.metadata }, metrics]).toEqual(['orders_total', '{order}', { owner: 'shop' }, 1]);
      expect([EU.metric.name, EU.metric.unit, { ...EU.metric.metadata }]).toEqual(['orders', '1', {}]);
      expect(row.metric).not.toBe(EU.metric);
    }
  });

  it('sets a data point attribute and value on a new row; a value of another type or kind changes nothing', () => {
    const { row } = run(['set(attributes["env"], "prod")', 'set(value_int, value_int * 2)', 'set(value_double, "x")', 'set(count, 3)', 'set(flags, FLAG_NO_RECORDED_VALUE)'], EU);
    expect(row).toEqual({ ...EU, attributes: attrs({ region: 'eu', env: 'prod' }), value: 84n, flags: 1 });
    expect(EU).toMatchObject({ attributes: attrs({ region: 'eu' }), value: 42n, flags: 0 });
    // value_double makes an int point a double one, as pdata's SetDoubleValue.
    expect(run(['set(value_double, 1.5)'], EU).row).toMatchObject({ value: 1.5 });
    expect(run(['set(count, 9)', 'set(sum, 12.5)', 'set(sum, 3)', 'set(value_int, 1)'], LATENCY).row).toMatchObject({ count: 9, sum: 12.5 });
    expect(run(['set(scale, 1)', 'set(zero_count, 0)', 'set(positive.offset, 4)'], SIZES).row).toMatchObject({ scale: 1, zeroCount: 0, positive: { offset: 4, bucketCounts: [1, 2] } });
  });

  it('leaves a row as it came when nothing changed: nil, and temporality or monotonicity where the metric has none', () => {
    const { row, metrics } = run(['set(metric.name, nil)', 'set(metric.aggregation_temporality, AGGREGATION_TEMPORALITY_DELTA)', 'set(metric.is_monotonic, true)'], CPU);
    expect([row, metrics]).toEqual([CPU, 0]);
    expect(run(['set(metric.aggregation_temporality, AGGREGATION_TEMPORALITY_DELTA)', 'set(metric.is_monotonic, false)'], EU).row.metric).toMatchObject({ temporality: 1, isMonotonic: false });
  });

  it('converts a sum to a gauge and back in the metric context, and refuses what it cannot set or does not have', () => {
    const gauge = run(['convert_sum_to_gauge()'], EU, 'metric').row.metric;
    expect([gauge.type, gauge.temporality, gauge.isMonotonic, EU.metric.type]).toEqual(['gauge', 0, false, 'sum']);
    expect(run(['convert_gauge_to_sum("delta", true)'], CPU, 'metric').row.metric).toMatchObject({ type: 'sum', temporality: 1, isMonotonic: true });
    expect(run(['convert_gauge_to_sum("cumulative", false)'], EU, 'metric').row).toBe(EU);
    const error = (text: string, context: 'datapoint' | 'metric'): string => compileError(() => run([text], EU, context));
    expect(error('convert_gauge_to_sum("weekly", false)', 'metric')).toBe('column 1: convert_gauge_to_sum: unknown aggregation temporality: weekly (delta or cumulative)');
    expect(error('convert_sum_to_gauge()', 'datapoint')).toBe('column 1: convert_sum_to_gauge runs in the metric context: use metric paths (metric.name) in the statement, or give its group context: metric');
    expect(error('extract_sum_metric(true)', 'metric')).toBe('column 1: extract_sum_metric is one of the Collector\'s metric editors that otelgate does not have yet');
    expect(error('set(metric.type, METRIC_DATA_TYPE_GAUGE)', 'metric')).toBe('column 5: metric.type cannot be set in the metric context');
    expect(error('set(bucket_counts, [1])', 'datapoint')).toBe('column 5: bucket_counts cannot be set in the datapoint context');
    expect(error('set(project, "x")', 'datapoint')).toBe('column 5: project cannot be set in the datapoint context');
  });
});

describe('the values the contexts give', () => {
  it('gives exemplars and quantiles as lists of maps, which take no keys (the Collector\'s are pdata slices)', () => {
    const value = (text: string, row: DataPointRow): AnyValue => run([`set(attributes["out"], ${text})`], row).row.attributes['out'] ?? null;
    expect(compileError(() => value('exemplars[0]', EU))).toBe('column 34: exemplars[0]: exemplars takes no keys');
    expect(value('exemplars', EU)).toEqual([attrs({ time_unix_nano: T0 + 1n, value: 3n, filtered_attributes: attrs({}), trace_id: '5b8efff798038103d269b633813fc60c', span_id: 'eee19b7ec3c1b174' })]);
    expect(value('quantile_values', RPC)).toEqual([attrs({ quantile: 0.5, value: 2 }), attrs({ quantile: 0.99, value: 4 })]);
  });
});
