// `otelgate schema`: prints the JSON Schema of the pipeline YAML for editors.
import { builtinRegistry } from '../components.js';
import { pipelineJsonSchema } from '../config/jsonschema.js';

export function schemaCommand(): number {
  process.stdout.write(`${JSON.stringify(pipelineJsonSchema(builtinRegistry()), null, 2)}\n`);
  return 0;
}
