// Shared by the commands that read a config: which files and --set flags, and reading and validating them.
import { join } from 'node:path';
import type { Logger } from 'pino';
import { builtinRegistry } from '../components.js';
import { loadConfig, type ReadText } from '../config/load.js';
import { validateConfig, type ComponentConfig, type ResolvedConfig } from '../config/validate.js';
import { ConfigError, formatIssue, type ConfigIssue } from '../errors.js';
import type { Kind } from '../runtime/component.js';
import type { Registry } from '../runtime/registry.js';
import { PACKAGE_ROOT } from '../version.js';

export const DEFAULT_CONFIG = join(PACKAGE_ROOT, 'pipelines', 'default.yaml');

/** The --config values, with the Collector's optional `file:` scheme removed; the shipped default when none. */
export function configFiles(values: readonly string[] | undefined): string[] {
  if (values === undefined || values.length === 0) return [DEFAULT_CONFIG];
  return values.map((value) => (value.startsWith('file:') ? value.slice('file:'.length) : value));
}

/** Where a command's config comes from: the --config files, then the --set flags over them. */
export interface ConfigArgs {
  files: string[];
  sets: string[];
}

export function configArgs(config: readonly string[] | undefined, set: readonly string[] | undefined): ConfigArgs {
  return { files: configFiles(config), sets: [...(set ?? [])] };
}

/** Throws ConfigError with every problem found. `read` gives each file's text (default: from disk). */
export function readConfig(args: ConfigArgs, registry: Registry = builtinRegistry(), read?: ReadText): ResolvedConfig {
  return validateConfig(loadConfig(args.files, process.env, read, args.sets), registry);
}

/** A config problem as one log line, with its file, line and path as fields too. */
export function logIssue(logger: Logger, issue: ConfigIssue): void {
  const fields = { file: issue.file, line: issue.line, path: issue.path };
  if (issue.severity === 'error') logger.error(fields, formatIssue(issue));
  else logger.warn(fields, formatIssue(issue));
}

/** The config read and validated, or undefined when it is invalid, every problem logged; `warn`: log its warnings too. */
export function readConfigLogged(args: ConfigArgs, read: ReadText, logger: Logger, warn: boolean): ResolvedConfig | undefined {
  try {
    const resolved = readConfig(args, builtinRegistry(), read);
    if (warn) for (const warning of resolved.warnings) logIssue(logger, warning);
    return resolved;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const issue of error.issues) logIssue(logger, issue);
    return undefined;
  }
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
