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

/** Attributes as labels; two names that become one label join their values with ";" in the order of their keys, as the Collector does. */
function attributeLabels(attributes: Attributes, into: Map<string, string>, keys?: (key: string) => boolean): void {
  const names = Object.keys(attributes).sort();
  for (const key of names) {
    if (keys !== undefined && !keys(key)) continue;
    const value = valueText(attributes[key]);
    if (value === undefined) continue;
    const name = labelName(key);
    const before = into.get(name);
    into.set(name, before === undefined ? value : `${before};${value}`);
  }
}

interface ResourceLabels {
  /** job and instance (and with resourceLabels every attribute), to put on each of its series. */
  own: Map<string, string>;
  /** target_info's labels but its name, when it has any attribute besides those that make job and instance. */
  info: Map<string, string> | undefined;
}

export class Translator {
  private readonly names = new WeakMap<Metric, string>();
  private readonly resources = new WeakMap<Resource, ResourceLabels>();

  constructor(private readonly options: TranslateOptions) {}

  translate(rows: readonly DataPointRow[]): Translation {
    const series = new Map<string, Series>();
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
      const base = this.baseLabels(row);
      const name = this.name(metric);
      const add = (suffix: string, value: number, extra?: Label): void => {
        // le and quantile are the translation's: they replace a point attribute of that name.
        const labels: Label[] = extra === undefined ? [...base] : base.filter(([n]) => n !== extra[0]);
        labels.push(['__name__', name + suffix]);
        if (extra !== undefined) labels.push(extra);
        labels.sort(byName);
        const key = labels.map(([n, v]) => `${n}\u0000${v}`).join('\u0001');
        let found = series.get(key);
        if (found === undefined) series.set(key, (found = { labels, samples: [] }));
        found.samples.push({ value, timestampMs, stale });
      };
      switch (row.kind) {
        case 'number':
          add('', Number(row.value));
          break;
        case 'histogram': {
          let cumulative = 0;
          row.explicitBounds.forEach((bound, i) => {
            cumulative += row.bucketCounts[i] ?? 0;
            add('_bucket', cumulative, ['le', formatFloat(bound)]);
          });
          add('_bucket', row.count, ['le', '+Inf']);
          if (row.sum !== undefined) add('_sum', row.sum);
          add('_count', row.count);
          break;
        }
        case 'summary':
          for (const { quantile, value } of row.quantiles) add('', value, ['quantile', formatFloat(quantile)]);
          add('_sum', row.sum);
          add('_count', row.count);
          break;
      }
      latest.set(row.resource, Math.max(latest.get(row.resource) ?? 0, timestampMs));
    }
    const out = [...series.values()];
    if (this.options.targetInfo) out.push(...this.targetInfo(latest));
    for (const s of out) if (!inTimeOrder(s.samples)) s.samples.sort((a, b) => a.timestampMs - b.timestampMs);
    return { series: out, dropped };
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
    const own = new Map<string, string>();
    const service = valueText(attributes['service.name']);
    const namespace = valueText(attributes['service.namespace']);
    const instance = valueText(attributes['service.instance.id']);
    const identity = new Map<string, string>();
    if (service !== undefined) identity.set('job', namespace === undefined ? service : `${namespace}/${service}`);
    if (instance !== undefined) identity.set('instance', instance);
    if (this.options.resourceLabels) attributeLabels(attributes, own);
    for (const [name, value] of identity) own.set(name, value);
    const others = Object.keys(attributes).some((key) => !IDENTIFYING.has(key));
    let info: Map<string, string> | undefined;
    if (identity.size > 0 && others) {
      info = new Map();
      attributeLabels(attributes, info, (key) => !IDENTIFYING.has(key));
      for (const [name, value] of identity) info.set(name, value);
    }
    this.resources.set(resource, (labels = { own, info }));
    return labels;
  }

  /** The point's attributes, its resource's job and instance over them, then the external labels where no label of that name is. */
  private baseLabels(row: DataPointRow): Label[] {
    const labels = new Map<string, string>();
    attributeLabels(row.attributes, labels);
    for (const [name, value] of this.resourceLabels(row.resource).own) labels.set(name, value);
    for (const [name, value] of Object.entries(this.options.externalLabels)) if (!labels.has(name)) labels.set(name, value);
    labels.delete('__name__');
    return [...labels];
  }

  /** One target_info series per resource that has attributes besides job and instance: value 1, at the resource's latest point. */
  private targetInfo(latest: ReadonlyMap<Resource, number>): Series[] {
    const out = new Map<string, Series>();
    for (const [resource, timestampMs] of latest) {
      const info = this.resourceLabels(resource).info;
      if (info === undefined) continue;
      const labels: Label[] = [...info, ['__name__', 'target_info']];
      for (const [name, value] of Object.entries(this.options.externalLabels)) if (!info.has(name)) labels.push([name, value]);
      labels.sort(byName);
      const key = labels.map(([n, v]) => `${n}\u0000${v}`).join('\u0001');
      const found = out.get(key);
      if (found === undefined) out.set(key, { labels, samples: [{ value: 1, timestampMs, stale: false }] });
      else if ((found.samples[0] as Sample).timestampMs < timestampMs) (found.samples[0] as Sample).timestampMs = timestampMs;
    }
    return [...out.values()];
  }
}

function inTimeOrder(samples: readonly Sample[]): boolean {
  for (let i = 1; i < samples.length; i++) if ((samples[i] as Sample).timestampMs < (samples[i - 1] as Sample).timestampMs) return false;
  return true;
}
