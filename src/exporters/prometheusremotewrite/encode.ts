// The remote-write bodies of a batch, made when it is queued: the batch's points as series (by
// translate.ts), written as prompb.WriteRequest (timeseries = 1; in each, labels = 1 and samples = 2;
// a sample's value = 1 as a double, timestamp = 2 in milliseconds) straight into Snappy blocks.
//
// Metrics come again with the same series every interval, so what a series is (its labels, sorted,
// as protobuf bytes) is worked out once and kept: a point finds its series by its resource, its
// metric and its attributes as they came, and only a series not seen before goes through the
// translation. A label pair written before in the same block is written as a Snappy copy of it,
// which is where nearly all of a body's bytes repeat. What is kept is bounded: past MAX_KEPT
// entries it is all let go, and built again as points come.
import type { AnyValue } from '../../model/anyvalue.js';
import type { DataPointRow, Metric } from '../../model/metrics.js';
import type { Resource } from '../../model/resource.js';
import { valueText } from '../../model/json.js';
import { decodeOtlp } from '../../otlp/decode.js';
import { fieldSize, varintSize } from '../../otlp/protobuf/writer.js';
import { labelPairField } from '../helper/label-pair.js';
import { blockLength, FRAME, frameBlocks, joinBlocks, SnappyWriter, type Written } from '../helper/snappy-writer.js';
import { metricName } from './name.js';
import { dropReason, formatFloat, pointLabels, resourceLabels, seriesLabels, withLabels, type DropReason, type Label, type TranslateOptions } from './translate.js';

/** Entries (series, points, resources, metric names, attribute keys and values) kept between batches at most: some tens of MB. */
export const MAX_KEPT = 200_000;

/** Prometheus's staleness marker: a NaN with these bits, which a NaN made in JS does not have. */
const STALE_NAN = 0x7ff0000000000002n;
const NO_RECORDED_VALUE = 1;

/** One label as a TimeSeries field, tag and length included, and where it was last written. */
type Pair = Written;

interface SeriesState {
  pairs: readonly Pair[];
  labelBytes: number;
  /** The encode whose samples the series holds. */
  encode: number;
  /** value, timestamp (ms), stale (1 or 0) of each sample in this encode: a series has mostly one a batch, so the first is kept apart from the array. */
  value: number;
  ms: number;
  stale: number;
  more: number[];
}

/**
 * The series of one point: a number's one; a histogram's buckets (+Inf last), _sum and _count; a
 * summary's quantiles, _sum and _count. Found by the point's metric name and kind and its
 * attributes as they came (keys in their order, values as they are).
 */
interface PointSeries {
  name: string;
  kind: DataPointRow['kind'];
  /** Its attributes: key, value, key, value… as ids (RemoteWriteEncoder.id). */
  ids: readonly number[];
  /** Another point of the same hash. */
  next: PointSeries | undefined;
  /** The histogram's bounds or the summary's quantiles the series were made for. */
  shape: readonly number[];
  series: SeriesState[];
}

interface ResourceState {
  labels: ReturnType<typeof resourceLabels>;
  points: Map<number, PointSeries>;
  info: SeriesState | undefined;
  /** The encode it last had points in, and its latest point's time (ms) in it. */
  encode: number;
  latestMs: number;
}

export interface Encoded {
  /** Frames: a zero byte, a block's length as a varint, the block. Queued payloads put one after the other are one payload. */
  payload: Buffer;
  /** Data points left out, by reason. */
  dropped: Map<DropReason, number>;
}

const NO_SHAPE: readonly number[] = [];

/** Whether the series made for `shape` are the point's: the same bounds or quantiles. */
function fits(shape: readonly number[], row: DataPointRow): boolean {
  if (row.kind === 'histogram') {
    const bounds = row.explicitBounds;
    if (bounds.length !== shape.length) return false;
    for (let i = 0; i < bounds.length; i++) if (bounds[i] !== shape[i]) return false;
    return true;
  }
  if (row.kind !== 'summary') return true;
  const quantiles = row.quantiles;
  if (quantiles.length !== shape.length) return false;
  for (let i = 0; i < quantiles.length; i++) if ((quantiles[i] as { quantile: number }).quantile !== shape[i]) return false;
  return true;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function hashText(hash: number, text: string): number {
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME);
  return Math.imul(hash ^ 0xff, FNV_PRIME);
}

