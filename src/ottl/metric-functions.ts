// OTTL functions of the metric context only, by the Collector's names and behaviour: the filter
// processor's converters HasAttrOnDatapoint and HasAttrKeyOnDatapoint (internal/filter/filterottl),
// which read the attributes of a metric's points, and the transform processor's editors that change
// a metric's type (processor/transformprocessor/internal/metrics). The Collector's other metric
// editors are named, so that a statement using one is refused with that said.
import { attribute, type Attributes } from '../model/anyvalue.js';
import type { DataPointRow } from '../model/metrics.js';
import type { Converter } from './arguments.js';
import { draftMetric, type Drafting } from './contexts/draft.js';
import { EditorSettingsError, type Editor } from './editing.js';

/** What the converters read: the points of the metric being evaluated. */
interface WithPoints {
  readonly points: readonly DataPointRow[];
}

/**
 * As the Collector's checkDataPoints: the first point that has `key` decides, by its value's text
 * (pcommon's Str(): "" for a value that is not a string) against `expected`, when there is one.
 */
function pointsHave(points: readonly DataPointRow[], key: string, expected: string | undefined): boolean {
  for (const point of points) {
    const attributes: Attributes = point.attributes;
    const value = attribute(attributes, key);
    if (value === undefined) continue;
    if (expected === undefined) return true;
    return (typeof value === 'string' ? value : '') === expected;
  }
  return false;
}

/** The filter processor's converters of the metric context. */
export const DATAPOINT_ATTRIBUTE_CONVERTERS: Readonly<Record<string, Converter>> = {
  HasAttrOnDatapoint: {
    params: [
      { name: 'key', kind: 'literal string' },
      { name: 'expected_val', kind: 'literal string' },
    ],
    bind: ([key, expected]) => (ctx) => pointsHave((ctx as WithPoints).points, key as string, expected as string),
  },
  HasAttrKeyOnDatapoint: {
    params: [{ name: 'key', kind: 'literal string' }],
    bind: ([key]) => (ctx) => pointsHave((ctx as WithPoints).points, key as string, undefined),
  },
};

type MetricDraft = Drafting<DataPointRow>;

/** OTLP's AggregationTemporality by the names convert_gauge_to_sum takes. */
const TEMPORALITIES: Readonly<Record<string, number>> = { delta: 1, cumulative: 2 };

/**
 * The transform processor's editors of the metric context. Each changes the metric's type only: a
 * gauge's and a sum's points are the same number points, and otelgate keeps a metric's fields on
 * the one Metric its points share (rewritten once per batch, never in place).
 */
export const METRIC_EDITORS: Readonly<Record<string, Editor>> = {
  convert_sum_to_gauge: {
    params: [],
    bind: () => (ctx) => {
      const c = ctx as MetricDraft;
      if (c.row.metric.type !== 'sum') return;
      const metric = draftMetric(c);
      metric.type = 'gauge';
      // A gauge has neither temporality nor monotonicity: otelgate's Metric keeps 0 and false then.
      metric.temporality = 0;
      metric.isMonotonic = false;
    },
  },
  convert_gauge_to_sum: {
    params: [
      { name: 'string_agg_temp', kind: 'literal string' },
      { name: 'monotonic', kind: 'literal bool' },
    ],
    bind([aggregation, monotonic]) {
      const temporality = Object.hasOwn(TEMPORALITIES, aggregation as string) ? TEMPORALITIES[aggregation as string] : undefined;
      if (temporality === undefined) throw new EditorSettingsError(`unknown aggregation temporality: ${aggregation as string} (delta or cumulative)`);
      return (ctx) => {
        const c = ctx as MetricDraft;
        if (c.row.metric.type !== 'gauge') return;
        const metric = draftMetric(c);
        metric.type = 'sum';
        metric.temporality = temporality;
        metric.isMonotonic = monotonic as boolean;
      };
    },
  },
};

const NOT_YET = 'is one of the Collector\'s metric editors that otelgate does not have yet';

/** The Collector's metric and data point editors otelgate does not have, refused by name in both contexts. */
export const REFUSED_METRIC_EDITORS: Readonly<Record<string, string>> = Object.fromEntries(
  [
    'extract_sum_metric',
    'extract_count_metric',
    'extract_percentile_metric',
    'copy_metric',
    'scale_metric',
    'aggregate_on_attributes',
    'aggregate_on_attribute_value',
    'convert_exponential_histogram_to_histogram',
    'convert_summary_quantile_val_to_gauge',
    'convert_summary_sum_val_to_sum',
    'convert_summary_count_val_to_sum',
    'merge_histogram_buckets',
  ].map((name) => [name, NOT_YET]),
);

/** In the data point context: the metric editors, which run in the metric context (as in the Collector since v0.114). */
export const REFUSED_DATAPOINT_EDITORS: Readonly<Record<string, string>> = {
  ...REFUSED_METRIC_EDITORS,
  ...Object.fromEntries(Object.keys(METRIC_EDITORS).map((name) => [name, 'runs in the metric context: use metric paths (metric.name) in the statement, or give its group context: metric'])),
};
