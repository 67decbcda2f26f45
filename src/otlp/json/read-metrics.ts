// OTLP JSON ExportMetricsServiceRequest bytes → one row per data point, read straight from the
// body (reader.ts) as read-logs.ts reads log records: each object in one pass, and again from its
// fields' winning values (members()/pick()) when a field comes twice, so that the answer is
// JSON.parse's. A metric's points become rows as they come, sharing one Metric that fields sent
// after them (a temporality, a name) still fill in. Only a metric checked whole may have its
// points counted, as the old decoder and the protobuf reader count: one found broken after its
// points gives back their rows and counts and is read again, checked first.
import { emptyBuckets, emptyExemplar, emptyMetric, emptyPointRow, type Building } from '../../model/building.js';
import type { DataPointRow, Exemplar, ExponentialBuckets, ExponentialHistogramPointRow, HistogramPointRow, Metric, MetricType, SummaryPointRow } from '../../model/metrics.js';
import type { Resource, Scope } from '../../model/resource.js';
import { pointProblem } from '../checks.js';
import { DecodeAbort, type Decoded, type RecordBudget } from '../result.js';
import { NameTable, UNKNOWN } from './names.js';
import { attributes, fieldsExact, fieldsOnce, GUESSES, skipsRecord } from './read-common.js';
import { exportShape, readExport } from './read-export.js';
import { END, LBRACE, LBRACKET, N, ShapeError, type JsonReader } from './reader.js';
import { bool, count, double, enumValue, hex, int32, int64, text, uint64 } from './values.js';

// Data points, not metrics, are what the budget counts: the metric's reader counts them.
const SHAPE = exportShape(['resourceMetrics', 'resource_metrics'], ['scopeMetrics', 'scope_metrics'], ['metrics', ''], false);

/** One kind of object, read field by field (onePass(), exactly()). */
interface Fields<T> {
  readonly what: string;
  /** A field's two spellings are ids 2k and 2k+1 (lowerCamelCase first); '' for a spelling or a field the object does not have. */
  readonly table: NameTable;
  /** Each field's bit in the set of fields seen: the members of a oneof share one, so that an object holding two is read as JSON.parse leaves it. */
  readonly bits: readonly number[];
  /** Reads the value of field `field` (a name's id >> 1) at the reader into `into`. */
  readonly read: (r: JsonReader, into: T, field: number) => void;
}

function fields<T>(what: string, names: readonly string[], read: Fields<T>['read'], oneof: readonly number[] = []): Fields<T> {
  const bits = Array.from({ length: names.length / 2 }, (_, field) => 1 << (oneof.includes(field) ? (oneof[0] as number) : field));
  return { what, table: new NameTable(names), bits, read };
}

/** `names` with those whose lowerCamelCase spelling is not in `kept` blanked: one table's ids for objects of several kinds. */
function only(names: readonly string[], kept: readonly string[]): string[] {
  return names.map((name, id) => (kept.includes(names[id & ~1] as string) ? name : ''));
}

/** The object at the reader into `into`, in one pass; false (the reader back at its start) when a field comes twice, for exactly(). */
const onePass = <T>(r: JsonReader, f: Fields<T>, into: T): boolean => fieldsOnce(r, f.table, into, f.read, f.bits);

/** The object at the reader into `into` (fresh) as JSON.parse leaves it: each field from its winning value, in field order. */
const exactly = <T>(r: JsonReader, f: Fields<T>, into: T): void => fieldsExact(r, f.table, into, f.read);

function readObject<T>(r: JsonReader, f: Fields<T>, make: () => T): T {
  if (r.buf[r.pos] !== LBRACE) throw new ShapeError(`${f.what} is not an object`);
  const into = make();
  if (onePass(r, f, into)) return into;
  const again = make();
  exactly(r, f, again);
  return again;
}

