// The JSON Schema of a whole pipeline YAML, built from the registry's settings schemas, so that
// editors (the YAML language server) validate and complete configs. Written to config/otelgate.schema.json.
import { KINDS } from '../runtime/component.js';
import type { Registry } from '../runtime/registry.js';
import { ConfigSchema } from './schema.js';

const SECTIONS = { receiver: 'receivers', processor: 'processors', exporter: 'exporters', extension: 'extensions' } as const;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

type Schema = Record<string, unknown>;

/**
 * A copy in which a setting with a default is not `required`: otelgate fills defaults before it
 * checks, an editor does not. Walks every nested schema.
 */
function forEditors(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forEditors);
  if (node === null || typeof node !== 'object') return node;
  const out: Schema = {};
  for (const [key, value] of Object.entries(node as Schema)) out[key] = forEditors(value);
  const properties = out['properties'] as Record<string, Schema> | undefined;
  if (Array.isArray(out['required']) && properties !== undefined) {
    const required = (out['required'] as string[]).filter((name) => properties[name]?.['default'] === undefined);
    if (required.length > 0) out['required'] = required;
    else delete out['required'];
  }
  return out;
}

export function pipelineJsonSchema(registry: Registry): Record<string, unknown> {
  const schema = forEditors(ConfigSchema) as { properties: Schema } & Schema;
  for (const kind of KINDS) {
    const patternProperties: Record<string, unknown> = {};
    for (const factory of registry.list(kind)) {
      const settings = { ...(forEditors(factory.schema) as Schema), description: factory.description };
      patternProperties[`^${escapeRegExp(factory.type)}(/[^\\s/]+)?$`] = { anyOf: [settings, { type: 'null' }] };
    }
    schema.properties[SECTIONS[kind]] = {
      type: ['object', 'null'],
      description: `${kind} components by id: type or type/name`,
      patternProperties,
      additionalProperties: false,
    };
  }
  return { $schema: 'http://json-schema.org/draft-07/schema#', title: 'otelgate pipeline config', ...schema };
}
