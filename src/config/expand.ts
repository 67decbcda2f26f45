// Environment expansion in config values, as the Collector does it:
// ${env:VAR}, ${env:VAR:-default}, ${VAR} and ${VAR:-default}; $$ is a literal $.
// A value that is exactly one reference takes the type the variable's text has as YAML
// (`port: ${env:PORT}` becomes a number); a reference inside a longer string is text. An unset
// or empty variable is the empty string, also as a whole value (where YAML would read null): the
// Collector gives a string setting "" for it too, and the warning can then say what happens.
import { parse as parseYaml } from 'yaml';

const REFERENCE = /\$\$|\$\{(?:([a-zA-Z][a-zA-Z0-9]*):)?([^}:]*)(?::-([^}]*))?\}/g;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface ExpandProblem {
  path: (string | number)[];
  message: string;
  severity: 'error' | 'warning';
}

type Env = Record<string, string | undefined>;

function typedValue(text: string): unknown {
  try {
    const value: unknown = parseYaml(text);
    return value === null || typeof value !== 'object' ? (value ?? text) : value;
  } catch {
    return text;
  }
}

function expandString(text: string, env: Env, path: (string | number)[], problems: ExpandProblem[]): unknown {
  if (!text.includes('$')) return text;
  let whole: unknown;
  let references = 0;
  const replaced = text.replace(REFERENCE, (match, provider: string | undefined, name: string, fallback: string | undefined) => {
    if (match === '$$') return '$';
    references++;
    if (provider !== undefined && provider !== 'env') {
      problems.push({ path, severity: 'error', message: `unsupported config provider "${provider}" in ${match}; only env is supported, as \${env:NAME}` });
      return match;
    }
    if (!ENV_NAME.test(name)) {
      problems.push({ path, severity: 'error', message: `${match} is not a valid environment variable reference; write \${env:NAME} or \${env:NAME:-default}` });
      return match;
    }
    const value = env[name];
    if (value === undefined || (value === '' && fallback !== undefined)) {
      if (fallback !== undefined) return (whole = fallback);
      problems.push({ path, severity: 'warning', message: `environment variable ${name} is not set; it expands to the empty string (set it, or give a default as \${env:${name}:-default})` });
      return (whole = '');
    }
    return (whole = value);
  });
  if (references === 1 && text.replace(REFERENCE, '') === '' && typeof whole === 'string') {
    return whole === '' ? '' : typedValue(whole);
  }
  return replaced;
}

/** Returns a copy of `value` with every string expanded; keys are left as written. */
export function expandEnv(value: unknown, env: Env, problems: ExpandProblem[], path: (string | number)[] = []): unknown {
  if (typeof value === 'string') return expandString(value, env, path, problems);
  if (Array.isArray(value)) return value.map((item, i) => expandEnv(item, env, problems, [...path, i]));
  if (value !== null && typeof value === 'object') {
    const out = Object.create(null) as Record<string, unknown>;
    for (const [key, item] of Object.entries(value)) out[key] = expandEnv(item, env, problems, [...path, key]);
    return out;
  }
  return value;
}
