// ExportMetricsServiceRequest wire bytes → one row per data point.
import { emptyBuckets, emptyExemplar, emptyMetric, emptyPointRow, type Building } from '../../model/building.js';
import type {
  DataPointRow,
  Exemplar,
  ExponentialBuckets,
  ExponentialHistogramPointRow,
  HistogramPointRow,
  MetricType,
  NumberPointRow,
  SummaryPointRow,
} from '../../model/metrics.js';
import type { Resource, Scope } from '../../model/resource.js';
import { pointProblem } from '../checks.js';
import { emptyDecoded, DecodeAbort, type Decoded, type RecordBudget } from '../result.js';
import { Reader, WIRE_I64, WIRE_LEN, WIRE_VARINT, WireError } from '../wire.js';
import { expect, keyValue, walkExport } from './common.js';

const DATA_FIELDS: Record<number, MetricType> = { 5: 'gauge', 7: 'sum', 9: 'histogram', 10: 'exponential_histogram', 11: 'summary' };

/** A repeated scalar, packed (one length-delimited run) or not (one tag per value). */
function repeated(r: Reader, tag: number, unpackedWire: number, read: () => number, into: number[]): void {
  if ((tag & 7) === WIRE_LEN) {
    const end = r.delimited();
    while (r.more(end)) into.push(read());
    if (r.pos !== end) throw new WireError('packed field overran its length');
  } else {
    expect(tag, unpackedWire);
    into.push(read());
  }
}

function exemplar(r: Reader, end: number): Exemplar {
  const out = emptyExemplar();
  while (r.more(end)) {
    const tag = r.varint();
    switch (tag >>> 3) {
      case 7:
        expect(tag, WIRE_LEN);
        keyValue(r, r.delimited(), out.filteredAttributes);
        break;
      case 2:
        expect(tag, WIRE_I64);
        out.timeUnixNano = r.fixed64();
        break;
      case 3:
        expect(tag, WIRE_I64);
        out.value = r.double();
        break;
      case 6:
        expect(tag, WIRE_I64);
        out.value = r.sfixed64();
        break;
      case 4:
        expect(tag, WIRE_LEN);
        out.spanId = r.hex();
        break;
      case 5:
        expect(tag, WIRE_LEN);
        out.traceId = r.hex();
        break;
      default:
        r.skip(tag & 7);
    }
  }
  return out;
}

function buckets(r: Reader, end: number): ExponentialBuckets {
  const out = emptyBuckets();
  while (r.more(end)) {
    const tag = r.varint();
    const field = tag >>> 3;
    if (field === 1) {
      expect(tag, WIRE_VARINT);
      out.offset = r.sint32();
    } else if (field === 2) {
      repeated(r, tag, WIRE_VARINT, () => r.varint(), out.bucketCounts);
    } else {
      r.skip(tag & 7);
    }
  }
  return out;
}

type Base = Building<Omit<NumberPointRow, 'kind' | 'value'>>;

/** Fields every point type shares, at the field numbers its message gives them; false when the tag is not one of them. */
function common(r: Reader, tag: number, row: Base, attributesField: number, exemplarsField: number, flagsField: number): boolean {
  const field = tag >>> 3;
  if (field === attributesField) {
    expect(tag, WIRE_LEN);
    keyValue(r, r.delimited(), row.attributes);
  } else if (field === 2) {
    expect(tag, WIRE_I64);
    row.startTimeUnixNano = r.fixed64();
  } else if (field === 3) {
    expect(tag, WIRE_I64);
    row.timeUnixNano = r.fixed64();
  } else if (field === exemplarsField) {
    expect(tag, WIRE_LEN);
    row.exemplars.push(exemplar(r, r.delimited()));
  } else if (field === flagsField) {
    expect(tag, WIRE_VARINT);
    row.flags = r.varint();
  } else {
    return false;
  }
  return true;
}

function numberPoint(r: Reader, end: number, row: Building<NumberPointRow>): void {
  while (r.more(end)) {
    const tag = r.varint();
    if (common(r, tag, row, 7, 5, 8)) continue;
    const field = tag >>> 3;
    if (field === 4) {
      expect(tag, WIRE_I64);
      row.value = r.double();
    } else if (field === 6) {
      expect(tag, WIRE_I64);
      row.value = r.sfixed64();
    } else {
      r.skip(tag & 7);
    }
  }
}

function histogramPoint(r: Reader, end: number, row: Building<HistogramPointRow>): void {
  while (r.more(end)) {
    const tag = r.varint();
    if (common(r, tag, row, 9, 8, 10)) continue;
    switch (tag >>> 3) {
      case 4:
        expect(tag, WIRE_I64);
        row.count = r.fixed64Number();
        break;
      case 5:
        expect(tag, WIRE_I64);
        row.sum = r.double();
        break;
      case 6:
        repeated(r, tag, WIRE_I64, () => r.fixed64Number(), row.bucketCounts);
        break;
      case 7:
        repeated(r, tag, WIRE_I64, () => r.double(), row.explicitBounds);
        break;
      case 11:
        expect(tag, WIRE_I64);
        row.min = r.double();
        break;
      case 12:
        expect(tag, WIRE_I64);
        row.max = r.double();
        break;
      default:
        r.skip(tag & 7);
    }
  }
}

