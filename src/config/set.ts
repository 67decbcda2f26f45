// The Collector's --set flag: `--set receivers.ingest.endpoint=0.0.0.0:4319` is one more config
// source, merged after every --config file by the same rules (maps join key by key, lists and
// scalars are replaced whole). The key is a dotted path (the Collector's `::` also works); the
// value is read as YAML, so `--set 'service.extensions=[apikeyauth]'` gives a list and
// `--set exporters.store.retention.logs=24h` a string.
import { parse as parseYaml } from 'yaml';

export type SetFlag = { path: string[]; value: unknown } | { problem: string };

export function parseSetFlag(flag: string): SetFlag {
  const equals = flag.indexOf('=');
  if (equals === -1) return { problem: 'missing equal sign; write --set path.to.setting=value' };
  const key = flag.slice(0, equals).trim();
  const path = key.split(/::|\./);
  if (key === '' || path.some((segment) => segment === '')) {
    return { problem: `"${key}" is not a path to a setting; write its keys joined by dots, e.g. receivers.ingest.endpoint` };
  }
  const text = flag.slice(equals + 1).trim();
  try {
    return { path, value: parseYaml(text) };
  } catch (error) {
    return { problem: `the value is not valid YAML: ${(error as Error).message.split('\n')[0]}` };
  }
}

/** The flag as a config fragment: its path nested as maps around its value. */
export function setFlagFragment(path: readonly string[], value: unknown): Record<string, unknown> {
  let fragment: unknown = value;
  for (let i = path.length - 1; i >= 0; i--) fragment = { [path[i] as string]: fragment };
  return fragment as Record<string, unknown>;
}
