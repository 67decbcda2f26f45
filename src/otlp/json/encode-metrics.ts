// Data point rows → OTLP/JSON ExportMetricsServiceRequest: one metric object per metric group.
import type { PointGroups } from '../../model/group.js';
import type { DataPointRow, Exemplar, ExponentialBuckets, Metric, MetricType } from '../../model/metrics.js';
import { attributes, double, doubleMember, exportJson, id, int, int64, list, object, optionalDouble, string } from './encode-common.js';

const NAMES = { resources: 'resourceMetrics', scopes: 'scopeMetrics', records: 'metrics' };

const DATA_NAMES: Record<MetricType, string> = { gauge: 'gauge', sum: 'sum', histogram: 'histogram', exponential_histogram: 'exponentialHistogram', summary: 'summary' };

/** asDouble or asInt (a oneof: written even when zero, so that an int 0 stays an int). */
function numberValue(value: number | bigint): string {
  return typeof value === 'bigint' ? `,"asInt":"${value}"` : `,"asDouble":${double(value)}`;
}

function exemplar(e: Exemplar): string {
  return object(int64('timeUnixNano', e.timeUnixNano) + numberValue(e.value) + id('spanId', e.spanId) + id('traceId', e.traceId) + attributes('filteredAttributes', e.filteredAttributes));
}

/** Buckets are written even when empty, as the SDKs and the Collector write them. */
function buckets(b: ExponentialBuckets): string {
  return object(int('offset', b.offset) + (b.bucketCounts.length === 0 ? '' : `,"bucketCounts":[${b.bucketCounts.map((c) => `"${c}"`).join(',')}]`));
}

function pointMembers(row: DataPointRow): string {
  const times = int64('startTimeUnixNano', row.startTimeUnixNano) + int64('timeUnixNano', row.timeUnixNano);
  switch (row.kind) {
    case 'number':
      return times + numberValue(row.value) + list('exemplars', row.exemplars.map(exemplar)) + attributes('attributes', row.attributes) + int('flags', row.flags);
    case 'histogram':
      return (
        times +
        int64('count', row.count) +
        optionalDouble('sum', row.sum) +
        (row.bucketCounts.length === 0 ? '' : `,"bucketCounts":[${row.bucketCounts.map((c) => `"${c}"`).join(',')}]`) +
        (row.explicitBounds.length === 0 ? '' : `,"explicitBounds":[${row.explicitBounds.map(double).join(',')}]`) +
        list('exemplars', row.exemplars.map(exemplar)) +
        attributes('attributes', row.attributes) +
        int('flags', row.flags) +
        optionalDouble('min', row.min) +
        optionalDouble('max', row.max)
      );
    case 'exponential_histogram':
      return (
        attributes('attributes', row.attributes) +
        times +
        int64('count', row.count) +
        optionalDouble('sum', row.sum) +
        int('scale', row.scale) +
        int64('zeroCount', row.zeroCount) +
        `,"positive":${buckets(row.positive)},"negative":${buckets(row.negative)}` +
        int('flags', row.flags) +
        list('exemplars', row.exemplars.map(exemplar)) +
        optionalDouble('min', row.min) +
        optionalDouble('max', row.max) +
        doubleMember('zeroThreshold', row.zeroThreshold)
      );
    case 'summary': {
      const quantiles = row.quantiles.map((q) => object(doubleMember('quantile', q.quantile) + doubleMember('value', q.value)));
      return times + int64('count', row.count) + doubleMember('sum', row.sum) + list('quantileValues', quantiles) + attributes('attributes', row.attributes) + int('flags', row.flags);
    }
  }
}

function metric(m: Metric, points: readonly DataPointRow[]): string {
  let data = list('dataPoints', points.map((point) => object(pointMembers(point))));
  if (m.type !== 'gauge' && m.type !== 'summary') data += int('aggregationTemporality', m.temporality);
  if (m.type === 'sum' && m.isMonotonic) data += ',"isMonotonic":true';
  return object(string('name', m.name) + string('description', m.description) + string('unit', m.unit) + `,"${DATA_NAMES[m.type]}":${object(data)}` + attributes('metadata', m.metadata));
}

export function encodeMetricsJson(groups: PointGroups): string {
  return exportJson(NAMES, groups, (metrics: Map<Metric, DataPointRow[]>) => {
    let out = '';
    for (const [m, points] of metrics) out += `${out === '' ? '' : ','}${metric(m, points)}`;
    return out;
  });
}
