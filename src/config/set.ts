// The Collector's --set flag: `--set receivers.ingest.endpoint=0.0.0.0:4319` is one more config
// source, merged after every --config file by the same rules (maps join key by key, lists and
// scalars are replaced whole). The key is a dotted path (the Collector's `::` also works); the
// value is read as YAML, so `--set 'service.extensions=[apikeyauth]'` gives a list and
// `--set exporters.store.retention.logs=24h` a string.
import { parse as parseYaml } from 'yaml';

/** `key`: the flag up to its `=` (all of it without one), which names the flag in a mistake; never the value. */
export type SetFlag = { key: string } & ({ path: string[]; value: unknown } | { problem: string });

export function parseSetFlag(flag: string): SetFlag {
  const equals = flag.indexOf('=');
  if (equals === -1) return { key: flag.trim(), problem: 'missing equal sign; write --set path.to.setting=value' };
  const key = flag.slice(0, equals).trim();
  const path = key.split(/::|\./);
  if (key === '' || path.some((segment) => segment === '')) {
    return { key, problem: `"${key}" is not a path to a setting; write its keys joined by dots, e.g. receivers.ingest.endpoint` };
  }
  const text = flag.slice(equals + 1).trim();
  try {
    return { key, path, value: parseYaml(text) };
  } catch (error) {
    return { key, problem: `the value is not valid YAML: ${(error as Error).message.split('\n')[0]}` };
  }
}

/** The flag as a config fragment: its path nested as maps around its value. */
export function setFlagFragment(path: readonly string[], value: unknown): Record<string, unknown> {
  let fragment: unknown = value;
  for (let i = path.length - 1; i >= 0; i--) fragment = { [path[i] as string]: fragment };
  return fragment as Record<string, unknown>;
}
