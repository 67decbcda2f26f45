// Golden cases of the JSON metrics reader, one rule each: the row a data point written this way
// becomes, in JSON and, where protobuf can say the same, in its protobuf twin.
import { describe, expect, it } from 'vitest';
import type { DataPointRow, Metric } from '../../../src/model/metrics.js';
import { decodeOtlp } from '../../../src/otlp/decode.js';
import { RecordBudget, TooManyRecords } from '../../../src/otlp/result.js';
import { otlpJsonToProtobuf } from '../../helpers/otlp.js';
import { referenceDecodeMetricsJson } from './reference-metrics.js';

const exportOf = (metrics: string): Buffer => Buffer.from(`{"resourceMetrics":[{"scopeMetrics":[{"metrics":[${metrics}]}]}]}`);
const fromJson = (metric: string, budget?: RecordBudget) => decodeOtlp('metrics', 'json', exportOf(metric), budget);
const fromProtobuf = (metric: object) => decodeOtlp('metrics', 'protobuf', otlpJsonToProtobuf('metrics', { resourceMetrics: [{ scopeMetrics: [{ metrics: [metric] }] }] }));
const only = (decoded: { rows: DataPointRow[]; skipped: number }): DataPointRow => {
  expect([decoded.rows.length, decoded.skipped]).toEqual([1, 0]);
  return decoded.rows[0] as DataPointRow;
};
const gauge = (point: string) => `{"gauge":{"dataPoints":[${point}]}}`;
const gaugeTwin = (point: object) => ({ gauge: { dataPoints: [point] } });
const histogram = (point: string) => `{"histogram":{"dataPoints":[${point}]}}`;
const histogramTwin = (point: object) => ({ histogram: { dataPoints: [point] } });
const ID = { traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b174' };

describe('the JSON metrics reader: each rule, in JSON and protobuf', () => {
  // [rule, JSON metric, the same metric for protobufjs, what the row holds, what its metric holds]
  const cases: [string, string, object, Partial<Record<string, unknown>>, Partial<Metric>][] = [
    ['an asInt beyond 2^53 as a number, exactly', gauge('{"timeUnixNano":"1","asInt":9007199254740993}'), gaugeTwin({ timeUnixNano: '1', asInt: '9007199254740993' }), { value: 9007199254740993n }, {}],
    ['the int64 extremes as numbers', gauge('{"timeUnixNano":"1","asInt":-9223372036854775808,"exemplars":[{"asInt":9223372036854775807}]}'), gaugeTwin({ timeUnixNano: '1', asInt: '-9223372036854775808', exemplars: [{ asInt: '9223372036854775807' }] }), { value: -(2n ** 63n), exemplars: [expect.objectContaining({ value: 2n ** 63n - 1n })] }, {}],
    ['times as big numbers, exactly', gauge('{"startTimeUnixNano":1700000300123456789,"timeUnixNano":18446744073709551615}'), gaugeTwin({ startTimeUnixNano: '1700000300123456789', timeUnixNano: '18446744073709551615' }), { startTimeUnixNano: 1700000300123456789n, timeUnixNano: 18446744073709551615n, value: 0 }, {}],
    ['a count and bucket counts as numbers and strings', histogram('{"timeUnixNano":"1","count":10,"bucketCounts":["1",2,"3",4],"explicitBounds":[1,2.5,"3"]}'), histogramTwin({ timeUnixNano: '1', count: '10', bucketCounts: ['1', '2', '3', '4'], explicitBounds: [1, 2.5, 3] }), { count: 10, bucketCounts: [1, 2, 3, 4], explicitBounds: [1, 2.5, 3], sum: undefined }, {}],
    ['exponent notation for integer fields', gauge('{"timeUnixNano":17e17,"startTimeUnixNano":"1.5e3","asInt":-2E2,"flags":1e1}'), gaugeTwin({ timeUnixNano: '1700000000000000000', startTimeUnixNano: '1500', asInt: '-200', flags: 10 }), { timeUnixNano: 1700000000000000000n, startTimeUnixNano: 1500n, value: -200n, flags: 10 }, {}],
    ['a temporality by name', '{"sum":{"aggregationTemporality":"AGGREGATION_TEMPORALITY_CUMULATIVE","isMonotonic":true,"dataPoints":[{"timeUnixNano":"1","asDouble":2}]}}', { sum: { aggregationTemporality: 2, isMonotonic: true, dataPoints: [{ timeUnixNano: '1', asDouble: 2 }] } }, { value: 2 }, { type: 'sum', temporality: 2, isMonotonic: true }],
    ['a temporality by number, and in a string', '{"histogram":{"aggregationTemporality":"1","dataPoints":[{"timeUnixNano":"1"}]}}', { histogram: { aggregationTemporality: 1, dataPoints: [{ timeUnixNano: '1' }] } }, { count: 0 }, { type: 'histogram', temporality: 1 }],
    ['a temporality sent after the points', '{"sum":{"dataPoints":[{"timeUnixNano":"1","asInt":"3"}],"isMonotonic":true,"aggregationTemporality":"AGGREGATION_TEMPORALITY_DELTA"},"name":"late"}', { name: 'late', sum: { aggregationTemporality: 1, isMonotonic: true, dataPoints: [{ timeUnixNano: '1', asInt: '3' }] } }, { value: 3n }, { name: 'late', temporality: 1, isMonotonic: true }],
    ['"Infinity" bounds and other doubles as strings', histogram('{"timeUnixNano":"1","bucketCounts":[1,2,3,4,5],"explicitBounds":["-Infinity",0,"1e-3","Infinity"],"sum":"2.5","min":"-Infinity","max":"NaN"}'), histogramTwin({ timeUnixNano: '1', bucketCounts: ['1', '2', '3', '4', '5'], explicitBounds: [-Infinity, 0, 0.001, Infinity], sum: 2.5, min: -Infinity, max: Number.NaN }), { explicitBounds: [-Infinity, 0, 0.001, Infinity], sum: 2.5, min: -Infinity, max: Number.NaN }, {}],
    ['an exemplar whose value is NaN: kept, only a point’s own value is checked', gauge('{"timeUnixNano":"1","asDouble":1,"exemplars":[{"asDouble":"NaN"}]}'), gaugeTwin({ timeUnixNano: '1', asDouble: 1, exemplars: [{ asDouble: Number.NaN }] }), { exemplars: [expect.objectContaining({ value: Number.NaN })] }, {}],
    [
      'an exponential histogram’s buckets',
      '{"exponentialHistogram":{"aggregationTemporality":2,"dataPoints":[{"timeUnixNano":"1","count":"7","sum":2.5,"scale":-3,"zeroCount":1,"zeroThreshold":1e-9,"positive":{"offset":-2,"bucketCounts":["1",2]},"negative":{"offset":5,"bucket_counts":[3]},"min":0.5,"max":"10"}]}}',
      { exponentialHistogram: { aggregationTemporality: 2, dataPoints: [{ timeUnixNano: '1', count: '7', sum: 2.5, scale: -3, zeroCount: '1', zeroThreshold: 1e-9, positive: { offset: -2, bucketCounts: ['1', '2'] }, negative: { offset: 5, bucketCounts: ['3'] }, min: 0.5, max: 10 }] } },
      { kind: 'exponential_histogram', count: 7, sum: 2.5, scale: -3, zeroCount: 1, zeroThreshold: 1e-9, positive: { offset: -2, bucketCounts: [1, 2] }, negative: { offset: 5, bucketCounts: [3] }, min: 0.5, max: 10 },
      { type: 'exponential_histogram', temporality: 2 },
    ],
    ['an exponential histogram without buckets', '{"exponential_histogram":{"dataPoints":[{"timeUnixNano":"1","positive":null}]}}', { exponentialHistogram: { dataPoints: [{ timeUnixNano: '1' }] } }, { positive: { offset: 0, bucketCounts: [] }, negative: { offset: 0, bucketCounts: [] }, sum: undefined }, {}],
    [
      'a summary’s quantiles',
      '{"summary":{"dataPoints":[{"timeUnixNano":"1","count":"3","sum":"6","quantileValues":[{"quantile":0.5,"value":2},{"quantile":"1","value":"3"},{}]}]}}',
      { summary: { dataPoints: [{ timeUnixNano: '1', count: '3', sum: 6, quantileValues: [{ quantile: 0.5, value: 2 }, { quantile: 1, value: 3 }, {}] }] } },
      { kind: 'summary', count: 3, sum: 6, quantiles: [{ quantile: 0.5, value: 2 }, { quantile: 1, value: 3 }, { quantile: 0, value: 0 }], exemplars: [] },
      { type: 'summary', temporality: 0 },
    ],
    [
      'exemplars with asInt and ids in any case',
      gauge('{"timeUnixNano":"1","asDouble":1,"exemplars":[{"timeUnixNano":"5","asInt":"9007199254740993","spanId":"EEE19B7EC3C1B174","traceId":"5b8eFFF798038103d269b633813fc60c","filteredAttributes":[{"key":"k","value":{"stringValue":"v"}}]},{"asDouble":0.5}]}'),
      gaugeTwin({ timeUnixNano: '1', asDouble: 1, exemplars: [{ timeUnixNano: '5', asInt: '9007199254740993', ...ID, filteredAttributes: [{ key: 'k', value: { stringValue: 'v' } }] }, { asDouble: 0.5 }] }),
      { exemplars: [{ timeUnixNano: 5n, value: 9007199254740993n, filteredAttributes: expect.objectContaining({ k: 'v' }), ...ID }, expect.objectContaining({ value: 0.5, traceId: '', spanId: '' })] },
      {},
    ],
    [
      'snake_case names',
      '{"name":"n","sum":{"aggregation_temporality":1,"is_monotonic":true,"data_points":[{"start_time_unix_nano":"1","time_unix_nano":"2","as_int":"3","exemplars":[{"time_unix_nano":"4","as_double":5,"span_id":"eee19b7ec3c1b174","trace_id":"5b8efff798038103d269b633813fc60c","filtered_attributes":[{"key":"a","value":{"bool_value":true}}]}]}]}}',
      { name: 'n', sum: { aggregationTemporality: 1, isMonotonic: true, dataPoints: [{ startTimeUnixNano: '1', timeUnixNano: '2', asInt: '3', exemplars: [{ timeUnixNano: '4', asDouble: 5, ...ID, filteredAttributes: [{ key: 'a', value: { boolValue: true } }] }] }] } },
      { startTimeUnixNano: 1n, timeUnixNano: 2n, value: 3n },
      { name: 'n', temporality: 1, isMonotonic: true },
    ],
    ['snake_case names of histograms and summaries', histogram('{"time_unix_nano":"2","bucket_counts":["1","2"],"explicit_bounds":[5]}'), histogramTwin({ timeUnixNano: '2', bucketCounts: ['1', '2'], explicitBounds: [5] }), { bucketCounts: [1, 2], explicitBounds: [5] }, {}],
    ['snake_case names of exponential histograms', '{"exponential_histogram":{"data_points":[{"time_unix_nano":"2","zero_count":"4","zero_threshold":0.25}]}}', { exponentialHistogram: { dataPoints: [{ timeUnixNano: '2', zeroCount: '4', zeroThreshold: 0.25 }] } }, { zeroCount: 4, zeroThreshold: 0.25 }, {}],
    ['snake_case quantile values', '{"summary":{"data_points":[{"time_unix_nano":"2","quantile_values":[{"quantile":0.9,"value":7}]}]}}', { summary: { dataPoints: [{ timeUnixNano: '2', quantileValues: [{ quantile: 0.9, value: 7 }] }] } }, { quantiles: [{ quantile: 0.9, value: 7 }] }, {}],
    [
      'null as the default of every field',
      '{"name":null,"description":null,"unit":null,"metadata":null,"sum":{"aggregationTemporality":null,"isMonotonic":null,"dataPoints":[{"timeUnixNano":"1","startTimeUnixNano":null,"attributes":null,"flags":null,"exemplars":null,"asInt":null,"asDouble":null}]}}',
      { sum: { dataPoints: [{ timeUnixNano: '1' }] } },
      { startTimeUnixNano: 0n, flags: 0, exemplars: [], value: 0 },
      { name: '', description: '', unit: '', temporality: 0, isMonotonic: false },
    ],
    ['null as the default of every histogram field', histogram('{"timeUnixNano":"1","count":null,"sum":null,"min":null,"max":null,"bucketCounts":null,"explicitBounds":null}'), histogramTwin({ timeUnixNano: '1' }), { count: 0, sum: undefined, min: undefined, max: undefined, bucketCounts: [], explicitBounds: [] }, {}],
    ['null as the default of a summary’s fields', '{"summary":{"dataPoints":[{"timeUnixNano":"1","count":null,"sum":null,"quantileValues":[{"quantile":null,"value":null}]}]}}', { summary: { dataPoints: [{ timeUnixNano: '1', quantileValues: [{}] }] } }, { count: 0, sum: 0, quantiles: [{ quantile: 0, value: 0 }] }, {}],
    ['a null lowerCamelCase name yields to its snake_case twin', gauge('{"timeUnixNano":null,"time_unix_nano":"7","asInt":null,"as_int":"8"}'), gaugeTwin({ timeUnixNano: '7', asInt: '8' }), { timeUnixNano: 7n, value: 8n }, {}],
    ['a null kind yields to another', '{"gauge":null,"exponentialHistogram":null,"exponential_histogram":{"dataPoints":[{"timeUnixNano":"1","scale":2}]}}', { exponentialHistogram: { dataPoints: [{ timeUnixNano: '1', scale: 2 }] } }, { scale: 2 }, { type: 'exponential_histogram' }],
    ['duplicates inside a point: the last wins, as JSON.parse', gauge('{"timeUnixNano":"1","asDouble":1.5,"timeUnixNano":"2","asDouble":"bad","attributes":[{"key":"a","value":{"intValue":"1"}}],"asDouble":2.5,"attributes":[]}'), gaugeTwin({ timeUnixNano: '2', asDouble: 2.5 }), { timeUnixNano: 2n, value: 2.5, attributes: {} }, {}],
    ['duplicates inside an exemplar and its buckets', '{"exponentialHistogram":{"dataPoints":[{"timeUnixNano":"1","positive":{"offset":1,"bucketCounts":["x"],"offset":2,"bucketCounts":[3]},"negative":{"offset":9},"negative":{"offset":4}}]}}', { exponentialHistogram: { dataPoints: [{ timeUnixNano: '1', positive: { offset: 2, bucketCounts: ['3'] }, negative: { offset: 4 } }] } }, { positive: { offset: 2, bucketCounts: [3] }, negative: { offset: 4, bucketCounts: [] } }, {}],
    [
      'duplicates inside a metric: the last name, and of two kinds the later in field order (as on the wire)',
      '{"name":"a","sum":{"aggregationTemporality":2,"dataPoints":[{"timeUnixNano":"2","asInt":"3"}]},"name":"b","gauge":{"dataPoints":[{"timeUnixNano":"1","asDouble":1}]}}',
      { name: 'b', gauge: { dataPoints: [{ timeUnixNano: '1', asDouble: 1 }] }, sum: { aggregationTemporality: 2, dataPoints: [{ timeUnixNano: '2', asInt: '3' }] } },
      { timeUnixNano: 2n, value: 3n },
      { name: 'b', type: 'sum', temporality: 2 },
    ],
    ['duplicates inside a metric’s data: the last list and the last temporality', '{"sum":{"dataPoints":[{"timeUnixNano":"1"}],"aggregationTemporality":1,"data_points":[{"timeUnixNano":"2","asInt":"5"}],"aggregationTemporality":null}}', { sum: { dataPoints: [{ timeUnixNano: '1' }] } }, { timeUnixNano: 1n, value: 0 }, { temporality: 0 }],
    ['both asInt and asDouble: asInt, as on the wire (where it is the later field)', gauge('{"timeUnixNano":"1","asInt":"4","asDouble":1.5}'), gaugeTwin({ timeUnixNano: '1', asDouble: 1.5, asInt: '4' }), { value: 4n }, {}],
    ['unknown members at any depth', '{"x":[{"y":1}],"gauge":{"z":null,"dataPoints":[{"w":{"v":[]},"timeUnixNano":"1","asDouble":1,"exemplars":[{"u":"t","asInt":"2"}]}]},"name":"n"}', { name: 'n', gauge: { dataPoints: [{ timeUnixNano: '1', asDouble: 1, exemplars: [{ asInt: '2' }] }] } }, { value: 1 }, { name: 'n' }],
    ['the fields of other kinds: ignored, whatever their type', gauge('{"timeUnixNano":"1","asDouble":1,"count":"x","bucketCounts":5,"quantileValues":7,"positive":"p"}'), gaugeTwin({ timeUnixNano: '1', asDouble: 1 }), { value: 1 }, {}],
    ['a summary point’s exemplars and a gauge’s temporality: ignored', '{"summary":{"aggregationTemporality":"x","isMonotonic":5,"dataPoints":[{"timeUnixNano":"1","exemplars":5,"asInt":"x"}]}}', { summary: { dataPoints: [{ timeUnixNano: '1' }] } }, { exemplars: [] }, { temporality: 0 }],
    ['flags with the top bit set, and -1 as the same uint32 (as protobufjs writes it)', gauge('{"timeUnixNano":"1","flags":-1}'), gaugeTwin({ timeUnixNano: '1', flags: 4294967295 }), { flags: 4294967295 }, {}],
    ['a metric’s name, description, unit and metadata', '{"unit":"ms","metadata":[{"key":"m","value":{"intValue":1}}],"description":"d\\u00e9","name":"n","gauge":{"dataPoints":[{"timeUnixNano":"1"}]}}', { name: 'n', description: 'dé', unit: 'ms', metadata: [{ key: 'm', value: { intValue: '1' } }], gauge: { dataPoints: [{ timeUnixNano: '1' }] } }, {}, { name: 'n', description: 'dé', unit: 'ms', metadata: expect.objectContaining({ m: 1n }) }],
  ];

  it.each(cases)('%s', (_rule, json, protobuf, expected, metric) => {
    const row = only(fromJson(json));
    expect(row).toMatchObject(expected);
    expect(row.metric).toMatchObject(metric);
    expect(only(fromProtobuf(protobuf))).toEqual(row);
  });

  it('gives every point of a metric the same Metric, filled in by fields sent after the points', () => {
    const decoded = fromJson('{"sum":{"dataPoints":[{"timeUnixNano":"1"},{"timeUnixNano":"2"}],"aggregationTemporality":2},"name":"after"}');
    expect(decoded.rows[0]?.metric).toBe(decoded.rows[1]?.metric);
    expect(decoded.rows[0]?.metric).toMatchObject({ name: 'after', temporality: 2 });
  });

  it('takes asInt over an asDouble of the wrong type, as the old decoder did', () => {
    expect(only(fromJson(gauge('{"timeUnixNano":"1","asDouble":"bad","asInt":"4"}')))).toMatchObject({ value: 4n });
    expect(only(fromJson(gauge('{"timeUnixNano":"1","exemplars":[{"asDouble":{},"asInt":"5"}]}'))).exemplars[0]?.value).toBe(5n);
  });
});

describe('the JSON metrics reader: what it skips and refuses', () => {
  // Two kept points around each point skipped.
  const around: Record<string, [string, string, (point: string) => string]> = {
    gauge: ['{"timeUnixNano":"1","asDouble":1}', '{"timeUnixNano":"2","asInt":"2"}', gauge],
    histogram: ['{"timeUnixNano":"1","count":"1","bucketCounts":["1"]}', '{"timeUnixNano":"2","bucketCounts":[1,1],"explicitBounds":[0]}', histogram],
    exponential: ['{"timeUnixNano":"1"}', '{"timeUnixNano":"2","positive":{"bucketCounts":[1]}}', (point) => `{"exponentialHistogram":{"dataPoints":[${point}]}}`],
    summary: ['{"timeUnixNano":"1","sum":1}', '{"timeUnixNano":"2","quantileValues":[{"quantile":1,"value":1}]}', (point) => `{"summary":{"dataPoints":[${point}]}}`],
  };

  // The spec's rules, the same for the protobuf twin: [kind, rule, JSON point, its twin or undefined]
  it.each([
    ['gauge', 'a NaN value', '{"timeUnixNano":"5","asDouble":"NaN"}', { timeUnixNano: '5', asDouble: Number.NaN }],
    ['gauge', 'an infinite value', '{"timeUnixNano":"5","asDouble":"-Infinity"}', { timeUnixNano: '5', asDouble: -Infinity }],
    ['gauge', 'no time', '{"asDouble":3,"startTimeUnixNano":"4"}', { asDouble: 3, startTimeUnixNano: '4' }],
    ['gauge', 'a time of 0', '{"timeUnixNano":0,"asDouble":3}', { asDouble: 3 }],
    ['histogram', 'buckets and bounds that disagree', '{"timeUnixNano":"5","bucketCounts":[1,2],"explicitBounds":[1,2]}', { timeUnixNano: '5', bucketCounts: ['1', '2'], explicitBounds: [1, 2] }],
    ['histogram', 'bounds without buckets', '{"timeUnixNano":"5","explicitBounds":[1]}', { timeUnixNano: '5', explicitBounds: [1] }],
    ['histogram', 'a NaN sum', '{"timeUnixNano":"5","sum":"NaN"}', { timeUnixNano: '5', sum: Number.NaN }],
    ['histogram', 'a count beyond 2^53', '{"timeUnixNano":"5","count":9007199254740993}', { timeUnixNano: '5', count: '9007199254740993' }],
    ['histogram', 'a bucket count beyond 2^53', '{"timeUnixNano":"5","bucketCounts":["18446744073709551615"]}', { timeUnixNano: '5', bucketCounts: ['18446744073709551615'] }],
    ['exponential', 'an infinite zero threshold', '{"timeUnixNano":"5","zeroThreshold":"Infinity"}', { timeUnixNano: '5', zeroThreshold: Infinity }],
    ['exponential', 'a bucket count beyond 2^53', '{"timeUnixNano":"5","negative":{"bucketCounts":["9007199254740993"]}}', { timeUnixNano: '5', negative: { bucketCounts: ['9007199254740993'] } }],
    ['summary', 'a NaN quantile value', '{"timeUnixNano":"5","quantileValues":[{"quantile":0.5,"value":"NaN"}]}', { timeUnixNano: '5', quantileValues: [{ quantile: 0.5, value: Number.NaN }] }],
    ['summary', 'an infinite sum', '{"timeUnixNano":"5","sum":"Infinity"}', { timeUnixNano: '5', sum: Infinity }],
  ] as const)('%s: skips a point with %s, keeping its neighbours', (kind, _rule, point, twin) => {
    const [before, after, metric] = around[kind] as [string, string, (point: string) => string];
    const decoded = fromJson(metric(`${before},${point},${after}`));
    expect([decoded.rows.map((r) => r.timeUnixNano), decoded.skipped, decoded.unreadable]).toEqual([[1n, 2n], 1, undefined]);
    const single = JSON.parse(metric(point)) as Record<string, { dataPoints: unknown[] }>;
    for (const data of Object.values(single)) data.dataPoints = [twin];
    expect(fromProtobuf(single)).toEqual({ rows: [], skipped: 1 });
  });

  it.each([
    ['gauge', 'an asInt that is no integer', '{"timeUnixNano":"5","asInt":"1.5"}'],
    ['gauge', 'an asInt beyond 2^63-1', '{"timeUnixNano":"5","asInt":9223372036854775808}'],
    ['gauge', 'an asDouble of the wrong type', '{"timeUnixNano":"5","asDouble":true}'],
    ['gauge', 'a negative time', '{"timeUnixNano":"-5"}'],
    ['gauge', 'attributes that are not a list', '{"timeUnixNano":"5","attributes":{}}'],
    ['gauge', 'flags beyond 32 bits', '{"timeUnixNano":"5","flags":4294967296}'],
    ['gauge', 'an exemplar that is not an object', '{"timeUnixNano":"5","exemplars":[null]}'],
    ['gauge', 'an exemplar id that is not hex', '{"timeUnixNano":"5","exemplars":[{"traceId":"xyz1"}]}'],
    ['gauge', 'a point that is not an object', '"point"'],
    ['gauge', 'a wrong type overridden by nothing', '{"timeUnixNano":"5","timeUnixNano":"x"}'],
    ['histogram', 'a bucket count that is no count', '{"timeUnixNano":"5","bucketCounts":["-1"]}'],
    ['histogram', 'a null bound', '{"timeUnixNano":"5","bucketCounts":[1,1],"explicitBounds":[null]}'],
    ['histogram', 'bucket counts that are not a list', '{"timeUnixNano":"5","bucketCounts":"1"}'],
    ['exponential', 'buckets that are not an object (the protobuf reader’s decision: the old decoder took them as none)', '{"timeUnixNano":"5","positive":[]}'],
    ['exponential', 'a scale beyond 32 bits', '{"timeUnixNano":"5","scale":4294967296}'],
    ['summary', 'a quantile value that is not an object', '{"timeUnixNano":"5","quantileValues":[null]}'],
    ['summary', 'a quantile of the wrong type', '{"timeUnixNano":"5","quantileValues":[{"quantile":"half"}]}'],
  ] as const)('%s: skips a point with %s, keeping its neighbours', (kind, _what, point) => {
    const [before, after, metric] = around[kind] as [string, string, (point: string) => string];
    const body = exportOf(metric(`${before},${point},${after}`));
    const decoded = decodeOtlp('metrics', 'json', body);
    expect([decoded.rows.map((r) => r.timeUnixNano), decoded.skipped, decoded.unreadable]).toEqual([[1n, 2n], 1, undefined]);
  });

  it.each([
    ['a name of the wrong type, after the points', '{"gauge":{"dataPoints":[{"timeUnixNano":"1"},{"timeUnixNano":"2"}]},"name":5}'],
    ['metadata that is not a list', '{"metadata":{},"gauge":{"dataPoints":[{"timeUnixNano":"1"}]}}'],
    ['a kind that is not an object', '{"sum":[]}'],
    ['a kind that is not an object, beside one that is', '{"gauge":{"dataPoints":[{"timeUnixNano":"1"}]},"summary":5}'],
    ['points that are not a list', '{"histogram":{"dataPoints":{}}}'],
    ['a temporality that is no enum, after the points', '{"sum":{"dataPoints":[{"timeUnixNano":"1"}],"aggregationTemporality":"AGGREGATION_TEMPORALITY_SOMETIMES"}}'],
    ['isMonotonic that is not a boolean', '{"sum":{"isMonotonic":1,"dataPoints":[{"timeUnixNano":"1"}]}}'],
    ['a metric that is not an object', '[]'],
  ])('skips a metric with %s as one record, keeping its neighbours', (_what, metric) => {
    const neighbour = (name: string) => `{"name":"${name}","gauge":{"dataPoints":[{"timeUnixNano":"1"}]}}`;
    const decoded = decodeOtlp('metrics', 'json', exportOf(`${neighbour('a')},${metric},${neighbour('b')}`));
    expect([decoded.rows.map((r) => r.metric.name), decoded.skipped, decoded.unreadable]).toEqual([['a', 'b'], 1, undefined]);
    expect(decoded).toEqual(referenceDecodeMetricsJson(exportOf(`${neighbour('a')},${metric},${neighbour('b')}`), new RecordBudget(Number.POSITIVE_INFINITY)));
  });

  it.each([
    ['not JSON', 'nope'],
    ['truncated', '{"resourceMetrics":[{"scopeMetrics":[{"metrics":[{"gauge":{"dataPoints":[{}'],
    ['followed by more', '{} {}'],
  ])('says a body that is %s is not JSON, counting one record, as JSON.parse did', (_what, text) => {
    expect(decodeOtlp('metrics', 'json', Buffer.from(text))).toEqual({ rows: [], skipped: 1, unreadable: expect.stringMatching(/^not JSON: /) });
  });
});

describe('the JSON metrics reader: the budget counts data points as before', () => {
  const points = (n: number) => Array.from({ length: n }, (_, i) => `{"timeUnixNano":"${i + 1}"}`).join(',');

  it('counts points, not metrics: a body with more points than allowed is discarded', () => {
    const decoded = fromJson(`${gauge(points(2))},${gauge(points(2))}`, new RecordBudget(3));
    expect(decoded).toEqual({ rows: [], skipped: 1, unreadable: new TooManyRecords(3).message, tooMany: 3 });
    const budget = new RecordBudget(4);
    expect(fromJson(`${gauge(points(2))},${gauge(points(2))}`, budget).rows).toHaveLength(4);
    expect(budget.counted).toBe(4);
  });

  it('counts no point of a metric skipped by a field after its points, as the old decoder checked the metric first', () => {
    const budget = new RecordBudget(2);
    const decoded = fromJson(`{"gauge":{"dataPoints":[${points(3)}]},"unit":5},${gauge(points(1))}`, budget);
    expect([decoded.rows.length, decoded.skipped, decoded.tooMany, budget.counted]).toEqual([1, 1, undefined, 1]);
  });

  it('counts no point of a scope skipped by a header after its metrics', () => {
    const budget = new RecordBudget(2);
    const body = Buffer.from(`{"resourceMetrics":[{"scopeMetrics":[{"metrics":[${gauge(points(3))}],"scope":{"name":5}},{"metrics":[${gauge(points(1))}]}]}]}`);
    const decoded = decodeOtlp('metrics', 'json', body, budget);
    expect([decoded.rows.length, decoded.skipped, decoded.tooMany, budget.counted]).toEqual([1, 1, undefined, 1]);
  });

  it('counts only the last of a list given twice, as JSON.parse keeps it', () => {
    const budget = new RecordBudget(2);
    const decoded = fromJson(`{"gauge":{"dataPoints":[${points(3)}],"data_points":[${points(2)}],"dataPoints":[${points(1)}]}}`, budget);
    expect([decoded.rows.length, decoded.skipped, budget.counted]).toEqual([1, 0, 1]);
  });
});
