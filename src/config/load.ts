// Reads one or more config files: YAML parse, env expansion, and the Collector's merge
// (later files win; maps merge key by key, anything else is replaced whole).
import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument, stringify, type Document } from 'yaml';
import { ConfigError, type ConfigIssue } from '../errors.js';
import { expandEnv, type ExpandProblem } from './expand.js';
import { formatPath, locate } from './path.js';
import { parseSetFlag, setFlagFragment } from './set.js';

export interface ConfigSource {
  /** The file's name, or `--set KEY` for a --set flag (never its value, which may be a secret). */
  file: string;
  doc: Document.Parsed;
  lineCounter: LineCounter;
  /** False for a --set flag: its document was made from the flag, and its lines mean nothing to the user. */
  positions: boolean;
  /** A --set flag's path: a problem is the flag's only at or below it (path.ts, locate). */
  setPath?: readonly string[];
}

export interface LoadedConfig {
  /** The merged, expanded config, before any validation. */
  raw: Record<string, unknown>;
  sources: ConfigSource[];
  /**
   * Warnings, and the errors of references that could not be expanded: those are left as written,
   * so that validation goes on and reports every other mistake with them.
   */
  issues: ConfigIssue[];
}

function isMap(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function mergeConfig(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out = Object.create(null) as Record<string, unknown>;
  Object.assign(out, base);
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isMap(current) && isMap(value) ? mergeConfig(current, value) : value;
  }
  return out;
}

/** Reads a config file's text; otelgate's workers read the texts their primary read instead. */
export type ReadText = (file: string) => string;

const readFromDisk: ReadText = (file) => readFileSync(file, 'utf8');

function readSource(file: string, issues: ConfigIssue[], read: ReadText): ConfigSource | undefined {
  let text: string;
  try {
    text = read(file);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    issues.push({ severity: 'error', file, path: '', message: `cannot read the config file: ${reason}` });
    return undefined;
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  for (const error of doc.errors) {
    const pos = lineCounter.linePos(error.pos[0]);
    issues.push({ severity: 'error', file, line: pos.line, col: pos.col, path: '', message: `YAML syntax: ${error.message.split('\n')[0]}` });
  }
  return { file, doc, lineCounter, positions: true };
}

/** A --set flag as a source of its own, so that a mistake in it is reported as that flag's. */
function setSource(flag: string, issues: ConfigIssue[]): ConfigSource | undefined {
  const parsed = parseSetFlag(flag);
  const file = `--set ${parsed.key}`;
  if ('problem' in parsed) {
    issues.push({ severity: 'error', file, path: '', message: parsed.problem });
    return undefined;
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(stringify(setFlagFragment(parsed.path, parsed.value)), { lineCounter });
  return { file, doc, lineCounter, positions: false, setPath: parsed.path };
}

/** `sets`: the --set flags' values, applied after every file in their order. */
export function loadConfig(
  files: readonly string[],
  env: Record<string, string | undefined> = process.env,
  read: ReadText = readFromDisk,
  sets: readonly string[] = [],
): LoadedConfig {
  const issues: ConfigIssue[] = [];
  const sources: ConfigSource[] = [];
  let raw = Object.create(null) as Record<string, unknown>;
  const loaded = [...files.map((file) => readSource(file, issues, read)), ...sets.map((flag) => setSource(flag, issues))];
  // A source that cannot be read, parsed or merged leaves the config unknown: nothing is validated then.
  let unknown = issues.some((i) => i.severity === 'error');
  for (const source of loaded) {
    if (source === undefined || source.doc.errors.length > 0) continue;
    const { file } = source;
    sources.push(source);
    const problems: ExpandProblem[] = [];
    const value = expandEnv(source.doc.toJS({ maxAliasCount: 100 }) ?? {}, env, problems);
    for (const problem of problems) {
      issues.push({ severity: problem.severity, ...locate([source], problem.path), path: formatPath(problem.path), message: problem.message });
    }
    if (!isMap(value)) {
      issues.push({ severity: 'error', file, path: '', message: 'the config must be a mapping with receivers, exporters and service' });
      unknown = true;
      continue;
    }
    raw = mergeConfig(raw, value);
  }
  if (unknown) throw new ConfigError(issues);
  return { raw, sources, issues };
}
