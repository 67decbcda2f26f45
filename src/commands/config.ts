// Shared by run and validate: which files to read, and reading and validating them.
import { join } from 'node:path';
import { builtinRegistry } from '../components.js';
import { loadConfig, type ReadText } from '../config/load.js';
import { validateConfig, type ComponentConfig, type ResolvedConfig } from '../config/validate.js';
import type { Kind } from '../runtime/component.js';
import type { Registry } from '../runtime/registry.js';
import { PACKAGE_ROOT } from '../version.js';

export const DEFAULT_CONFIG = join(PACKAGE_ROOT, 'pipelines', 'default.yaml');

/** The --config values, with the Collector's optional `file:` scheme removed; the shipped default when none. */
export function configFiles(values: readonly string[] | undefined): string[] {
  if (values === undefined || values.length === 0) return [DEFAULT_CONFIG];
  return values.map((value) => (value.startsWith('file:') ? value.slice('file:'.length) : value));
}

/** Throws ConfigError with every problem found. `read` gives each file's text (default: from disk). */
export function readConfig(files: readonly string[], registry: Registry = builtinRegistry(), read?: ReadText): ResolvedConfig {
  return validateConfig(loadConfig(files, process.env, read), registry);
}

/** Which component of a type a command works on, or why there is not exactly one to pick. */
export type ComponentChoice = { chosen: ComponentConfig } | { problem: 'none' | 'several' | 'unknown'; ids: string };

/** The component of `type` named `id`, else the config's only one of that type. */
export function chooseComponent(resolved: ResolvedConfig, kind: Kind, type: string, id: string | undefined): ComponentChoice {
  const candidates = [...resolved.components[kind].values()].filter((c) => c.type === type);
  const chosen = id === undefined ? candidates : candidates.filter((c) => c.id === id);
  if (chosen.length === 1) return { chosen: chosen[0] as ComponentConfig };
  const ids = candidates.map((c) => c.id).join(', ') || 'none';
  if (candidates.length === 0) return { problem: 'none', ids };
  return { problem: id === undefined ? 'several' : 'unknown', ids };
}