function sameIds(known: readonly number[], ids: readonly number[], count: number): boolean {
  if (known.length !== count) return false;
  for (let i = 0; i < count; i++) if (known[i] !== ids[i]) return false;
  return true;
}

/** A name and a value (or none) as text that no other pair of them makes, whatever characters they hold. */
function textKey(name: string, value: string | undefined): string {
  return value === undefined ? `${name.length}:${name}-` : `${name.length}:${name}${value.length}:${value}`;
}

function labelKey(labels: readonly Label[]): string {
  let key = '';
  for (const [name, value] of labels) key += textKey(name, value);
  return key;
}

export class RemoteWriteEncoder {
  private readonly external: readonly Label[];
  /** A metric's name by its type, monotonicity, unit and OTLP name. */
  private metrics = new Map<string, { name: string; hash: number }>();
  /** A resource's state by its attributes as text. */
  private resources = new Map<string, ResourceState>();
  /** Every series kept, by its labels as text: two points (or resources) may make one series. */
  private series = new Map<string, SeriesState>();
  private infos = new Map<string, SeriesState>();
  private pairs = new Map<string, Pair>();

  private readonly writer = new SnappyWriter();
  /** How many entries are kept (MAX_KEPT). */
  private kept = 0;
  private encodes = 0;
  private blocks = 0;
  /** The ids of the attributes of the point being looked up: key, value, key, value… */
  private readonly scratch: number[] = [];
  /** The keys of the point looked up last, in its order (their ids in `scratch`). */
  private readonly lastKeys: string[] = [];
  /** An id per attribute key and value seen: a primitive by itself (a bigint and a number by value), any other by its text. */
  private ids = new Map<AnyValue, number>();
  private lastResource: Resource | undefined;
  private lastResourceState: ResourceState | undefined;
  private lastMetric: Metric | undefined;
  private lastMetricName = { name: '', hash: 0 };
  private lastNanos = -1n;
  private lastMs = 0;

  constructor(
    private readonly options: TranslateOptions,
    /** Bytes a request holds at most, uncompressed, unless one series alone is larger. */
    private readonly maxBytes: number,
    private readonly keep = MAX_KEPT,
  ) {
    this.external = Object.entries(options.externalLabels);
  }

  encode(rows: readonly DataPointRow[]): Encoded {
    if (this.kept > this.keep) this.forget();
    const encode = ++this.encodes;
    const dropped = new Map<DropReason, number>();
    const touched: SeriesState[] = [];
    const resources: ResourceState[] = [];
    const add = (state: SeriesState, value: number, ms: number, stale: number): void => {
      if (state.encode === encode) {
        state.more.push(value, ms, stale);
        return;
      }
      state.encode = encode;
      state.value = value;
      state.ms = ms;
      state.stale = stale;
      if (state.more.length > 0) state.more.length = 0;
      touched.push(state);
    };
    for (const row of rows) {
      const reason = dropReason(row);
      if (reason !== undefined) {
        dropped.set(reason, (dropped.get(reason) ?? 0) + 1);
        continue;
      }
      const resource = this.resource(row.resource);
      const ms = this.millis(row.timeUnixNano);
      const stale = (row.flags & NO_RECORDED_VALUE) !== 0 ? 1 : 0;
      const point = this.point(resource, row);
      const series = point.series;
      switch (row.kind) {
        case 'number':
          add(series[0] as SeriesState, Number(row.value), ms, stale);
          break;
        case 'histogram': {
          const bounds = row.explicitBounds.length;
          let cumulative = 0;
          for (let i = 0; i < bounds; i++) {
            cumulative += row.bucketCounts[i] ?? 0;
            add(series[i] as SeriesState, cumulative, ms, stale);
          }
          add(series[bounds] as SeriesState, row.count, ms, stale);
          if (row.sum !== undefined) add(series[bounds + 1] as SeriesState, row.sum, ms, stale);
          add(series[bounds + 2] as SeriesState, row.count, ms, stale);
          break;
        }
        case 'summary': {
          const quantiles = row.quantiles.length;
          for (let i = 0; i < quantiles; i++) add(series[i] as SeriesState, (row.quantiles[i] as { value: number }).value, ms, stale);
          add(series[quantiles] as SeriesState, row.sum, ms, stale);
          add(series[quantiles + 1] as SeriesState, row.count, ms, stale);
          break;
        }
        default:
          break;
      }
      if (resource.encode !== encode) {
        resource.encode = encode;
        resource.latestMs = ms;
        resources.push(resource);
      } else if (ms > resource.latestMs) resource.latestMs = ms;
    }
    if (this.options.targetInfo) {
      // Once per label set, at the latest point of the resources that make it.
      for (const resource of resources) {
        const info = resource.info;
        if (info === undefined) continue;
        if (info.encode !== encode) add(info, 1, resource.latestMs, 0);
        else if (resource.latestMs > info.ms) info.ms = resource.latestMs;
      }
    }
    return { payload: this.write(touched), dropped };
  }

