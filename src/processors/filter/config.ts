// Settings of the filter processor, the Collector's shape: OTTL conditions per kind of row, and
// what to do when a condition cannot be evaluated on a row (error_mode).
import Type, { type Static } from 'typebox';
import type { SettingsProblem } from '../../runtime/component.js';
import { compileLogConditions } from './conditions.js';

export const ERROR_MODES = ['ignore', 'silent', 'propagate'] as const;

export const filterSchema = Type.Object(
  {
    error_mode: Type.Enum(ERROR_MODES, {
      default: 'propagate',
      description: 'A condition that cannot be evaluated on a row (a converter given the wrong type): ignore logs it and keeps the row, silent keeps it without a log, propagate refuses the whole batch for good.',
    }),
    logs: Type.Object(
      {
        log_record: Type.Array(Type.String({ minLength: 1 }), { default: [], description: 'OTTL conditions in the log context; a log record that matches any of them is dropped.' }),
        include: Type.Optional(Type.Unknown()),
        exclude: Type.Optional(Type.Unknown()),
      },
      { additionalProperties: false, default: {} },
    ),
    traces: Type.Optional(Type.Unknown()),
    metrics: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);

export type FilterConfig = Static<typeof filterSchema>;

export function validateFilter(config: FilterConfig): SettingsProblem[] {
  const problems: SettingsProblem[] = [];
  for (const legacy of ['include', 'exclude'] as const) {
    if (config.logs[legacy] !== undefined) {
      problems.push({ path: ['logs', legacy], message: 'the older include/exclude matching is not supported in otelgate; write it as OTTL conditions under logs.log_record, e.g. \'resource.attributes["service.name"] == "checkout"\'' });
    }
  }
  for (const signal of ['traces', 'metrics'] as const) {
    if (config[signal] !== undefined) problems.push({ path: [signal], message: `otelgate's filter takes log conditions only so far (logs.log_record); remove ${signal}, or filter ${signal} before they reach otelgate` });
  }
  const compiled = compileLogConditions(config.logs.log_record);
  if ('problems' in compiled) problems.push(...compiled.problems);
  return problems;
}
