// Data point rows → OTLP/JSON ExportMetricsServiceRequest: one metric object per metric group.
import type { PointGroups } from '../../model/group.js';
import type {
  DataPointRow,
  Exemplar,
  ExponentialBuckets,
  ExponentialHistogramPointRow,
  HistogramPointRow,
  Metric,
  MetricType,
  NumberPointRow,
  SummaryPointRow,
} from '../../model/metrics.js';
import { writeAttributes, writeDouble, writeExport, writeId, writeInt, writeInt64, writeOptionalDouble, writeString } from './encode-common.js';
import type { JsonWriter } from './writer.js';

const NAMES = { resources: 'resourceMetrics', scopes: 'scopeMetrics', records: 'metrics' };

const DATA_NAMES: Record<MetricType, string> = { gauge: 'gauge', sum: 'sum', histogram: 'histogram', exponential_histogram: 'exponentialHistogram', summary: 'summary' };

/** asDouble or asInt (a oneof: written even when zero, so that an int 0 stays an int). */
function writeNumber(w: JsonWriter, value: number | bigint): void {
  if (typeof value === 'bigint') {
    w.key('asInt');
    w.quoted(value.toString());
  } else {
    w.key('asDouble');
    w.double(value);
  }
}

function writeExemplars(w: JsonWriter, exemplars: readonly Exemplar[]): void {
  if (exemplars.length === 0) return;
  w.key('exemplars');
  w.openArray();
  for (const exemplar of exemplars) {
    w.item();
    w.open();
    writeInt64(w, 'timeUnixNano', exemplar.timeUnixNano);
    writeNumber(w, exemplar.value);
    writeId(w, 'spanId', exemplar.spanId);
    writeId(w, 'traceId', exemplar.traceId);
    writeAttributes(w, 'filteredAttributes', exemplar.filteredAttributes);
    w.close();
  }
  w.closeArray();
}

/** A repeated 64-bit count: decimal strings. */
function writeCounts(w: JsonWriter, name: string, counts: readonly number[]): void {
  if (counts.length === 0) return;
  w.key(name);
  w.openArray();
  for (const count of counts) {
    w.item();
    w.quoted(String(count));
  }
  w.closeArray();
}

function writeTimes(w: JsonWriter, row: DataPointRow): void {
  writeInt64(w, 'startTimeUnixNano', row.startTimeUnixNano);
  writeInt64(w, 'timeUnixNano', row.timeUnixNano);
}

function writeNumberPoint(w: JsonWriter, row: NumberPointRow): void {
  writeTimes(w, row);
  writeNumber(w, row.value);
  writeExemplars(w, row.exemplars);
  writeAttributes(w, 'attributes', row.attributes);
  writeInt(w, 'flags', row.flags);
}

function writeHistogramPoint(w: JsonWriter, row: HistogramPointRow): void {
  writeTimes(w, row);
  writeInt64(w, 'count', row.count);
  writeOptionalDouble(w, 'sum', row.sum);
  writeCounts(w, 'bucketCounts', row.bucketCounts);
  if (row.explicitBounds.length > 0) {
    w.key('explicitBounds');
    w.openArray();
    for (const bound of row.explicitBounds) {
      w.item();
      w.double(bound);
    }
    w.closeArray();
  }
  writeExemplars(w, row.exemplars);
  writeAttributes(w, 'attributes', row.attributes);
  writeInt(w, 'flags', row.flags);
  writeOptionalDouble(w, 'min', row.min);
  writeOptionalDouble(w, 'max', row.max);
}

/** Buckets are written even when empty, as the SDKs and the Collector write them. */
function writeBuckets(w: JsonWriter, name: string, buckets: ExponentialBuckets): void {
  w.key(name);
  w.open();
  writeInt(w, 'offset', buckets.offset);
  writeCounts(w, 'bucketCounts', buckets.bucketCounts);
  w.close();
}

function writeExponentialPoint(w: JsonWriter, row: ExponentialHistogramPointRow): void {
  writeAttributes(w, 'attributes', row.attributes);
  writeTimes(w, row);
  writeInt64(w, 'count', row.count);
  writeOptionalDouble(w, 'sum', row.sum);
  writeInt(w, 'scale', row.scale);
  writeInt64(w, 'zeroCount', row.zeroCount);
  writeBuckets(w, 'positive', row.positive);
  writeBuckets(w, 'negative', row.negative);
  writeInt(w, 'flags', row.flags);
  writeExemplars(w, row.exemplars);
  writeOptionalDouble(w, 'min', row.min);
  writeOptionalDouble(w, 'max', row.max);
  writeDouble(w, 'zeroThreshold', row.zeroThreshold);
}

function writeSummaryPoint(w: JsonWriter, row: SummaryPointRow): void {
  writeTimes(w, row);
  writeInt64(w, 'count', row.count);
  writeDouble(w, 'sum', row.sum);
  if (row.quantiles.length > 0) {
    w.key('quantileValues');
    w.openArray();
    for (const q of row.quantiles) {
      w.item();
      w.open();
      writeDouble(w, 'quantile', q.quantile);
      writeDouble(w, 'value', q.value);
      w.close();
    }
    w.closeArray();
  }
  writeAttributes(w, 'attributes', row.attributes);
  writeInt(w, 'flags', row.flags);
}

function writePoint(w: JsonWriter, row: DataPointRow): void {
  w.item();
  w.open();
  switch (row.kind) {
    case 'number':
      writeNumberPoint(w, row);
      break;
    case 'histogram':
      writeHistogramPoint(w, row);
      break;
    case 'exponential_histogram':
      writeExponentialPoint(w, row);
      break;
    case 'summary':
      writeSummaryPoint(w, row);
      break;
  }
  w.close();
}

function writeMetric(w: JsonWriter, metric: Metric, points: readonly DataPointRow[]): void {
  w.item();
  w.open();
  writeString(w, 'name', metric.name);
  writeString(w, 'description', metric.description);
  writeString(w, 'unit', metric.unit);
  w.key(DATA_NAMES[metric.type]);
  w.open();
  w.key('dataPoints');
  w.openArray();
  for (const point of points) writePoint(w, point);
  w.closeArray();
  if (metric.type !== 'gauge' && metric.type !== 'summary') writeInt(w, 'aggregationTemporality', metric.temporality);
  if (metric.type === 'sum' && metric.isMonotonic) {
    w.key('isMonotonic');
    w.bool(true);
  }
  w.close();
  writeAttributes(w, 'metadata', metric.metadata);
  w.close();
}

export function encodeMetricsJson(w: JsonWriter, groups: PointGroups): void {
  writeExport(w, NAMES, groups, (writer, metrics: Map<Metric, DataPointRow[]>) => {
    for (const [metric, points] of metrics) writeMetric(writer, metric, points);
  });
}