  private forget(): void {
    this.metrics = new Map();
    this.ids = new Map();
    this.lastKeys.length = 0;
    this.lastResourceState = undefined;
    this.resources = new Map();
    this.series = new Map();
    this.infos = new Map();
    this.pairs = new Map();
    this.kept = 0;
  }

  private millis(nanos: bigint): number {
    if (nanos !== this.lastNanos) {
      this.lastNanos = nanos;
      this.lastMs = Number(nanos / 1_000_000n);
    }
    return this.lastMs;
  }

  private resource(resource: Resource): ResourceState {
    // A resource's points come one after another.
    if (resource === this.lastResource && this.lastResourceState !== undefined) return this.lastResourceState;
    const attributes = resource.attributes;
    let key = '';
    for (const name in attributes) key += textKey(name, valueText(attributes[name]));
    let state = this.resources.get(key);
    if (state === undefined) {
      const labels = resourceLabels(attributes, this.options.resourceLabels);
      let info: SeriesState | undefined;
      if (labels.info !== undefined && this.options.targetInfo) {
        const infoLabels = seriesLabels(withLabels(labels.info, this.external, true), 'target_info', undefined);
        const infoKey = labelKey(infoLabels);
        info = this.infos.get(infoKey);
        if (info === undefined) this.infos.set(infoKey, (info = this.newSeries(infoLabels)));
      }
      this.kept++;
      this.resources.set(key, (state = { labels, points: new Map(), info, encode: 0, latestMs: 0 }));
    }
    this.lastResource = resource;
    this.lastResourceState = state;
    return state;
  }

  private point(resource: ResourceState, row: DataPointRow): PointSeries {
    const metric = this.metric(row.metric);
    const name = metric.name;
    const attributes = row.attributes;
    // Found by the attributes as they came, each key and value as a number given to it the first
    // time it was seen: V8 hashes and compares the strings natively, faster than a key made of
    // them (a third of the encode) or a hash of their characters in JavaScript.
    let hash = metric.hash;
    let count = 0;
    const ids = this.scratch;
    const lastKeys = this.lastKeys;
    for (const key of Object.keys(attributes)) {
      // The points of a metric mostly have the same keys in the same order: a key the point before
      // had at this place has the id it had (still in `ids` until this point's is written there).
      let keyId: number;
      if (lastKeys[count >> 1] === key) keyId = ids[count] as number;
      else {
        keyId = this.id(key);
        lastKeys[count >> 1] = key;
      }
      const valueId = this.id(attributes[key] as AnyValue);
      hash = Math.imul(Math.imul(hash ^ keyId, FNV_PRIME) ^ valueId, FNV_PRIME);
      ids[count++] = keyId;
      ids[count++] = valueId;
    }
    const first = resource.points.get(hash);
    for (let known = first; known !== undefined; known = known.next) {
      if (known.name === name && known.kind === row.kind && sameIds(known.ids, ids, count) && fits(known.shape, row)) return known;
    }
    const shape = row.kind === 'histogram' ? [...row.explicitBounds] : row.kind === 'summary' ? row.quantiles.map((q) => q.quantile) : NO_SHAPE;
    const labels = pointLabels(attributes, resource.labels, this.external);
    const series: SeriesState[] = [];
    const one = (seriesName: string, extra?: Label): void => void series.push(this.seriesOf(seriesLabels(labels, seriesName, extra)));
    switch (row.kind) {
      case 'histogram':
        for (const bound of shape) one(`${name}_bucket`, ['le', formatFloat(bound)]);
        one(`${name}_bucket`, ['le', '+Inf']);
        one(`${name}_sum`);
        one(`${name}_count`);
        break;
      case 'summary':
        for (const quantile of shape) one(name, ['quantile', formatFloat(quantile)]);
        one(`${name}_sum`);
        one(`${name}_count`);
        break;
      default:
        one(name);
    }
    const point: PointSeries = { name, kind: row.kind, ids: ids.slice(0, count), shape, series, next: first };
    resource.points.set(hash, point);
    this.kept++;
    return point;
  }

