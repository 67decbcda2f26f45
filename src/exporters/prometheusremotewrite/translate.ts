// OTLP data points as Prometheus series, by the translation the Collector's prometheusremotewrite
// exporter and Prometheus's own OTLP receiver do: gauges and cumulative sums as samples (a
// monotonic sum as a counter, `_total`; a non-monotonic one as a gauge), histograms as cumulative
// `_bucket{le}` with `+Inf`, `_sum` and `_count`, summaries as `{quantile}`, `_sum` and `_count`;
// `job` and `instance` from the resource, its other attributes in `target_info`. What remote write
// 1.0 cannot carry as such is dropped and counted by reason: delta (and unspecified) temporality,
// which must never pass for cumulative, and exponential histograms.
import type { Attributes } from '../../model/anyvalue.js';
import { valueText } from '../../model/json.js';
import type { DataPointRow } from '../../model/metrics.js';
import { labelName } from '../helper/label-name.js';
import type { NameOptions } from './name.js';

export type Label = readonly [string, string];

export type DropReason = 'delta_temporality' | 'unspecified_temporality' | 'exponential_histogram';

export interface TranslateOptions extends NameOptions {
  externalLabels: Readonly<Record<string, string>>;
  /** resource_to_telemetry_conversion: every resource attribute on every series. */
  resourceLabels: boolean;
  targetInfo: boolean;
}

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
export function attributeLabels(attributes: Attributes, keep?: (key: string) => boolean): Label[] {
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
export function withLabels(labels: readonly Label[], more: readonly Label[], onlyIfAbsent = false): Label[] {
  if (more.length === 0) return labels as Label[];
  const out = new Map<string, string>(labels);
  for (const [name, value] of more) if (!onlyIfAbsent || !out.has(name)) out.set(name, value);
  return [...out].sort(byName);
}

/** The labels of one series: a point's labels with __name__ and the translation's le or quantile, which replaces a point attribute of that name; sorted. */
export function seriesLabels(base: readonly Label[], name: string, extra: Label | undefined): Label[] {
  const labels: Label[] = extra === undefined ? [...base] : base.filter(([n]) => n !== extra[0]);
  labels.push(['__name__', name]);
  if (extra !== undefined) labels.push(extra);
  return labels.sort(byName);
}


export interface ResourceLabels {
  /** job and instance (and with resourceLabels every attribute), to put on each of its series. */
  own: readonly Label[];
  /** target_info's labels but its name, sorted, when it has any attribute besides those that make job and instance. */
  info: readonly Label[] | undefined;
}

export function resourceLabels(attributes: Attributes, everyAttribute: boolean): ResourceLabels {
  const service = valueText(attributes['service.name']);
  const namespace = valueText(attributes['service.namespace']);
  const instance = valueText(attributes['service.instance.id']);
  const identity: Label[] = [];
  if (service !== undefined) identity.push(['job', namespace === undefined ? service : `${namespace}/${service}`]);
  if (instance !== undefined) identity.push(['instance', instance]);
  const own = everyAttribute ? withLabels(attributeLabels(attributes), identity) : identity;
  const others = Object.keys(attributes).some((key) => !IDENTIFYING.has(key));
  const info = identity.length > 0 && others ? withLabels(attributeLabels(attributes, (key) => !IDENTIFYING.has(key)), identity) : undefined;
  return { own, info };
}

/** A point's labels but __name__: its attributes, its resource's over them, then the external labels where no label of that name is. */
export function pointLabels(attributes: Attributes, resource: ResourceLabels, external: readonly Label[]): Label[] {
  const labels = withLabels(withLabels(attributeLabels(attributes), resource.own), external, true);
  return labels.filter(([name]) => name !== '__name__');
}

/** Why remote write 1.0 cannot carry a point as it is, or undefined when it can. */
export function dropReason(row: DataPointRow): DropReason | undefined {
  if (row.kind === 'exponential_histogram') return 'exponential_histogram';
  const { type, temporality } = row.metric;
  if (type !== 'sum' && type !== 'histogram') return undefined;
  if (temporality === 1) return 'delta_temporality';
  return temporality === 2 ? undefined : 'unspecified_temporality';
}