/** A list at the reader, each item read by `item` into `into`; null is the empty list. */
function listInto<T>(r: JsonReader, into: T[], item: (r: JsonReader) => T): void {
  if (r.null()) return;
  if (r.buf[r.pos] !== LBRACKET) throw new ShapeError('not a list');
  r.openArray();
  while (r.item()) into.push(item(r));
}

const optionalDouble = (r: JsonReader): number | undefined => (r.null() ? undefined : double(r));
const doubleOrZero = (r: JsonReader): number => (r.null() ? 0 : double(r));

/**
 * asInt (`asInt`) or asDouble at the reader: the value they leave `current` at; null leaves it as
 * it is. Read exactly, asInt comes first and wins, as on the wire (where it is the later field).
 */
function numberValue(r: JsonReader, current: number | bigint, asInt: boolean): number | bigint {
  if (r.null()) return current;
  if (asInt) return int64(r);
  return typeof current === 'bigint' ? current : double(r);
}

const EXEMPLAR = fields<Building<Exemplar>>(
  'exemplar',
  ['filteredAttributes', 'filtered_attributes', 'timeUnixNano', 'time_unix_nano', 'asInt', 'as_int', 'asDouble', 'as_double', 'spanId', 'span_id', 'traceId', 'trace_id'],
  (r, ex, field) => {
    switch (field) {
      case 0:
        attributes(r, ex.filteredAttributes);
        break;
      case 1:
        ex.timeUnixNano = uint64(r);
        break;
      case 2:
      case 3:
        ex.value = numberValue(r, ex.value, field === 2);
        break;
      case 4:
        ex.spanId = hex(r);
        break;
      default:
        ex.traceId = hex(r);
    }
  },
  [2, 3],
);
const exemplar = (r: JsonReader): Exemplar => readObject(r, EXEMPLAR, emptyExemplar);

const BUCKETS = fields<Building<ExponentialBuckets>>('buckets', ['offset', '', 'bucketCounts', 'bucket_counts'], (r, b, field) => {
  if (field === 0) b.offset = int32(r);
  else listInto(r, b.bucketCounts, count);
});

/** positive, negative: null is no buckets; anything but an object skips the point, as a wrong wire type does. */
const buckets = (r: JsonReader): ExponentialBuckets => (r.null() ? emptyBuckets() : readObject(r, BUCKETS, emptyBuckets));

type Quantile = SummaryPointRow['quantiles'][number];
const QUANTILE = fields<Building<Quantile>>('quantile value', ['quantile', '', 'value', ''], (r, q, field) => {
  if (field === 0) q.quantile = doubleOrZero(r);
  else q.value = doubleOrZero(r);
});
const emptyQuantile = (): Building<Quantile> => ({ quantile: 0, value: 0 });
const quantile = (r: JsonReader): Quantile => readObject(r, QUANTILE, emptyQuantile);

// A data point of any kind: one table of fields, each kind's table blanking the others' (a
// gauge's point ignores a count, as the old decoder did).
const POINT_NAMES = [
  'startTimeUnixNano', 'start_time_unix_nano',
  'timeUnixNano', 'time_unix_nano',
  'attributes', '',
  'flags', '',
  'exemplars', '',
  'asInt', 'as_int',
  'asDouble', 'as_double',
  'count', '',
  'sum', '',
  'min', '',
  'max', '',
  'bucketCounts', 'bucket_counts',
  'explicitBounds', 'explicit_bounds',
  'scale', '',
  'zeroCount', 'zero_count',
  'zeroThreshold', 'zero_threshold',
  'positive', '',
  'negative', '',
  'quantileValues', 'quantile_values',
];
const START = 0;
const TIME = 1;
const ATTRIBUTES = 2;
const FLAGS = 3;
const EXEMPLARS = 4;
const AS_INT = 5;
const AS_DOUBLE = 6;
const COUNT = 7;
const SUM = 8;
const MIN = 9;
const BUCKET_COUNTS = 11;
const EXPLICIT_BOUNDS = 12;
const SCALE = 13;
const ZERO_COUNT = 14;
const ZERO_THRESHOLD = 15;
const POSITIVE = 16;
const NEGATIVE = 17;

