// Settings of the filter processor, the Collector's shape: OTTL conditions per kind of row, and
// what to do when a condition cannot be evaluated on a row (error_mode).
import Type, { type Static } from 'typebox';
import { logContext } from '../../ottl/contexts/log.js';
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
    metrics: Type.Optional(Type.Unknown()),
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
  };
}

export function validateFilter(config: FilterConfig): SettingsProblem[] {
  const problems: SettingsProblem[] = [];
  for (const signal of ['logs', 'traces'] as const) {
    for (const old of ['include', 'exclude'] as const) {
      if (config[signal][old] !== undefined) {
        problems.push({ path: [signal, old], message: `the older include/exclude matching is not supported in otelgate; write it as OTTL conditions under ${signal === 'logs' ? 'logs.log_record' : 'traces.span'}, e.g. 'resource.attributes["service.name"] == "checkout"'` });
      }
    }
  }
  if (config.metrics !== undefined) problems.push({ path: ['metrics'], message: 'otelgate\'s filter takes log and trace conditions only so far; remove metrics, or filter metrics before they reach otelgate' });
  for (const compiled of Object.values(compiledFilter(config))) if ('problems' in compiled) problems.push(...compiled.problems);
  return problems;
}
