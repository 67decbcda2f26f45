// OTLP data points as Prometheus series, by the translation the Collector's prometheusremotewrite
// exporter and Prometheus's own OTLP receiver do: gauges and cumulative sums as samples (a
// monotonic sum as a counter, `_total`; a non-monotonic one as a gauge), histograms as cumulative
// `_bucket{le}` with `+Inf`, `_sum` and `_count`, summaries as `{quantile}`, `_sum` and `_count`;
// `job` and `instance` from the resource, its other attributes in `target_info`. What remote write
// 1.0 cannot carry as such is dropped and counted by reason: delta (and unspecified) temporality,
// which must never pass for cumulative, and exponential histograms.
import type { Attributes } from '../../model/anyvalue.js';
import { valueText } from '../../model/json.js';
import type { DataPointRow, Metric } from '../../model/metrics.js';
import type { Resource } from '../../model/resource.js';
import { labelName } from '../helper/label-name.js';
import { metricName, type NameOptions } from './name.js';

export type Label = readonly [string, string];

export interface Sample {
  value: number;
  timestampMs: number;
  /** OTLP's "no recorded value" flag: written as Prometheus's staleness marker. */
  stale: boolean;
}

export interface Series {
  /** Sorted by name, __name__ among them. */
  labels: readonly Label[];
  samples: Sample[];
}

export type DropReason = 'delta_temporality' | 'unspecified_temporality' | 'exponential_histogram';

export interface Translation {
  series: Series[];
  /** Data points left out, by reason. */
  dropped: Map<DropReason, number>;
}

export interface TranslateOptions extends NameOptions {
  externalLabels: Readonly<Record<string, string>>;
  /** resource_to_telemetry_conversion: every resource attribute on every series. */
  resourceLabels: boolean;
  targetInfo: boolean;
}

const NO_RECORDED_VALUE = 1;
const IDENTIFYING = new Set(['service.name', 'service.namespace', 'service.instance.id']);

/** A float as Go's strconv.FormatFloat(x, 'f', -1, 64) writes it, as Prometheus's `le` and `quantile` labels are written; +Inf as "+Inf". */
export function formatFloat(x: number): string {
  if (x === Infinity) return '+Inf';
  if (x === -Infinity) return '-Inf';
  if (Number.isNaN(x)) return 'NaN';
  const text = String(Math.abs(x));
  const e = text.indexOf('e');
  if (e === -1) return String(x);
  // JS writes |x| ≥ 1e21 and < 1e-6 as d.ddde±k, with the same shortest digits Go uses: place the point.
  const digits = text.slice(0, e).replace('.', '');
  const point = 1 + Number(text.slice(e + 1));
  const sign = x < 0 ? '-' : '';
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

const byName = (a: Label, b: Label): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/**
 * Attributes as labels, sorted by name; two keys that become one name give it both values joined
 * by ";" in the order of the keys, as the Collector does. `keep` leaves keys out.
 */
function attributeLabels(attributes: Attributes, keep?: (key: string) => boolean): Label[] {
  const pairs: [string, string, string][] = [];
  for (const key in attributes) {
    if (keep !== undefined && !keep(key)) continue;
    const value = valueText(attributes[key]);
    if (value !== undefined) pairs.push([labelName(key), value, key]);
  }
  if (pairs.length < 2) return pairs.map(([name, value]) => [name, value]);
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0));
  const labels: [string, string][] = [];
  for (const [name, value] of pairs) {
    const last = labels[labels.length - 1];
    if (last !== undefined && last[0] === name) last[1] = `${last[1]};${value}`;
    else labels.push([name, value]);
  }
  return labels;
}

/** `labels` (sorted) with `more` set over them, still sorted; `onlyIfAbsent` leaves a name that is there as it is. */
function withLabels(labels: readonly Label[], more: readonly Label[], onlyIfAbsent = false): Label[] {
  if (more.length === 0) return labels as Label[];
  const out = new Map<string, string>(labels);
  for (const [name, value] of more) if (!onlyIfAbsent || !out.has(name)) out.set(name, value);
  return [...out].sort(byName);
}

/** The labels of one series: a point's labels with __name__ and the translation's le or quantile, which replaces a point attribute of that name; sorted. */
function seriesLabels(base: readonly Label[], name: string, extra: Label | undefined): Label[] {
  const labels: Label[] = extra === undefined ? [...base] : base.filter(([n]) => n !== extra[0]);
  labels.push(['__name__', name]);
  if (extra !== undefined) labels.push(extra);
  return labels.sort(byName);
}

/** The series of one label set (a point's attributes and resource) by name and le or quantile. */
interface PointSeries {
  labels: Label[];
  series: Map<string, Series>;
}

interface ResourceLabels {
  /** job and instance (and with resourceLabels every attribute), to put on each of its series. */
  own: readonly Label[];
  /** target_info's labels but its name, sorted, when it has any attribute besides those that make job and instance. */
  info: readonly Label[] | undefined;
}

export class Translator {
  private readonly names = new WeakMap<Metric, string>();
  private readonly resources = new WeakMap<Resource, ResourceLabels>();

  private readonly external: readonly Label[];

  constructor(private readonly options: TranslateOptions) {
    this.external = Object.entries(options.externalLabels);
  }

