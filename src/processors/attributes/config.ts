// Settings of the attributes processor, the Collector's: attribute actions on each log record,
// span or data point, and include/exclude properties that choose which rows they apply to.
import Type, { type Static } from 'typebox';
import type { SettingsProblem } from '../../runtime/component.js';
import { actionSchema, compileActions } from '../helper/actions.js';
import { compileMatch } from './match.js';

const strings = (description: string) => Type.Optional(Type.Array(Type.String(), { description }));
const keyValues = (description: string) => Type.Optional(Type.Array(Type.Object({ key: Type.String({ minLength: 1 }), value: Type.Optional(Type.Unknown()) }, { additionalProperties: false }), { description }));

export const matchSchema = Type.Object(
  {
    match_type: Type.Enum(['strict', 'regexp'], { description: 'strict: equal; regexp: the regular expression matches (anywhere in the text, as Go\'s).' }),
    services: strings('Values of the resource\'s service.name; any of them matches.'),
    resources: keyValues('Resource attributes; all of them must match (without a value: be there).'),
    attributes: keyValues('Attributes of the row; all of them must match (without a value: be there).'),
    libraries: Type.Optional(Type.Array(Type.Object({ name: Type.String(), version: Type.Optional(Type.String()) }, { additionalProperties: false }), { description: 'Instrumentation scopes by name (and version); any of them matches.' })),
    span_names: strings('Span names; any matches. A log record or data point never does.'),
    log_bodies: strings('Log bodies (as text); any matches. A span or data point never does.'),
    log_severity_texts: strings('Log severity texts; any matches. A span or data point never does.'),
    metric_names: strings('Metric names; any matches. A log record or span never does.'),
    span_kinds: Type.Optional(Type.Unknown()),
    log_severity_number: Type.Optional(Type.Unknown()),
    regexp: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);

export type MatchSettings = Static<typeof matchSchema>;

export const attributesSchema = Type.Object(
  {
    actions: Type.Array(actionSchema, { default: [], description: 'Actions on the attributes of each log record, span or data point, in order.' }),
    include: Type.Optional(matchSchema),
    exclude: Type.Optional(matchSchema),
  },
  { additionalProperties: false },
);

export type AttributesConfig = Static<typeof attributesSchema>;

export function validateAttributes(config: AttributesConfig): SettingsProblem[] {
  // The Collector refuses an attributes processor without actions when it makes it: it would do nothing.
  if (config.actions.length === 0) return [{ path: ['actions'], message: 'missing required field "actions": give at least one action' }];
  const problems: SettingsProblem[] = [];
  const actions = compileActions(config.actions, 'actions');
  if ('problems' in actions) problems.push(...actions.problems);
  for (const side of ['include', 'exclude'] as const) {
    const match = config[side];
    if (match === undefined) continue;
    const compiled = compileMatch(match, side);
    if ('problems' in compiled) problems.push(...compiled.problems);
  }
  return problems;
}