function pointField(r: JsonReader, row: Building<DataPointRow>, field: number): void {
  switch (field) {
    case START:
      row.startTimeUnixNano = uint64(r);
      return;
    case TIME:
      row.timeUnixNano = uint64(r);
      return;
    case ATTRIBUTES:
      attributes(r, row.attributes, GUESSES.attributes, true);
      return;
    case FLAGS:
      row.flags = int32(r) >>> 0;
      return;
    case EXEMPLARS:
      listInto(r, row.exemplars, exemplar);
      return;
  }
  switch (row.kind) {
    case 'number':
      row.value = numberValue(r, row.value, field === AS_INT);
      return;
    case 'histogram':
      return histogramField(r, row, field);
    case 'exponential_histogram':
      return exponentialField(r, row, field);
    case 'summary':
      return summaryField(r, row, field);
  }
}

/** count, sum, min, max: what both histograms have. */
function statsField(r: JsonReader, row: Building<HistogramPointRow | ExponentialHistogramPointRow>, field: number): void {
  switch (field) {
    case COUNT:
      row.count = count(r);
      break;
    case SUM:
      row.sum = optionalDouble(r);
      break;
    case MIN:
      row.min = optionalDouble(r);
      break;
    default:
      row.max = optionalDouble(r);
  }
}

function histogramField(r: JsonReader, row: Building<HistogramPointRow>, field: number): void {
  if (field === BUCKET_COUNTS) listInto(r, row.bucketCounts, count);
  else if (field === EXPLICIT_BOUNDS) listInto(r, row.explicitBounds, double);
  else statsField(r, row, field);
}

function exponentialField(r: JsonReader, row: Building<ExponentialHistogramPointRow>, field: number): void {
  switch (field) {
    case SCALE:
      row.scale = int32(r);
      break;
    case ZERO_COUNT:
      row.zeroCount = count(r);
      break;
    case ZERO_THRESHOLD:
      row.zeroThreshold = doubleOrZero(r);
      break;
    case POSITIVE:
      row.positive = buckets(r);
      break;
    case NEGATIVE:
      row.negative = buckets(r);
      break;
    default:
      statsField(r, row, field);
  }
}

function summaryField(r: JsonReader, row: Building<SummaryPointRow>, field: number): void {
  if (field === COUNT) row.count = count(r);
  else if (field === SUM) row.sum = doubleOrZero(r);
  else listInto(r, row.quantiles, quantile);
}

const pointFields = (kept: readonly string[]) => fields<Building<DataPointRow>>('data point', only(POINT_NAMES, kept), pointField, [AS_INT, AS_DOUBLE]);
const COMMON = ['startTimeUnixNano', 'timeUnixNano', 'attributes', 'flags'];
const NUMBER = [...COMMON, 'exemplars', 'asInt', 'asDouble'];
const HISTOGRAM_STATS = [...COMMON, 'exemplars', 'count', 'sum', 'min', 'max'];
const POINTS: Record<MetricType, Fields<Building<DataPointRow>>> = {
  gauge: pointFields(NUMBER),
  sum: pointFields(NUMBER),
  histogram: pointFields([...HISTOGRAM_STATS, 'bucketCounts', 'explicitBounds']),
  exponential_histogram: pointFields([...HISTOGRAM_STATS, 'scale', 'zeroCount', 'zeroThreshold', 'positive', 'negative']),
  summary: pointFields([...COMMON, 'count', 'sum', 'quantileValues']),
};

/** Where a metric's points go: rows of `out`, each counted against `budget`. */
interface Points {
  readonly out: Decoded<'metrics'>;
  readonly budget: RecordBudget;
  readonly resource: Resource;
  readonly scope: Scope;
  readonly metric: Building<Metric>;
}

