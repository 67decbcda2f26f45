// Validates a config text against a registry, as `otelgate run` does with a file.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { validateConfig, type ResolvedConfig } from '../../src/config/validate.js';
import type { Registry } from '../../src/runtime/registry.js';

export function configFrom(text: string, registry: Registry): ResolvedConfig {
  const file = join(mkdtempSync(join(tmpdir(), 'otelgate-config-')), 'config.yaml');
  writeFileSync(file, text);
  return validateConfig(loadConfig([file]), registry);
}
