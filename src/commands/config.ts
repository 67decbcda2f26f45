// Shared by run and validate: which files to read, and reading and validating them.
import { join } from 'node:path';
import { builtinRegistry } from '../components.js';
import { loadConfig } from '../config/load.js';
import { validateConfig, type ResolvedConfig } from '../config/validate.js';
import type { Registry } from '../runtime/registry.js';
import { PACKAGE_ROOT } from '../version.js';

export const DEFAULT_CONFIG = join(PACKAGE_ROOT, 'pipelines', 'default.yaml');

/** The --config values, with the Collector's optional `file:` scheme removed; the shipped default when none. */
export function configFiles(values: readonly string[] | undefined): string[] {
  if (values === undefined || values.length === 0) return [DEFAULT_CONFIG];
  return values.map((value) => (value.startsWith('file:') ? value.slice('file:'.length) : value));
}

/** Throws ConfigError with every problem found. */
export function readConfig(files: readonly string[], registry: Registry = builtinRegistry()): ResolvedConfig {
  return validateConfig(loadConfig(files), registry);
}