function exponentialPoint(r: Reader, end: number, row: Building<ExponentialHistogramPointRow>): void {
  while (r.more(end)) {
    const tag = r.varint();
    if (common(r, tag, row, 1, 11, 10)) continue;
    switch (tag >>> 3) {
      case 4:
        expect(tag, WIRE_I64);
        row.count = r.fixed64Number();
        break;
      case 5:
        expect(tag, WIRE_I64);
        row.sum = r.double();
        break;
      case 6:
        expect(tag, WIRE_VARINT);
        row.scale = r.sint32();
        break;
      case 7:
        expect(tag, WIRE_I64);
        row.zeroCount = r.fixed64Number();
        break;
      case 8:
        expect(tag, WIRE_LEN);
        row.positive = buckets(r, r.delimited());
        break;
      case 9:
        expect(tag, WIRE_LEN);
        row.negative = buckets(r, r.delimited());
        break;
      case 12:
        expect(tag, WIRE_I64);
        row.min = r.double();
        break;
      case 13:
        expect(tag, WIRE_I64);
        row.max = r.double();
        break;
      case 14:
        expect(tag, WIRE_I64);
        row.zeroThreshold = r.double();
        break;
      default:
        r.skip(tag & 7);
    }
  }
}

function summaryPoint(r: Reader, end: number, row: Building<SummaryPointRow>): void {
  while (r.more(end)) {
    const tag = r.varint();
    if (common(r, tag, row, 7, -1, 8)) continue;
    switch (tag >>> 3) {
      case 4:
        expect(tag, WIRE_I64);
        row.count = r.fixed64Number();
        break;
      case 5:
        expect(tag, WIRE_I64);
        row.sum = r.double();
        break;
      case 6: {
        expect(tag, WIRE_LEN);
        const quantileEnd = r.delimited();
        const q = { quantile: 0, value: 0 };
        while (r.more(quantileEnd)) {
          const inner = r.varint();
          if (inner >>> 3 === 1) {
            expect(inner, WIRE_I64);
            q.quantile = r.double();
          } else if (inner >>> 3 === 2) {
            expect(inner, WIRE_I64);
            q.value = r.double();
          } else {
            r.skip(inner & 7);
          }
        }
        row.quantiles.push(q);
        break;
      }
      default:
        r.skip(tag & 7);
    }
  }
}

function readPoint(r: Reader, end: number, row: Building<DataPointRow>): void {
  switch (row.kind) {
    case 'number':
      return numberPoint(r, end, row);
    case 'histogram':
      return histogramPoint(r, end, row);
    case 'exponential_histogram':
      return exponentialPoint(r, end, row);
    case 'summary':
      return summaryPoint(r, end, row);
  }
}

function metric(r: Reader, end: number, resource: Resource, scope: Scope, out: Decoded<'metrics'>, budget: RecordBudget): void {
  const m = emptyMetric();
  let dataStart = -1;
  let dataEnd = -1;
  while (r.more(end)) {
    const tag = r.varint();
    const field = tag >>> 3;
    if (field === 1) {
      expect(tag, WIRE_LEN);
      m.name = r.string();
    } else if (field === 2) {
      expect(tag, WIRE_LEN);
      m.description = r.string();
    } else if (field === 3) {
      expect(tag, WIRE_LEN);
      m.unit = r.string();
    } else if (field === 12) {
      expect(tag, WIRE_LEN);
      keyValue(r, r.delimited(), m.metadata);
    } else if (DATA_FIELDS[field] !== undefined) {
      expect(tag, WIRE_LEN);
      m.type = DATA_FIELDS[field];
      dataEnd = r.delimited();
      dataStart = r.pos;
      r.pos = dataEnd;
    } else {
      r.skip(tag & 7);
    }
  }
  if (dataStart === -1) return;
  // The aggregation's own settings (temporality, monotonicity) may follow its points on the wire.
  r.pos = dataStart;
  while (r.more(dataEnd)) {
    const tag = r.varint();
    const field = tag >>> 3;
    if (field === 2 && m.type !== 'gauge' && m.type !== 'summary') {
      expect(tag, WIRE_VARINT);
      m.temporality = r.int32();
    } else if (field === 3 && m.type === 'sum') {
      expect(tag, WIRE_VARINT);
      m.isMonotonic = r.bool();
    } else {
      r.skip(tag & 7);
    }
  }
  r.pos = dataStart;
  while (r.more(dataEnd)) {
    const tag = r.varint();
    if (tag >>> 3 !== 1 || (tag & 7) !== WIRE_LEN) {
      r.skip(tag & 7);
      continue;
    }
    const pointEnd = r.delimited();
    budget.count();
    try {
      const row = emptyPointRow(m.type, resource, scope, m);
      readPoint(r, pointEnd, row);
      if (pointProblem(row) === undefined) out.rows.push(row);
      else out.skipped++;
    } catch (error) {
      if (error instanceof DecodeAbort) throw error;
      out.skipped++;
    }
    r.pos = pointEnd;
  }
}

export function decodeMetricsProto(buf: Buffer, budget: RecordBudget, watch = false): Decoded<'metrics'> {
  const out = emptyDecoded<'metrics'>();
  walkExport(buf, out, (r, end, resource, scope) => metric(r, end, resource, scope, out, budget), watch);
  return out;
}

