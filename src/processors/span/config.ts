// Settings of the span processor, named and checked as the Collector's (contrib) `span` processor.
import Type, { type Static } from 'typebox';
import type { SettingsProblem } from '../../runtime/component.js';

export const spanSchema = Type.Object(
  {
    name: Type.Object(
      {
        from_attributes: Type.Array(Type.String(), {
          default: [],
          description: 'Attribute keys whose values, in this order, become the span name; a span lacking any of them keeps its name.',
        }),
        separator: Type.String({ default: '', description: 'Put between the values of from_attributes.' }),
        to_attributes: Type.Optional(
          Type.Object(
            {
              rules: Type.Array(Type.String(), {
                minItems: 1,
                description: 'Regular expressions with named groups; each group that matches the name becomes an attribute and is replaced by {group} in the name.',
              }),
              break_after_match: Type.Boolean({ default: false, description: 'Stop at the first rule that matches.' }),
              keep_original_name: Type.Boolean({ default: false, description: 'Extract the attributes but leave the name as it was.' }),
            },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false, default: {} },
    ),
    status: Type.Optional(
      Type.Object(
        {
          code: Type.Enum(['Ok', 'Error', 'Unset'], { description: 'The status every span gets.' }),
          description: Type.String({ default: '', description: 'The status message; only with code Error.' }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export type SpanConfig = Static<typeof spanSchema>;

/** Go's RE2 spells a named group (?P<name>…); JavaScript (?<name>…). Both are accepted. */
export function compileRule(pattern: string): RegExp {
  return new RegExp(pattern.replaceAll('(?P<', '(?<'), 'd');
}

export function validateSpan(config: SpanConfig): SettingsProblem[] {
  const problems: SettingsProblem[] = [];
  const rules = config.name.to_attributes?.rules ?? [];
  if (config.name.from_attributes.length === 0 && rules.length === 0 && config.status === undefined) {
    problems.push({ path: [], message: 'nothing to do: set name.from_attributes, name.to_attributes.rules or status' });
  }
  rules.forEach((rule, i) => {
    try {
      compileRule(rule);
    } catch (error) {
      problems.push({ path: ['name', 'to_attributes', 'rules', i], message: `not a valid regular expression: ${(error as Error).message}` });
    }
  });
  if (config.status !== undefined && config.status.description !== '' && config.status.code !== 'Error') {
    problems.push({ path: ['status', 'description'], message: 'can be set only with code Error' });
  }
  return problems;
}
