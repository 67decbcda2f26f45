// `otelgate components`: every component type with its signals and stability, as the Collector lists them.
import { stringify } from 'yaml';
import { builtinRegistry } from '../components.js';
import { KINDS, type Factory } from '../runtime/component.js';
import { VERSION } from '../version.js';

const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

function describe(factory: Factory): Record<string, unknown> {
  const stability =
    factory.kind === 'extension'
      ? { extension: capital(factory.stability) }
      : Object.fromEntries(Object.entries(factory.stability).map(([signal, level]) => [signal, capital(level)]));
  return { name: factory.type, description: factory.description, stability };
}

export function componentsCommand(): number {
  const registry = builtinRegistry();
  const listing: Record<string, unknown> = { buildinfo: { command: 'otelgate', version: VERSION } };
  for (const kind of KINDS) listing[`${kind}s`] = registry.list(kind).map(describe);
  process.stdout.write(stringify(listing));
  return 0;
}
