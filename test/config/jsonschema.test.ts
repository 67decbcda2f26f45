import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { builtinRegistry } from '../../src/components.js';
import { isDuration } from '../../src/config/duration.js';
import { pipelineJsonSchema } from '../../src/config/jsonschema.js';
import { ROOT } from '../helpers/cli.js';

const generated = pipelineJsonSchema(builtinRegistry());
const ajv = new Ajv({ allErrors: true }).addFormat('duration', { type: 'string', validate: isDuration });
const validate = ajv.compile(generated);
const yaml = (file: string): unknown => parse(readFileSync(`${ROOT}/${file}`, 'utf8'));

describe('config/otelgate.schema.json', () => {
  it('is what the registry generates now (run npm run schema after changing a settings schema)', () => {
    expect(JSON.parse(readFileSync(`${ROOT}/config/otelgate.schema.json`, 'utf8'))).toEqual(generated);
  });

  it('accepts the shipped pipelines and the good test configs', () => {
    for (const file of ['pipelines/default.yaml', 'pipelines/sidecar-otlp.yaml', 'testdata/config/good_two_debug.yaml']) {
      expect(validate(yaml(file)), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it.each(['bad_unknown_type.yaml', 'bad_unknown_setting.yaml', 'bad_wrong_type.yaml', 'bad_wrong_enum.yaml', 'bad_duration.yaml', 'bad_top_level.yaml'])(
    'rejects %s, as otelgate validate does',
    (file) => {
      expect(validate(yaml(`testdata/config/${file}`))).toBe(false);
    },
  );
});
