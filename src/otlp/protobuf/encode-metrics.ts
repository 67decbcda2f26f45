// Data point rows → ExportMetricsServiceRequest wire bytes: one Metric message per metric group.
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
import { WIRE_I64, WIRE_LEN, WIRE_VARINT } from '../wire.js';
import { writeAttributes, writeDouble, writeExport, writeFixed64, writeId, writeInt32, writeString, writeUint } from './encode-common.js';
import type { Writer } from './writer.js';

const DATA_FIELDS: Record<MetricType, number> = { gauge: 5, sum: 7, histogram: 9, exponential_histogram: 10, summary: 11 };

/** asDouble or asInt (a oneof: written even when zero, so that an int 0 stays an int). */
function writeNumber(w: Writer, doubleField: number, intField: number, value: number | bigint): void {
  if (typeof value === 'bigint') {
    w.tag(intField, WIRE_I64);
    w.sfixed64(value);
  } else {
    w.tag(doubleField, WIRE_I64);
    w.double(value);
  }
}

function writeOptionalDouble(w: Writer, field: number, n: number | undefined): void {
  if (n === undefined) return;
  w.tag(field, WIRE_I64);
  w.double(n);
}

function writeCount(w: Writer, field: number, n: number): void {
  if (n === 0) return;
  w.tag(field, WIRE_I64);
  w.fixed64Number(n);
}

function writeExemplars(w: Writer, field: number, exemplars: readonly Exemplar[]): void {
  for (const exemplar of exemplars) {
    const at = w.begin(field);
    writeFixed64(w, 2, exemplar.timeUnixNano);
    writeNumber(w, 3, 6, exemplar.value);
    writeId(w, 4, exemplar.spanId);
    writeId(w, 5, exemplar.traceId);
    writeAttributes(w, 7, exemplar.filteredAttributes);
    w.end(at);
  }
}

function writeTimes(w: Writer, row: DataPointRow): void {
  writeFixed64(w, 2, row.startTimeUnixNano);
  writeFixed64(w, 3, row.timeUnixNano);
}

function writeNumberPoint(w: Writer, row: NumberPointRow): void {
  writeTimes(w, row);
  writeNumber(w, 4, 6, row.value);
  writeExemplars(w, 5, row.exemplars);
  writeAttributes(w, 7, row.attributes);
  writeUint(w, 8, row.flags);
}

function writeHistogramPoint(w: Writer, row: HistogramPointRow): void {
  writeTimes(w, row);
  writeCount(w, 4, row.count);
  writeOptionalDouble(w, 5, row.sum);
  if (row.bucketCounts.length > 0) {
    w.tag(6, WIRE_LEN);
    w.varint(8 * row.bucketCounts.length);
    for (const count of row.bucketCounts) w.fixed64Number(count);
  }
  if (row.explicitBounds.length > 0) {
    w.tag(7, WIRE_LEN);
    w.varint(8 * row.explicitBounds.length);
    for (const bound of row.explicitBounds) w.double(bound);
  }
  writeExemplars(w, 8, row.exemplars);
  writeAttributes(w, 9, row.attributes);
  writeUint(w, 10, row.flags);
  writeOptionalDouble(w, 11, row.min);
  writeOptionalDouble(w, 12, row.max);
}

/** Buckets are written even when empty, as the SDKs and the Collector write them. */
function writeBuckets(w: Writer, field: number, buckets: ExponentialBuckets): void {
  const at = w.begin(field);
  if (buckets.offset !== 0) {
    w.tag(1, WIRE_VARINT);
    w.sint32(buckets.offset);
  }
  if (buckets.bucketCounts.length > 0) {
    const counts = w.begin(2);
    for (const count of buckets.bucketCounts) w.varint(count);
    w.end(counts);
  }
  w.end(at);
}

function writeExponentialPoint(w: Writer, row: ExponentialHistogramPointRow): void {
  writeAttributes(w, 1, row.attributes);
  writeTimes(w, row);
  writeCount(w, 4, row.count);
  writeOptionalDouble(w, 5, row.sum);
  if (row.scale !== 0) {
    w.tag(6, WIRE_VARINT);
    w.sint32(row.scale);
  }
  writeCount(w, 7, row.zeroCount);
  writeBuckets(w, 8, row.positive);
  writeBuckets(w, 9, row.negative);
  writeUint(w, 10, row.flags);
  writeExemplars(w, 11, row.exemplars);
  writeOptionalDouble(w, 12, row.min);
  writeOptionalDouble(w, 13, row.max);
  writeDouble(w, 14, row.zeroThreshold);
}

function writeSummaryPoint(w: Writer, row: SummaryPointRow): void {
  writeTimes(w, row);
  writeCount(w, 4, row.count);
  writeDouble(w, 5, row.sum);
  for (const q of row.quantiles) {
    const at = w.begin(6);
    writeDouble(w, 1, q.quantile);
    writeDouble(w, 2, q.value);
    w.end(at);
  }
  writeAttributes(w, 7, row.attributes);
  writeUint(w, 8, row.flags);
}

function writePoint(w: Writer, row: DataPointRow): void {
  const at = w.begin(1);
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
  w.end(at);
}

function writeMetric(w: Writer, metric: Metric, points: readonly DataPointRow[]): void {
  const at = w.begin(2);
  writeString(w, 1, metric.name);
  writeString(w, 2, metric.description);
  writeString(w, 3, metric.unit);
  const data = w.begin(DATA_FIELDS[metric.type]);
  for (const point of points) writePoint(w, point);
  if (metric.type !== 'gauge' && metric.type !== 'summary') writeInt32(w, 2, metric.temporality);
  if (metric.type === 'sum' && metric.isMonotonic) {
    w.tag(3, WIRE_VARINT);
    w.varint(1);
  }
  w.end(data);
  writeAttributes(w, 12, metric.metadata);
  w.end(at);
}

export function encodeMetricsProto(w: Writer, groups: PointGroups): void {
  writeExport(w, groups, (writer, metrics: Map<Metric, DataPointRow[]>) => {
    for (const [metric, points] of metrics) writeMetric(writer, metric, points);
  });
}
