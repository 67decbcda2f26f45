// --set KEY=VALUE, as the Collector's: one more source after the files, merged by the same rules.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { parseSetFlag } from '../../src/config/set.js';
import { ConfigError } from '../../src/errors.js';

function write(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'otelgate-set-')), 'config.yaml');
  writeFileSync(file, text);
  return file;
}

const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('parseSetFlag', () => {
  it.each([
    ['receivers.ingest.endpoint=0.0.0.0:4319', ['receivers', 'ingest', 'endpoint'], '0.0.0.0:4319'],
    ['exporters::debug::verbosity=detailed', ['exporters', 'debug', 'verbosity'], 'detailed'],
    ['processors.memory_limiter.limit_mib=512', ['processors', 'memory_limiter', 'limit_mib'], 512],
    ['service.pipelines.logs.exporters=[debug, store]', ['service', 'pipelines', 'logs', 'exporters'], ['debug', 'store']],
    ['exporters.debug/everything.verbosity = detailed', ['exporters', 'debug/everything', 'verbosity'], 'detailed'],
    ['exporters.store.retention.logs=24h', ['exporters', 'store', 'retention', 'logs'], '24h'],
    ['receivers.nop=', ['receivers', 'nop'], null],
  ])('%s', (flag, path, value) => {
    expect(parseSetFlag(flag)).toEqual({ key: flag.slice(0, flag.indexOf('=')).trim(), path, value });
  });

  it.each([
    ['receivers.ingest.endpoint', 'receivers.ingest.endpoint', 'missing equal sign; write --set path.to.setting=value'],
    ['=1', '', '"" is not a path to a setting; write its keys joined by dots, e.g. receivers.ingest.endpoint'],
    ['receivers..ingest=1', 'receivers..ingest', '"receivers..ingest" is not a path to a setting; write its keys joined by dots, e.g. receivers.ingest.endpoint'],
  ])('refuses %s', (flag, key, problem) => {
    expect(parseSetFlag(flag)).toEqual({ key, problem });
  });
});

describe('loadConfig with --set', () => {
  const file = () => write('receivers:\n  ingest:\n    endpoint: localhost:4318\n    max_request_body_size: 1000\nservice:\n  pipelines:\n    logs:\n      exporters: [store, debug]\n');

  it('applies after every file: maps join key by key, lists and scalars are replaced', () => {
    const { raw } = loadConfig([file()], {}, undefined, ['receivers.ingest.endpoint=0.0.0.0:4319', 'service.pipelines.logs.exporters=[nop]', 'exporters.nop=']);
    expect(plain(raw)).toEqual({
      receivers: { ingest: { endpoint: '0.0.0.0:4319', max_request_body_size: 1000 } },
      service: { pipelines: { logs: { exporters: ['nop'] } } },
      exporters: { nop: null },
    });
  });

  it('applies several flags in their order, the last winning', () => {
    const { raw } = loadConfig([file()], {}, undefined, ['receivers.ingest.endpoint=a:1', 'receivers.ingest.endpoint=b:2']);
    expect(plain(raw)).toMatchObject({ receivers: { ingest: { endpoint: 'b:2' } } });
  });

  it('expands environment variables in the value', () => {
    const { raw } = loadConfig([file()], { PORT: '4400' }, undefined, ['receivers.ingest.endpoint=0.0.0.0:${env:PORT}']);
    expect(plain(raw)).toMatchObject({ receivers: { ingest: { endpoint: '0.0.0.0:4400' } } });
  });

  it('names the flag in a mistake, with no line of a file', () => {
    let error: unknown;
    try {
      loadConfig([file()], {}, undefined, ['receivers.ingest.endpoint']);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues).toEqual([
      { severity: 'error', file: '--set receivers.ingest.endpoint', path: '', message: 'missing equal sign; write --set path.to.setting=value' },
    ]);
  });
});