/**
 * onePass() for a point, written out: here pointField() is called, and compiled, in the loop
 * itself, where onePass() calls each object's reader through a function value (a point read
 * through onePass() took 9 % longer, bench in docs/architecture.md).
 */
function pointOnePass(r: JsonReader, f: Fields<Building<DataPointRow>>, row: Building<DataPointRow>): boolean {
  const start = r.pos;
  let seen = 0;
  let failed = false;
  r.openObject();
  for (let id = r.member(f.table, UNKNOWN); id !== END; id = r.member(f.table, id)) {
    if (id === UNKNOWN) {
      r.skip();
      continue;
    }
    const field = id >> 1;
    const bit = f.bits[field] as number;
    if ((seen & bit) !== 0) {
      r.pos = start;
      return false;
    }
    seen |= bit;
    const at = r.pos;
    try {
      pointField(r, row, field);
    } catch (error) {
      if (!(error instanceof ShapeError)) throw error;
      failed = true;
      r.pos = at;
      r.skip();
    }
  }
  if (failed) throw new ShapeError('a field of the data point has the wrong type');
  return true;
}

function point(r: JsonReader, p: Points): Building<DataPointRow> {
  if (r.buf[r.pos] !== LBRACE) throw new ShapeError('data point is not an object');
  const { metric } = p;
  const f = POINTS[metric.type];
  const row = emptyPointRow(metric.type, p.resource, p.scope, metric);
  if (pointOnePass(r, f, row)) return row;
  const again = emptyPointRow(metric.type, p.resource, p.scope, metric);
  exactly(r, f, again);
  return again;
}

/** Each point counted, then a row unless the spec's rules or a field of the wrong type skip it. */
function dataPoints(r: JsonReader, p: Points): void {
  if (r.null()) return;
  if (r.buf[r.pos] !== LBRACKET) throw new ShapeError('dataPoints is not a list');
  const { out, budget } = p;
  r.openArray();
  while (r.item()) {
    budget.count();
    const at = r.pos;
    try {
      const row = point(r, p);
      if (pointProblem(row) === undefined) out.rows.push(row);
      else out.skipped++;
    } catch (error) {
      if (!skipsRecord(error)) throw error;
      r.pos = at;
      r.skip();
      out.skipped++;
    }
  }
}

/** AggregationTemporality by name: the Collector takes enums as names or numbers. */
const TEMPORALITY: ReadonlyMap<string, number> = new Map(['UNSPECIFIED', 'DELTA', 'CUMULATIVE'].map((name, n) => [`AGGREGATION_TEMPORALITY_${name}`, n]));

// The data of a metric (gauge, sum, ...): read exactly, the settings come before the points, so
// that the metric is checked whole before a point of it is counted.
const DATA_NAMES = ['aggregationTemporality', 'aggregation_temporality', 'isMonotonic', 'is_monotonic', 'dataPoints', 'data_points'];

function dataField(r: JsonReader, p: Points, field: number): void {
  switch (field) {
    case 0:
      p.metric.temporality = enumValue(r, TEMPORALITY);
      break;
    case 1:
      p.metric.isMonotonic = r.null() ? false : bool(r);
      break;
    default:
      dataPoints(r, p);
  }
}

const dataFields = (kept: readonly string[]) => fields<Points>('data', only(DATA_NAMES, kept), dataField);
const DATA: Record<MetricType, Fields<Points>> = {
  gauge: dataFields(['dataPoints']),
  sum: dataFields(['aggregationTemporality', 'isMonotonic', 'dataPoints']),
  histogram: dataFields(['aggregationTemporality', 'dataPoints']),
  exponential_histogram: dataFields(['aggregationTemporality', 'dataPoints']),
  summary: dataFields(['dataPoints']),
};

/** How far the rows, skips and counts of a body had come: what giveBack() returns them to. */
interface Mark {
  readonly rows: number;
  readonly skipped: number;
  readonly counted: number;
}

const mark = (p: Points): Mark => ({ rows: p.out.rows.length, skipped: p.out.skipped, counted: p.budget.counted });