  private id(value: AnyValue): number {
    const key = typeof value === 'object' ? (value === null ? null : (valueText(value) as string)) : value;
    let id = this.ids.get(key);
    if (id === undefined) {
      this.ids.set(key, (id = this.ids.size + 1));
      this.kept++;
    }
    return id;
  }

  private metric(metric: Metric): { name: string; hash: number } {
    // A metric's points come one after another.
    if (metric === this.lastMetric) return this.lastMetricName;
    // By what its name is made of, not by the object: every batch brings new Metric objects, and working their names out again took a tenth of the encode.
    const key = `${metric.type}${metric.isMonotonic ? '+' : '-'}${metric.unit.length}:${metric.unit}${metric.name}`;
    let known = this.metrics.get(key);
    if (known === undefined) {
      const name = metricName(metric, this.options);
      this.metrics.set(key, (known = { name, hash: hashText(FNV_OFFSET, name) }));
      this.kept++;
    }
    this.lastMetric = metric;
    this.lastMetricName = known;
    return known;
  }

  private seriesOf(labels: readonly Label[]): SeriesState {
    const key = labelKey(labels);
    let state = this.series.get(key);
    if (state === undefined) this.series.set(key, (state = this.newSeries(labels)));
    return state;
  }

  private newSeries(labels: readonly Label[]): SeriesState {
    const pairs = labels.map(([name, value]) => this.pair(name, value));
    let labelBytes = 0;
    for (const pair of pairs) labelBytes += pair.bytes.length;
    this.kept++;
    return { pairs, labelBytes, encode: 0, value: 0, ms: 0, stale: 0, more: [] };
  }

  private pair(name: string, value: string): Pair {
    const key = textKey(name, value);
    let pair = this.pairs.get(key);
    if (pair !== undefined) return pair;
    const bytes = labelPairField(0x0a, name, value);
    this.pairs.set(key, (pair = { bytes, block: 0, at: 0 }));
    return pair;
  }

  /** The touched series as WriteRequest blocks, one after another, a new block before one would pass maxBytes. */
  private write(touched: readonly SeriesState[]): Buffer {
    const w = this.writer;
    const frames: Buffer[] = [];
    let block = ++this.blocks;
    const last: LastSample = { valueBlock: 0, value: 0, stale: 0, valueAt: 0, msBlock: 0, ms: 0, msAt: 0 };
    w.start();
    for (const state of touched) {
      let size = state.labelBytes;
      // More than one sample: all of them in time order, the first among them.
      let samples: number[] | undefined;
      if (state.more.length === 0) size += sampleSize(state.ms);
      else {
        samples = [state.value, state.ms, state.stale, ...state.more];
        if (!inTimeOrder(samples)) sortSamples(samples);
        for (let i = 1; i < samples.length; i += 3) size += sampleSize(samples[i] as number);
      }
      if (w.length > 0 && w.length + fieldSize(size) > this.maxBytes) {
        frames.push(w.block(FRAME));
        block = ++this.blocks;
      }
      w.head(0x0a, size);
      const pairs = state.pairs;
      for (let i = 0; i < pairs.length; i++) w.again(pairs[i] as Pair, block);
      if (samples === undefined) writeSample(w, block, last, state.value, state.ms, state.stale);
      else for (let i = 0; i < samples.length; i += 3) writeSample(w, block, last, samples[i] as number, samples[i + 1] as number, samples[i + 2] as number);
    }
    if (w.length > 0) frames.push(w.block(FRAME));
    return frames.length === 1 ? (frames[0] as Buffer) : Buffer.concat(frames);
  }
}

