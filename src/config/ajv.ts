// One ajv instance for every settings schema: defaults are filled in while validating, and
// ajv's errors are turned into sentences that name the setting and, where they can, the fix.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { TSchema } from 'typebox';
import { isDuration } from './duration.js';
import { pointerToPath } from './path.js';
import { hint } from './suggest.js';

const ajv = new Ajv({ allErrors: true, useDefaults: true, verbose: true, strict: true });
ajv.addFormat('duration', { type: 'string', validate: isDuration });

const compiled = new WeakMap<TSchema, ValidateFunction>();

export function compile(schema: TSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

export interface SchemaProblem {
  path: (string | number)[];
  message: string;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  return `${typeof value} ${String(value)}`;
}

const TYPE_NAMES: Record<string, string> = {
  object: 'a mapping',
  array: 'a list',
  string: 'a string',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  null: 'empty',
};

function sentence(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String(params['additionalProperty']);
      const known = Object.keys((error.parentSchema?.['properties'] as object | undefined) ?? {});
      return `unknown setting "${key}".${hint(key, known, 'settings')}`;
    }
    case 'required':
      return `missing required setting "${String(params['missingProperty'])}"`;
    case 'type': {
      const types = String(params['type']).split(',').map((t) => TYPE_NAMES[t] ?? t);
      return `must be ${types.join(' or ')} (got ${describe(error.data)})`;
    }
    case 'enum': {
      const allowed = (params['allowedValues'] as unknown[]).map(String);
      const guess = typeof error.data === 'string' ? hint(error.data, allowed, 'values') : '';
      return `must be one of ${allowed.join(', ')} (got ${describe(error.data)})${guess.startsWith(' Did') ? `.${guess}` : ''}`;
    }
    case 'format':
      if (params['format'] === 'duration') return `must be a duration such as "500ms", "5s" or "1m30s" (got ${describe(error.data)})`;
      return `must be a valid ${String(params['format'])} (got ${describe(error.data)})`;
    case 'minItems':
      return `must list at least ${String(params['limit'])} item${params['limit'] === 1 ? '' : 's'}`;
    case 'anyOf':
    case 'oneOf':
      return `does not match any allowed form (got ${describe(error.data)})`;
    default:
      return `${error.message ?? 'is not valid'} (got ${describe(error.data)})`;
  }
}

/** Validates (filling defaults into `data`) and returns one problem per distinct mistake. */
export function check(schema: TSchema, data: unknown): SchemaProblem[] {
  const validate = compile(schema);
  if (validate(data)) return [];
  const errors = validate.errors ?? [];
  // Inside an anyOf, every branch reports its own failure; the anyOf's own error says it once,
  // unless the value has the type of one branch only (a mapping where a string or a mapping may
  // be): that branch's errors say what is wrong with it.
  const unions = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const said = new Set<ErrorObject>();
  const hidden: string[] = [];
  for (const union of unions) {
    const branch = typedBranch(errors, union);
    if (branch !== undefined) said.add(union);
    hidden.push(...branchesOf(errors, union).filter((b) => b !== branch));
  }
  const problems: SchemaProblem[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (said.has(error) || hidden.some((prefix) => error.schemaPath.startsWith(prefix))) continue;
    const path = pointerToPath(error.instancePath, data);
    if (error.keyword === 'additionalProperties') path.push(String((error.params as Record<string, unknown>)['additionalProperty']));
    if (error.keyword === 'required') path.push(String((error.params as Record<string, unknown>)['missingProperty']));
    const message = sentence(error);
    const key = `${path.join('\u0000')}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push({ path, message });
  }
  return problems;
}

/** The branches of `union` that have errors, each as its schema path with a trailing /. */
function branchesOf(errors: readonly ErrorObject[], union: ErrorObject): string[] {
  const prefix = `${union.schemaPath}/`;
  const branches = new Set<string>();
  for (const e of errors) if (e.schemaPath.startsWith(prefix)) branches.add(`${prefix}${e.schemaPath.slice(prefix.length).split('/')[0] ?? ''}/`);
  return [...branches];
}

/** The one branch of `union` whose type the value has, if only one has it. */
function typedBranch(errors: readonly ErrorObject[], union: ErrorObject): string | undefined {
  const typed = branchesOf(errors, union).filter((branch) => !errors.some((e) => e.schemaPath.startsWith(branch) && e.keyword === 'type' && e.instancePath === union.instancePath));
  return typed.length === 1 ? typed[0] : undefined;
}
