// Settings of the resource processor, the Collector's: a list of attribute actions on the resource.
import Type, { type Static } from 'typebox';
import type { SettingsProblem } from '../../runtime/component.js';
import { actionSchema, compileActions } from '../helper/actions.js';

export const resourceSchema = Type.Object(
  {
    attributes: Type.Array(actionSchema, { default: [], description: 'Actions on the resource\'s attributes, in order: insert, update, upsert, delete, hash, extract, convert.' }),
  },
  { additionalProperties: false },
);

export type ResourceConfig = Static<typeof resourceSchema>;

export function validateResource(config: ResourceConfig): SettingsProblem[] {
  // The Collector's Validate refuses a resource processor without actions: it would do nothing.
  if (config.attributes.length === 0) return [{ path: ['attributes'], message: 'missing required field "attributes": give at least one action' }];
  const compiled = compileActions(config.attributes, 'attributes');
  return 'problems' in compiled ? compiled.problems : [];
}
