// Validates a config text against a registry, as `otelgate run` does with a file.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { validateConfig, type ResolvedConfig } from '../../src/config/validate.js';
import { builtinRegistry } from '../../src/components.js';
import { ConfigError } from '../../src/errors.js';
import type { Registry } from '../../src/runtime/registry.js';

export function configFrom(text: string, registry: Registry): ResolvedConfig {
  const file = join(mkdtempSync(join(tmpdir(), 'otelgate-config-')), 'config.yaml');
  writeFileSync(file, text);
  return validateConfig(loadConfig([file]), registry);
}

/** An exporter's settings (YAML lines, unindented) as validation resolves them, in a `pipeline` fed by a nop receiver. */
export function exporterSettings<T>(type: string, settings: string, pipeline = 'logs'): T {
  const lines = settings
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
  const resolved = configFrom(`receivers: {nop: }\nexporters:\n  ${type}:\n${lines}\nservice:\n  pipelines:\n    ${pipeline}: {receivers: [nop], exporters: [${type}]}\n`, builtinRegistry());
  return resolved.components.exporter.get(type)?.config as T;
}

/** What validation finds wrong with those settings, one `path: message` each; [] when nothing. */
export function exporterProblems(type: string, settings: string, pipeline = 'logs'): string[] {
  try {
    exporterSettings(type, settings, pipeline);
    return [];
  } catch (error) {
    return error instanceof ConfigError ? error.issues.map((i) => `${i.path}: ${i.message}`) : [String(error)];
  }
}
