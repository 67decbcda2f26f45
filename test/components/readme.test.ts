// Every YAML example in a component's README validates as otelgate validates a config file: the
// examples are what users copy. A block that defines components is wrapped in the least config that
// makes it a whole one (a nop receiver and exporter in a logs pipeline) when it has no service of its own.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { builtinRegistry } from '../../src/components.js';
import { ConfigError } from '../../src/errors.js';
import { ROOT } from '../helpers/cli.js';
import { configFrom } from '../helpers/config.js';

const SECTIONS = ['receivers', 'processors', 'exporters', 'extensions'];

function readmes(): string[] {
  const found: string[] = [];
  for (const kind of SECTIONS) {
    const dir = join(ROOT, 'src', kind);
    for (const name of readdirSync(dir)) if (existsSync(join(dir, name, 'README.md'))) found.push(`src/${kind}/${name}/README.md`);
  }
  return found;
}

/** The ```yaml blocks of a README that define components. */
function examples(file: string): Record<string, unknown>[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(/```yaml\n([\s\S]*?)```/g)]
    .map((match) => parse(match[1] as string) as unknown)
    .filter((doc): doc is Record<string, unknown> => typeof doc === 'object' && doc !== null && SECTIONS.some((s) => s in doc));
}

function whole(example: Record<string, unknown>): string {
  const service = { ...(example['service'] as Record<string, unknown> | undefined) };
  const extensions = { ...(example['extensions'] as object | undefined) } as Record<string, unknown>;
  // Extensions a partial example lists in service but defines elsewhere in its README: their defaults.
  for (const id of (service['extensions'] as string[] | undefined) ?? []) if (!(id in extensions)) extensions[id] = null;
  const receivers = { ...(example['receivers'] as object | undefined), nop: null };
  const exporters = { ...(example['exporters'] as object | undefined), nop: null };
  service['pipelines'] ??= { logs: { receivers: ['nop'], exporters: ['nop'] } };
  return stringify({ ...example, extensions, receivers, exporters, service });
}

/** The errors validation finds (warnings, such as an unset variable in an example, are not its faults). */
function errors(text: string): string[] {
  for (const name of text.matchAll(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)/g)) process.env[name[1] as string] ??= 'example';
  try {
    configFrom(text, builtinRegistry());
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) return [String(error)];
    return error.issues.filter((issue) => issue.severity === 'error').map((issue) => `${issue.path}: ${issue.message}`);
  }
}

describe('component READMEs', () => {
  const files = readmes();

  it('are found for every component folder that has one (and the new exporters and extensions have one)', () => {
    expect(files).toEqual(expect.arrayContaining(['src/exporters/otlp_http/README.md', 'src/extensions/file_storage/README.md', 'src/receivers/ingest/README.md']));
  });

  it.each(files)('%s: every example validates', (file) => {
    for (const example of examples(file)) {
      const text = whole(example);
      expect(errors(text), text).toEqual([]);
    }
  });

  it.each(['src/exporters/otlp_http/README.md', 'src/extensions/file_storage/README.md'])('%s has at least one example', (file) => {
    expect(examples(file).length).toBeGreaterThan(0);
  });
});
