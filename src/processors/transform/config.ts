// Settings of the transform processor, the Collector's shape: per signal, a list of OTTL
// statements (each a group of its own, its context inferred from its paths) or of groups
// ({context, error_mode, conditions, statements}); error_mode at the top and per group.
import Type, { type Static } from 'typebox';
import type { SettingsProblem } from '../../runtime/component.js';
import { ERROR_MODES } from '../filter/config.js';
import { compiledTransform } from './statements.js';

const errorMode = (fallback: string | undefined) =>
  Type.Enum(ERROR_MODES, {
    ...(fallback === undefined ? {} : { default: fallback }),
    description: 'A statement that fails on a row (a converter given the wrong type): ignore logs it and goes on with the next statement, silent the same without a log, propagate refuses the whole batch for good.',
  });

const group = (contexts: readonly string[]) =>
  Type.Union([
    Type.String({ minLength: 1, description: 'An OTTL statement; its context is inferred from its paths.' }),
    Type.Object(
      {
        context: Type.Optional(Type.Enum(contexts, { description: 'The context the statements run in; inferred from their paths when not given.' })),
        error_mode: Type.Optional(errorMode(undefined)),
        conditions: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'OTTL conditions, ORed: the statements run on a row only when one holds (all rows when there are none).' })),
        statements: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, description: 'OTTL statements, run in order on each row.' }),
      },
      { additionalProperties: false },
    ),
  ]);

export const LOG_CONTEXTS = ['log', 'resource', 'scope'] as const;
export const TRACE_CONTEXTS = ['span', 'resource', 'scope', 'spanevent'] as const;
export const METRIC_CONTEXTS = ['datapoint', 'metric', 'resource', 'scope'] as const;

export const transformSchema = Type.Object(
  {
    error_mode: errorMode('propagate'),
    log_statements: Type.Array(group(LOG_CONTEXTS), { default: [], description: 'Statements on log records.' }),
    trace_statements: Type.Array(group(TRACE_CONTEXTS), { default: [], description: 'Statements on spans.' }),
    metric_statements: Type.Array(group(METRIC_CONTEXTS), { default: [], description: 'Statements on metrics and their data points.' }),
    flatten_data: Type.Optional(Type.Boolean({ description: 'Accepted for the Collector\'s configs; otelgate\'s rows are flat already.' })),
  },
  { additionalProperties: false },
);

export type TransformConfig = Static<typeof transformSchema>;

export function validateTransform(config: TransformConfig): SettingsProblem[] {
  const problems: SettingsProblem[] = [];
  for (const signal of Object.values(compiledTransform(config))) if ('problems' in signal) problems.push(...signal.problems);
  return problems;
}
