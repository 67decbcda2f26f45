// The file_storage extension: its settings (defaults, what is refused, the Collector's README
// example and its own README's validate unchanged), the directory it creates or refuses at start,
// the per-owner directories it names as the Collector names its files, and the queues it opens.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { builtinRegistry } from '../../../src/components.js';
import { ConfigError, QueueDirectoryError, QueueLockedError } from '../../../src/errors.js';
import type { FileStorageConfig } from '../../../src/extensions/file_storage/config.js';
import { fileStorageExtensionFactory, isQueueStorage, ownerDirectoryName, type QueueStorage } from '../../../src/extensions/file_storage/factory.js';
import { ROOT } from '../../helpers/cli.js';
import { testContext } from '../../helpers/components.js';
import { configFrom } from '../../helpers/config.js';

const DIR = mkdtempSync(join(tmpdir(), 'otelgate-file-storage-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const PIPELINE = 'receivers:\n  nop:\nexporters:\n  nop:\nservice:\n  extensions: [file_storage]\n  pipelines:\n    logs:\n      receivers: [nop]\n      exporters: [nop]\n';

function settings(text: string): FileStorageConfig {
  const config = configFrom(`extensions:\n  file_storage:${text}\n${PIPELINE}`, builtinRegistry());
  return config.components.extension.get('file_storage')?.config as FileStorageConfig;
}

function problems(text: string): string[] {
  try {
    settings(text);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.issues.filter((i) => i.severity === 'error').map((i) => `${i.path}: ${i.message}`);
  }
}

const DEFAULTS: FileStorageConfig = {
  directory: './data/queue',
  create_directory: true,
  directory_permissions: '0750',
  fsync: false,
  timeout: '1s',
  recreate: false,
  compaction: {
    on_start: false,
    on_rebound: false,
    max_transaction_size: 65536,
    rebound_needed_threshold_mib: 100,
    rebound_trigger_threshold_mib: 10,
    check_interval: '5s',
    cleanup_on_start: false,
  },
};

function started(config: Partial<FileStorageConfig>): { storage: QueueStorage; lines: Record<string, unknown>[] } {
  const { ctx, lines } = testContext('file_storage', 'extension');
  const storage = fileStorageExtensionFactory.create({ ...DEFAULTS, ...config, compaction: { ...DEFAULTS.compaction, ...config.compaction } }, ctx) as QueueStorage;
  return { storage, lines };
}

describe('file_storage settings', () => {
  it('has the defaults of its README table', () => {
    expect(settings('')).toEqual(DEFAULTS);
  });

  it('refuses what it cannot use, naming the setting', () => {
    expect(problems('\n    directory_permissions: "999"')).toEqual(['extensions.file_storage.directory_permissions: "999" is not octal permissions such as "0750"']);
    expect(problems('\n    timeout: soon')).toEqual(['extensions.file_storage.timeout: must be a duration such as "500ms", "5s" or "1m30s" (got the string "soon")']);
    expect(problems('\n    compaction: {on_rebound: true, check_interval: 0s}')).toEqual(['extensions.file_storage.compaction.check_interval: must be greater than zero when on_rebound is set (as in the Collector)']);
    expect(problems('\n    directroy: /x')).toEqual(['extensions.file_storage.directroy: unknown setting "directroy". Did you mean "directory"?']);
  });

  it("validates the Collector's README example unchanged", () => {
    const collector = [
      'extensions:',
      '  file_storage:',
      '  file_storage/all_settings:',
      '    directory: /var/lib/otelcol/mydir',
      '    timeout: 1s',
      '    compaction:',
      '      on_start: true',
      '      directory: /tmp/',
      '      max_transaction_size: 65_536',
      '    fsync: false',
      '',
      'service:',
      '  extensions: [file_storage, file_storage/all_settings]',
      '  pipelines:',
      '    traces:',
      '      receivers: [nop]',
      '      exporters: [nop]',
      '',
      '# Data pipeline is required to load the config.',
      'receivers:',
      '  nop:',
      'exporters:',
      '  nop:',
      '',
    ].join('\n');
    const config = configFrom(collector, builtinRegistry());
    expect(config.components.extension.get('file_storage/all_settings')?.config).toEqual({
      ...DEFAULTS,
      directory: '/var/lib/otelcol/mydir',
      compaction: { ...DEFAULTS.compaction, on_start: true, directory: '/tmp/', max_transaction_size: '65_536' },
    });
  });

  it("validates every YAML example of its README", () => {
    const readme = readFileSync(join(ROOT, 'src/extensions/file_storage/README.md'), 'utf8');
    const examples = [...readme.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((m) => m[1] as string);
    expect(examples.length).toBe(1);
    for (const example of examples) expect(configFrom(example, builtinRegistry()).components.extension.get('file_storage')?.config).toMatchObject({ directory: '/var/lib/otelgate/queue', fsync: true, compaction: { on_start: true } });
  });

  it('lists every setting of its schema in its README table, with the default the schema gives', () => {
    const readme = readFileSync(join(ROOT, 'src/extensions/file_storage/README.md'), 'utf8');
    const rows = new Map([...readme.matchAll(/^\| `([a-z_.]+)` \| `?([^|`]*)`? \|/gm)].map((m) => [m[1] as string, m[2] as string]));
    const flat: [string, unknown][] = [...Object.entries(DEFAULTS).filter(([k]) => k !== 'compaction'), ...Object.entries(DEFAULTS.compaction).map(([k, v]) => [`compaction.${k}`, v] as [string, unknown])];
    expect(flat.map(([k, v]) => [k, rows.get(k)])).toEqual(flat.map(([k, v]) => [k, String(v)]));
    expect(rows.get('compaction.directory')).toBe('(none)');
    expect(rows.size).toBe(flat.length + 1);
  });
});

describe('file_storage at start', () => {
  it('creates its directory with directory_permissions, and names no setting when all have effect', async () => {
    const directory = join(DIR, 'made', 'here');
    const { storage, lines } = started({ directory, directory_permissions: '0700' });
    await storage.start();
    expect(statSync(directory).mode & 0o777).toBe(0o700);
    expect(lines.filter((l) => l['level'] === 'warn')).toEqual([]);
    expect(lines.map((l) => [l['msg'], l['directory'], l['fsync']])).toEqual([['Starting file_storage extension', directory, false]]);
    await storage.shutdown();
  });

  it('refuses a missing directory without create_directory, and a file, with QueueDirectoryError', async () => {
    const missing = join(DIR, 'missing');
    await expect(started({ directory: missing, create_directory: false }).storage.start()).rejects.toThrow(
      new QueueDirectoryError(missing, 'it does not exist; create it, or set create_directory: true'),
    );
    const file = join(DIR, 'a-file');
    writeFileSync(file, '');
    await expect(started({ directory: file }).storage.start()).rejects.toBeInstanceOf(QueueDirectoryError);
    await expect(started({ directory: file, create_directory: false }).storage.start()).rejects.toThrow(new QueueDirectoryError(file, 'it is not a directory'));
  });

  it('names, in one warning, the settings given that have no effect here', async () => {
    const { storage, lines } = started({ directory: join(DIR, 'warned'), recreate: true, compaction: { ...DEFAULTS.compaction, on_rebound: true, max_transaction_size: '65_536', check_interval: '10s', directory: '/tmp' } });
    await storage.start();
    expect(lines.filter((l) => l['level'] === 'warn').map((l) => [l['msg'], l['settings']])).toEqual([
      ["These file_storage settings tune the Collector's bbolt database and have no effect in otelgate", ['recreate', 'compaction.directory', 'compaction.check_interval']],
    ]);
  });
});

describe('file_storage queues', () => {
  it('names each owner\'s directory as the Collector names its files', () => {
    expect(ownerDirectoryName({ kind: 'exporter', id: 'otlp_http/tempo', name: 'logs' })).toBe('exporter_otlp_http_tempo_logs');
    expect(ownerDirectoryName({ kind: 'exporter', id: 'otlp_http', name: 'traces' })).toBe('exporter_otlp_http__traces');
    expect(ownerDirectoryName({ kind: 'exporter', id: 'otlp_http/eu west/1', name: 'metrics' })).toBe('exporter_otlp_http_eu~0020west~002F1_metrics');
    expect(ownerDirectoryName({ kind: 'exporter', id: 'otlp_http/~ü', name: 'logs' })).toBe('exporter_otlp_http_~007E~00FC_logs');
  });

  it('opens a queue per owner in its directory, with its fsync and lock timeout; another open of the same owner is refused after the timeout', async () => {
    const directory = join(DIR, 'queues');
    const { storage } = started({ directory, timeout: '50ms' });
    expect(isQueueStorage(storage)).toBe(true);
    expect(isQueueStorage({ start: async () => {}, shutdown: async () => {} })).toBe(false);
    await storage.start();
    const owner = { kind: 'exporter' as const, id: 'otlp_http/tempo', name: 'logs' };
    expect(storage.directoryFor(owner)).toBe(join(directory, 'exporter_otlp_http_tempo_logs'));
    const queue = await storage.openQueue<{ project: string }>(owner, { sizer: 'items', capacity: 10, blockOnOverflow: false });
    expect(await queue.append({ payload: Buffer.from('batch'), metadata: { project: 'a' }, items: 4 })).toBe(1);
    expect(queue.stats()).toMatchObject({ sizer: 'items', capacity: 10, size: 4 });
    expect(statSync(join(directory, 'exporter_otlp_http_tempo_logs', '0000000000000001.seg')).size).toBe(28 + 15 + 5);
    const refused = await storage.openQueue(owner, { sizer: 'requests', capacity: 10, blockOnOverflow: false }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(QueueLockedError);
    expect(refused).toMatchObject({ holder: { owner: 'exporter otlp_http/tempo logs' } });
    const other = await storage.openQueue({ ...owner, name: 'traces' }, { sizer: 'requests', capacity: 10, blockOnOverflow: false });
    await other.close();
    await queue.close();
    const reopened = await storage.openQueue<{ project: string }>(owner, { sizer: 'items', capacity: 10, blockOnOverflow: false });
    expect(await reopened.take()).toEqual({ id: 1, payload: Buffer.from('batch'), metadata: { project: 'a' }, items: 4 });
    await reopened.close();
    await storage.shutdown();
  });
});