  translate(rows: readonly DataPointRow[]): Translation {
    const groups = new Map<string, PointSeries>();
    const dropped = new Map<DropReason, number>();
    const latest = new Map<Resource, number>();
    const drop = (reason: DropReason): void => void dropped.set(reason, (dropped.get(reason) ?? 0) + 1);
    for (const row of rows) {
      const metric = row.metric;
      if (row.kind === 'exponential_histogram') {
        drop('exponential_histogram');
        continue;
      }
      if (metric.type === 'sum' || metric.type === 'histogram') {
        if (metric.temporality === 1) {
          drop('delta_temporality');
          continue;
        }
        if (metric.temporality !== 2) {
          drop('unspecified_temporality');
          continue;
        }
      }
      const timestampMs = Number(row.timeUnixNano / 1_000_000n);
      const stale = (row.flags & NO_RECORDED_VALUE) !== 0;
      const group = this.group(row, groups);
      const name = this.name(metric);
      switch (row.kind) {
        case 'number':
          addSample(group, name, undefined, Number(row.value), timestampMs, stale);
          break;
        case 'histogram': {
          const bucket = `${name}_bucket`;
          let cumulative = 0;
          for (let i = 0; i < row.explicitBounds.length; i++) {
            cumulative += row.bucketCounts[i] ?? 0;
            addSample(group, bucket, ['le', formatFloat(row.explicitBounds[i] as number)], cumulative, timestampMs, stale);
          }
          addSample(group, bucket, ['le', '+Inf'], row.count, timestampMs, stale);
          if (row.sum !== undefined) addSample(group, `${name}_sum`, undefined, row.sum, timestampMs, stale);
          addSample(group, `${name}_count`, undefined, row.count, timestampMs, stale);
          break;
        }
        case 'summary':
          for (const { quantile, value } of row.quantiles) addSample(group, name, ['quantile', formatFloat(quantile)], value, timestampMs, stale);
          addSample(group, `${name}_sum`, undefined, row.sum, timestampMs, stale);
          addSample(group, `${name}_count`, undefined, row.count, timestampMs, stale);
          break;
      }
      latest.set(row.resource, Math.max(latest.get(row.resource) ?? 0, timestampMs));
    }
    const out: Series[] = [];
    for (const group of groups.values()) for (const series of group.series.values()) out.push(series);
    if (this.options.targetInfo) out.push(...this.targetInfo(latest));
    for (const s of out) if (!inTimeOrder(s.samples)) s.samples.sort((a, b) => a.timestampMs - b.timestampMs);
    return { series: out, dropped };
  }

  /** The point's labels (its attributes, its resource's job and instance over them, then the external labels where no label of that name is), and their series so far. */
  private group(row: DataPointRow, groups: Map<string, PointSeries>): PointSeries {
    let labels = attributeLabels(row.attributes);
    labels = withLabels(labels, this.resourceLabels(row.resource).own);
    labels = withLabels(labels, this.external, true);
    let key = '';
    for (const [name, value] of labels) key += `${name}\u0000${value}\u0001`;
    let group = groups.get(key);
    if (group === undefined) groups.set(key, (group = { labels: labels.filter(([name]) => name !== '__name__'), series: new Map() }));
    return group;
  }

  private name(metric: Metric): string {
    let name = this.names.get(metric);
    if (name === undefined) this.names.set(metric, (name = metricName(metric, this.options)));
    return name;
  }

  private resourceLabels(resource: Resource): ResourceLabels {
    let labels = this.resources.get(resource);
    if (labels !== undefined) return labels;
    const attributes = resource.attributes;
    const service = valueText(attributes['service.name']);
    const namespace = valueText(attributes['service.namespace']);
    const instance = valueText(attributes['service.instance.id']);
    const identity: Label[] = [];
    if (service !== undefined) identity.push(['job', namespace === undefined ? service : `${namespace}/${service}`]);
    if (instance !== undefined) identity.push(['instance', instance]);
    const own = this.options.resourceLabels ? withLabels(attributeLabels(attributes), identity) : identity;
    const others = Object.keys(attributes).some((key) => !IDENTIFYING.has(key));
    const info = identity.length > 0 && others ? withLabels(attributeLabels(attributes, (key) => !IDENTIFYING.has(key)), identity) : undefined;
    this.resources.set(resource, (labels = { own, info }));
    return labels;
  }

  /** One target_info series per resource that has attributes besides job and instance: value 1, at the resource's latest point. */
  private targetInfo(latest: ReadonlyMap<Resource, number>): Series[] {
    const out = new Map<string, Series>();
    for (const [resource, timestampMs] of latest) {
      const info = this.resourceLabels(resource).info;
      if (info === undefined) continue;
      const labels = seriesLabels(withLabels(info, this.external, true), 'target_info', undefined);
      const key = labels.map(([n, v]) => `${n}\u0000${v}`).join('\u0001');
      const found = out.get(key);
      if (found === undefined) out.set(key, { labels, samples: [{ value: 1, timestampMs, stale: false }] });
      else if ((found.samples[0] as Sample).timestampMs < timestampMs) (found.samples[0] as Sample).timestampMs = timestampMs;
    }
    return [...out.values()];
  }
}

function addSample(group: PointSeries, name: string, extra: Label | undefined, value: number, timestampMs: number, stale: boolean): void {
  const key = extra === undefined ? name : `${name}\u0000${extra[1]}`;
  let series = group.series.get(key);
  if (series === undefined) group.series.set(key, (series = { labels: seriesLabels(group.labels, name, extra), samples: [] }));
  series.samples.push({ value, timestampMs, stale });
}

function inTimeOrder(samples: readonly Sample[]): boolean {
  for (let i = 1; i < samples.length; i++) if ((samples[i] as Sample).timestampMs < (samples[i - 1] as Sample).timestampMs) return false;
  return true;
}
