import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, mergeConfig } from '../../src/config/load.js';
import { locate } from '../../src/config/path.js';
import { ConfigError } from '../../src/errors.js';

function write(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'otelgate-load-')), 'config.yaml');
  writeFileSync(file, text);
  return file;
}

describe('mergeConfig', () => {
  it('merges maps key by key and replaces lists and scalars whole, as the Collector does', () => {
    const merged = mergeConfig(
      { exporters: { debug: { verbosity: 'basic', use_internal_logger: true } }, service: { pipelines: { logs: { exporters: ['debug', 'nop'] } } } },
      { exporters: { debug: { verbosity: 'detailed' } }, service: { pipelines: { logs: { exporters: ['nop'] } } } },
    );
    expect(JSON.parse(JSON.stringify(merged))).toEqual({
      exporters: { debug: { verbosity: 'detailed', use_internal_logger: true } },
      service: { pipelines: { logs: { exporters: ['nop'] } } },
    });
  });
});

describe('loadConfig', () => {
  it('names the file that cannot be read', () => {
    const error = (() => {
      try {
        loadConfig(['/nonexistent/otelgate.yaml']);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues).toEqual([
      { severity: 'error', file: '/nonexistent/otelgate.yaml', path: '', message: 'cannot read the config file: no such file' },
    ]);
  });

  it('refuses duplicate keys with their line', () => {
    const file = write('exporters:\n  debug:\n  debug:\n');
    expect(() => loadConfig([file])).toThrow(/config\.yaml:\d+:\d+: YAML syntax: Map keys must be unique/);
  });

  it('refuses a top level that is not a mapping', () => {
    const file = write('- a\n- b\n');
    expect(() => loadConfig([file])).toThrow(/the config must be a mapping/);
  });

  it('treats an empty file as an empty mapping', () => {
    expect(loadConfig([write('')]).raw).toEqual({});
  });

  it('locates a path in the last file that writes it', () => {
    const first = write('exporters:\n  debug:\n    verbosity: basic\n');
    const second = write('# override\nexporters:\n  debug:\n    verbosity: detailed\n');
    const { sources } = loadConfig([first, second]);
    expect(locate(sources, ['exporters', 'debug', 'verbosity'])).toEqual({ file: second, line: 4, col: 5 });
    expect(locate(sources, ['exporters', 'debug', 'missing'])).toEqual({ file: second, line: 3, col: 3 });
  });
});
