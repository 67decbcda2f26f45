// What the metrics view draws for a metric: which line of series.ts each type and mode takes, what
// its axis and its note say, and how a series is named in the legend and in the address.
import type { Attributes, AttributeValue, MetricSeries, MetricType } from '../rows.js';
import { attributeText } from './format.js';
import { hasQuantile, histogramCounts, histogramMeans, histogramQuantiles, rates, summaryQuantiles, unitLabel, values, withoutBuckets, type Line } from './series.js';

/** Series asked for at most (the read API's default). */
export const SERIES_LIMIT = 100;

/**
 * Points asked for a series at most (metric_series's max_points; it keeps a series' newest): the read
 * API's default, 1000, for a range up to an hour, which holds 360 points of a series sent every 10 s;
 * 200 for a longer one, where series hold more than that, so that SERIES_LIMIT series of histogram
 * points (a few hundred bytes each, a kilobyte with a hundred buckets) stay well under the 32 MiB an
 * answer stops at: a series then shows its newest points, which it says, rather than the answer
 * leaving out whole series.
 */
export function pointsPerSeries(fromNano: bigint, toNano: bigint): number {
  return toNano - fromNano <= 3_600_000_000_000n ? 1000 : 200;
}

/** How a histogram or a summary is drawn; gauges and sums have one way only. */
export type Mode = 'count' | 'mean' | 'quantile';

export const MODE_NAMES: Record<Mode, string> = { count: 'count', mean: 'mean (sum/count)', quantile: 'quantile' };

export const QUANTILES = ['0.5', '0.9', '0.95', '0.99'] as const;
export const DEFAULT_QUANTILE = '0.95';

/** The modes a type offers, its default first. */
export function modesOf(type: MetricType): Mode[] {
  switch (type) {
    case 'histogram':
      return ['count', 'mean', 'quantile'];
    case 'exponential_histogram':
      return ['count', 'mean'];
    case 'summary':
      return ['quantile', 'count', 'mean'];
    default:
      return [];
  }
}

/** The address's mode where the type offers it, else the type's default; undefined for gauges and sums. */
export function modeFor(type: MetricType, asked: string): Mode | undefined {
  const modes = modesOf(type);
  return modes.find((mode) => mode === asked) ?? modes[0];
}

/** The address's quantile where it is one of QUANTILES, else the default. */
export function quantileFor(asked: string): number {
  return Number((QUANTILES as readonly string[]).includes(asked) ? asked : DEFAULT_QUANTILE);
}

type Drawing = 'values' | 'rates' | 'counts' | 'means' | 'quantiles';

function lineOf(series: MetricSeries, drawing: Drawing, q: number): Line {
  const cumulative = series.temporality === 2;
  switch (series.type) {
    case 'gauge':
    case 'sum':
      return drawing === 'rates' ? rates(series.points) : values(series.points);
    case 'histogram':
      if (drawing === 'means') return histogramMeans(series.points, cumulative);
      if (drawing === 'quantiles') return histogramQuantiles(series.points, cumulative, q);
      return histogramCounts(series.points, cumulative);
    case 'exponential_histogram': {
      const points = withoutBuckets(series.points);
      return drawing === 'means' ? histogramMeans(points, cumulative) : histogramCounts(points, cumulative);
    }
    case 'summary': {
      if (drawing === 'quantiles') return summaryQuantiles(series.points, q);
      // A summary's count and sum are cumulative, whatever temporality says (OTLP gives it none).
      const points = withoutBuckets(series.points);
      return drawing === 'means' ? histogramMeans(points, true) : histogramCounts(points, true);
    }
  }
}

/** What a metric's series are drawn as: one line each (in their order), the y axis's label, and a sentence saying what the lines are. */
export interface Plot {
  lines: Line[];
  axis: string;
  note: string;
}

/** The fields of a metric that decide how it is drawn (a metric_names row has them, and so does each of its series). */
export interface MetricShape {
  type: MetricType;
  unit: string;
  temporality: number;
  is_monotonic: boolean;
}

const EXPONENTIAL = ' Exponential histograms are drawn as their count or their mean: no quantile is estimated from their buckets.';

export function plotOf(metric: MetricShape, series: readonly MetricSeries[], mode: Mode | undefined, q: number): Plot {
  const unit = unitLabel(metric.unit);
  const cumulative = metric.temporality === 2;
  const draw = (drawing: Drawing, axis: string, note: string): Plot => ({ lines: series.map((s) => lineOf(s, drawing, q)), axis, note });
  const counted = cumulative || metric.type === 'summary' ? 'Observations counted between one point and the next.' : 'Observations counted in each point’s interval.';
  const extra = metric.type === 'exponential_histogram' ? EXPONENTIAL : '';
  switch (metric.type) {
    case 'gauge':
      return draw('values', unit, 'Each point’s value, as recorded.');
    case 'sum':
      if (metric.is_monotonic && cumulative) return draw('rates', `${unit}/s`, 'A cumulative counter, drawn as its increase per second between one point and the next (a reset counts from zero).');
      return draw('values', unit, cumulative ? 'A sum that may go down: each point’s value, as recorded.' : 'A delta sum: each point’s value is what was counted in its own interval.');
    default:
      break;
  }
  if (mode === 'quantile' && metric.type === 'summary') {
    if (series.some((s) => s.type === 'summary' && hasQuantile(s.points, q))) return draw('quantiles', unit, `The ${q} quantile, as the SDK computed it.`);
    return draw('counts', 'count', `No point has the ${q} quantile: the count is drawn instead. ${counted}`);
  }
  if (mode === 'quantile') return draw('quantiles', unit, `The ${q} quantile of each interval, estimated from the buckets as Prometheus’s histogram_quantile does.`);
  if (mode === 'mean') return draw('means', unit, `The mean observation (sum / count) of each interval.${extra}`);
  return draw('counts', 'count', `${counted}${extra}`);
}

// ---- series: their names and their keys ----

/** A series in the legend: its attributes as key=value, after its service. */
export function seriesLabel(series: { service_name: string; attributes: Attributes }): string {
  const attributes = Object.entries(series.attributes).map(([key, value]) => `${key}=${attributeText(value)}`);
  const service = series.service_name === '' ? '(no service)' : series.service_name;
  return attributes.length === 0 ? service : `${service} · ${attributes.join(', ')}`;
}

/** Objects with their keys in order, at every depth: the same attributes, however ordered, are the same text. */
function sorted(value: AttributeValue): AttributeValue {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted(value[key] as AttributeValue)]),
  );
}

/** A series' identity within its metric: its service and attributes, as JSON text `["web",{"k":"v"}]`. */
export function seriesKey(series: { service_name: string; attributes: Attributes }): string {
  return JSON.stringify([series.service_name, sorted(series.attributes)]);
}

/** The address's text of a choice of series: a JSON array of their keys. */
export function selectionParam(keys: readonly string[]): string {
  return `[${keys.join(',')}]`;
}

const isAttributes = (value: unknown): value is Attributes => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The series keys an address chose; undefined (every series) when it chose none or its text is not a choice. */
export function parseSelection(param: string): Set<string> | undefined {
  if (param === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(param);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed)) return undefined;
  const keys = new Set<string>();
  for (const entry of parsed as unknown[]) {
    if (!Array.isArray(entry) || entry.length !== 2) continue;
    const [service, attributes] = entry as unknown[];
    if (typeof service === 'string' && isAttributes(attributes)) keys.add(seriesKey({ service_name: service, attributes }));
  }
  return keys;
}