function giveBack(p: Points, m: Mark): void {
  p.out.rows.length = m.rows;
  p.out.skipped = m.skipped;
  p.budget.rewind(m.counted);
}

function readData(r: JsonReader, p: Points): void {
  const f = DATA[p.metric.type];
  if (r.buf[r.pos] !== LBRACE) throw new ShapeError(`${p.metric.type} is not an object`);
  const before = mark(p);
  if (onePass(r, f, p)) return;
  giveBack(p, before);
  // The settings anew too: a winning null (with no other spelling) leaves nothing for exactly() to read.
  p.metric.temporality = 0;
  p.metric.isMonotonic = false;
  exactly(r, f, p);
}

// The kinds a metric's data may be, in field order: of two sent, the later in this order wins,
// as it does on the wire (the protobuf encoding writes them in this order).
const KINDS: readonly MetricType[] = ['gauge', 'sum', 'histogram', 'exponential_histogram', 'summary'];
const FIRST_KIND = 4;

function metricField(r: JsonReader, p: Points, field: number): void {
  const m = p.metric;
  switch (field) {
    case 0:
      m.name = text(r);
      break;
    case 1:
      m.description = text(r);
      break;
    case 2:
      m.unit = text(r);
      break;
    case 3:
      attributes(r, m.metadata);
      break;
    default:
      if (r.null()) break;
      m.type = KINDS[field - FIRST_KIND] as MetricType;
      readData(r, p);
  }
}

const METRIC = fields<Points>(
  'metric',
  ['name', '', 'description', '', 'unit', '', 'metadata', '', 'gauge', '', 'sum', '', 'histogram', '', 'exponentialHistogram', 'exponential_histogram', 'summary', ''],
  metricField,
  [4, 5, 6, 7, 8],
);

/** A metric as JSON.parse leaves it: its own fields, then its data's, so that it is checked whole before a point is counted. */
function exactMetric(r: JsonReader, p: Points): void {
  const at = r.members(METRIC.table);
  const end = r.pos;
  for (let field = 0; field < FIRST_KIND; field++) {
    const q = r.pick(at, field * 2, field * 2 + 1);
    if (q === -1) continue;
    r.pos = q;
    metricField(r, p, field);
  }
  // Only the winning kind's data is read; the others need only be objects, as the old decoder had it.
  let data = -1;
  for (let kind = 0; kind < KINDS.length; kind++) {
    const field = FIRST_KIND + kind;
    const q = r.pick(at, field * 2, field * 2 + 1);
    if (q === -1 || r.buf[q] === N) continue;
    if (r.buf[q] !== LBRACE) throw new ShapeError(`${KINDS[kind]} is not an object`);
    p.metric.type = KINDS[kind] as MetricType;
    data = q;
  }
  if (data !== -1) {
    r.pos = data;
    exactly(r, DATA[p.metric.type], p);
  }
  r.pos = end;
}

function readMetric(r: JsonReader, out: Decoded<'metrics'>, resource: Resource, scope: Scope, budget: RecordBudget): void {
  if (r.buf[r.pos] !== LBRACE) throw new ShapeError('metric is not an object');
  const start = r.pos;
  const first: Points = { out, budget, resource, scope, metric: emptyMetric() };
  const before = mark(first);
  try {
    if (onePass(r, METRIC, first)) return;
  } catch (error) {
    // Read in one pass, its points were counted before a field after them could skip the metric:
    // a broken metric, or one that ran out of budget, is read again and checked before counting.
    if (!skipsRecord(error) && !(error instanceof DecodeAbort)) throw error;
  }
  giveBack(first, before);
  r.pos = start;
  exactMetric(r, { out, budget, resource, scope, metric: emptyMetric() });
}

export function decodeMetricsJson(body: Buffer, budget: RecordBudget): Decoded<'metrics'> {
  return readExport<'metrics'>(body, SHAPE, budget, readMetric);
}
