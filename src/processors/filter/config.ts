// Settings of the filter processor, the Collector's shape: OTTL conditions per kind of row, and
// what to do when a condition cannot be evaluated on a row (error_mode).
import Type, { type Static } from 'typebox';
import { dataPointContext } from '../../ottl/contexts/datapoint.js';
import { logContext } from '../../ottl/contexts/log.js';
import { metricContext } from '../../ottl/contexts/metric.js';
import { spanContext, spanEventContext } from '../../ottl/contexts/span.js';
import type { SettingsProblem } from '../../runtime/component.js';
import { compileConditions } from './conditions.js';

export const ERROR_MODES = ['ignore', 'silent', 'propagate'] as const;

const conditions = (description: string) => Type.Array(Type.String({ minLength: 1 }), { default: [], description });
const legacy = { include: Type.Optional(Type.Unknown()), exclude: Type.Optional(Type.Unknown()) };

export const filterSchema = Type.Object(
  {
    error_mode: Type.Enum(ERROR_MODES, {
      default: 'propagate',
      description: 'A condition that cannot be evaluated on a row (a converter given the wrong type): ignore logs it and counts it as not matching, silent the same without a log, propagate refuses the whole batch for good.',
    }),
    logs: Type.Object({ log_record: conditions('OTTL conditions in the log context; a log record that matches any of them is dropped.'), ...legacy }, { additionalProperties: false, default: {} }),
    traces: Type.Object(
      {
        span: conditions('OTTL conditions in the span context; a span that matches any of them is dropped, with its events.'),
        spanevent: conditions('OTTL conditions in the span event context; an event that matches any of them is dropped from its span.'),
        ...legacy,
      },
      { additionalProperties: false, default: {} },
    ),
    metrics: Type.Object(
      {
        metric: conditions('OTTL conditions in the metric context; a metric that matches any of them is dropped, with all its data points.'),
        datapoint: conditions('OTTL conditions in the data point context; a data point that matches any of them is dropped.'),
        ...legacy,
      },
      { additionalProperties: false, default: {} },
    ),
    // The older matching of spans and span events, at the top: read only to be refused with what to write.
    spans: Type.Optional(Type.Unknown()),
    span_events: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);

export type FilterConfig = Static<typeof filterSchema>;

/** Each kind of condition compiled, or the problems of those that do not compile. */
export function compiledFilter(config: FilterConfig) {
  return {
    logRecord: compileConditions(config.logs.log_record, logContext, ['logs', 'log_record']),
    span: compileConditions(config.traces.span, spanContext, ['traces', 'span']),
    spanEvent: compileConditions(config.traces.spanevent, spanEventContext, ['traces', 'spanevent']),
    metric: compileConditions(config.metrics.metric, metricContext, ['metrics', 'metric']),
    dataPoint: compileConditions(config.metrics.datapoint, dataPointContext, ['metrics', 'datapoint']),
  };
}

/** Where each signal's older include/exclude matching is written as OTTL conditions instead. */
const CONDITIONS_INSTEAD = [
  ['logs', 'logs.log_record'],
  ['traces', 'traces.span'],
  ['metrics', 'metrics.metric'],
] as const;

const OLDER_MATCHING = (instead: string): string =>
  `the older include/exclude matching is not supported in otelgate; write it as OTTL conditions under ${instead}, e.g. 'resource.attributes["service.name"] == "checkout"'`;

export function validateFilter(config: FilterConfig): SettingsProblem[] {
  const problems: SettingsProblem[] = [];
  for (const [signal, instead] of CONDITIONS_INSTEAD) {
    for (const old of ['include', 'exclude'] as const) {
      if (config[signal][old] !== undefined) {
        problems.push({ path: [signal, old], message: OLDER_MATCHING(instead) });
      }
    }
  }
  for (const [old, instead] of [['spans', 'traces.span'], ['span_events', 'traces.spanevent']] as const) {
    if (config[old] !== undefined) problems.push({ path: [old], message: OLDER_MATCHING(instead) });
  }
  for (const compiled of Object.values(compiledFilter(config))) if ('problems' in compiled) problems.push(...compiled.problems);
  return problems;
}