/** The last sample written in a block: where its value's and its timestamp's bytes are, for the next to copy. */
interface LastSample {
  valueBlock: number;
  value: number;
  stale: number;
  valueAt: number;
  msBlock: number;
  ms: number;
  msAt: number;
}

function writeSample(w: SnappyWriter, block: number, last: LastSample, value: number, ms: number, stale: number): void {
  const at = w.room(3);
  w.buf[at] = 0x12;
  w.buf[at + 1] = sampleSize(ms) - 2;
  w.buf[at + 2] = 0x09;
  w.pos = at + 3;
  // Most samples of a body share their time and many their value with the sample before: a copy of its bytes.
  const valueAt = w.length;
  if (last.valueBlock === block && last.stale === stale && (stale === 1 || Object.is(last.value, value))) w.copy(last.valueAt, 8);
  else if (stale === 1) w.fixed64(STALE_NAN);
  else w.double(value);
  last.value = value;
  last.stale = stale;
  last.valueAt = valueAt;
  last.valueBlock = block;
  if (ms === 0) return;
  const msAt = w.length;
  if (last.msBlock === block && last.ms === ms) w.copy(last.msAt, sampleSize(ms) - 11);
  else {
    w.byte(0x10);
    if (ms > 0) w.varint(ms);
    else w.negativeVarint(BigInt(ms));
  }
  last.ms = ms;
  last.msAt = msAt;
  last.msBlock = block;
}

/** A Sample field's bytes: tag, length, the double's tag and 8 bytes, the timestamp's tag and varint (ten bytes when negative). */
function sampleSize(ms: number): number {
  return 11 + (ms === 0 ? 0 : 1 + (ms < 0 ? 10 : varintSize(ms)));
}

function inTimeOrder(samples: readonly number[]): boolean {
  for (let i = 4; i < samples.length; i += 3) if ((samples[i] as number) < (samples[i - 3] as number)) return false;
  return true;
}

/** Stable, as Array.prototype.sort is: points of one time keep the order they came in. */
function sortSamples(samples: number[]): void {
  const triples: number[][] = [];
  for (let i = 0; i < samples.length; i += 3) triples.push(samples.slice(i, i + 3));
  triples.sort((a, b) => (a[1] as number) - (b[1] as number));
  samples.length = 0;
  for (const triple of triples) samples.push(...triple);
}

/**
 * A queued payload as frames: as it is, or, queued by an otelgate before this one, an
 * ExportMetricsServiceRequest translated now, with the settings of now: what of it can be read, as
 * that otelgate sent it.
 */
export function queuedFrames(payload: Uint8Array, encoder: RemoteWriteEncoder): Encoded {
  const bytes = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  if (bytes.length === 0 || bytes[0] === FRAME) return { payload: bytes, dropped: new Map() };
  return encoder.encode(decodeOtlp('metrics', 'protobuf', bytes).rows as readonly DataPointRow[]);
}

/**
 * The requests of queued payloads (encode's, one after another): their blocks joined in order into
 * bodies of at most `maxBytes` uncompressed, a block larger than that alone. Throws for bytes that
 * are not frames.
 */
export function requestBodies(payload: Uint8Array, maxBytes: number): Buffer[] {
  const bodies: Buffer[] = [];
  let group: Uint8Array[] = [];
  let groupBytes = 0;
  for (const block of frameBlocks(payload)) {
    const bytes = blockLength(block).length;
    if (group.length > 0 && groupBytes + bytes > maxBytes) {
      bodies.push(joinBlocks(group));
      group = [];
      groupBytes = 0;
    }
    group.push(block);
    groupBytes += bytes;
  }
  if (group.length > 0) bodies.push(joinBlocks(group));
  return bodies;
}
