// otlp_http's settings as the Collector's otlphttp has them: its own test config loads, URLs are
// made as the Collector makes them, and mistakes are named with their fix.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { signalUrl } from '../../../src/exporters/otlp_http/factory.js';
import type { OtlpHttpConfig } from '../../../src/exporters/otlp_http/config.js';
import { ROOT } from '../../helpers/cli.js';
import { exporterProblems, exporterSettings } from '../../helpers/config.js';

const exporterConfig = (settings: string, type = 'otlphttp'): OtlpHttpConfig => exporterSettings(type, settings);
const problems = (settings: string): string => exporterProblems('otlphttp', settings).join('\n');


describe('otlp_http settings', () => {
  it('loads the Collector otlphttp exporter\'s test config, queue, retries and profiles_endpoint included (but for its one header name that is no HTTP token)', () => {
    const collector = parse(readFileSync(join(ROOT, 'testdata', 'config', 'collector_otlphttp.yaml'), 'utf8')) as Record<string, unknown> & { headers: Record<string, string> };
    // A header name with spaces and "?" is no HTTP token (Go fails every request with it; otelgate says so at validation).
    delete collector.headers['can you have a . here?'];
    const config = exporterConfig(stringify(collector));
    expect(config.sending_queue).toEqual({ enabled: true, num_consumers: 2, queue_size: 10, sizer: 'requests', block_on_overflow: false });
    expect(config.encoding).toBe('proto');
    expect(signalUrl(config, 'traces')).toBe('https://1.2.3.4:1234/v1/traces');
  });

  it('takes the exporterhelper README\'s sending_queue and retry_on_failure settings as written there', () => {
    const config = exporterConfig(`endpoint: http://backend:4318
timeout: 5s
retry_on_failure:
  enabled: true
  initial_interval: 5s
  max_interval: 30s
  max_elapsed_time: 300s
  multiplier: 1.5
sending_queue:
  enabled: true
  num_consumers: 10
  queue_size: 1000
  sizer: requests
  block_on_overflow: false
  batch:
    flush_timeout: 200ms
    min_size: 8192
    max_size: 0
    sizer: items`);
    expect(config.sending_queue.batch).toEqual({ flush_timeout: '200ms', min_size: 8192, max_size: 0, sizer: 'items' });
    expect(config.retry_on_failure).toEqual({ enabled: true, initial_interval: '5s', max_interval: '30s', max_elapsed_time: '300s', multiplier: 1.5, randomization_factor: 0.5 });
  });

  it('reads a block left empty as its defaults and a duration of 0 as 0, as the Collector does: an empty batch turns batching on', () => {
    const config = exporterConfig('endpoint: http://backend:4318\nsending_queue:\n  batch:\nretry_on_failure:\n  max_elapsed_time: 0');
    expect(config.sending_queue.batch).toEqual({ flush_timeout: '200ms', min_size: 8192, max_size: 0, sizer: 'items' });
    expect(config.sending_queue.queue_size).toBe(1000);
    expect(config.retry_on_failure.initial_interval).toBe('5s');
    // The number 0, as the Collector's READMEs write it: retry for ever.
    expect(config.retry_on_failure.max_elapsed_time).toBe('0');
    expect(problems('endpoint: http://x\nretry_on_failure: {max_elapsed_time: 5}')).toBe('exporters.otlphttp.retry_on_failure.max_elapsed_time: must be a string (got number 5)');
  });

  it('adds the signal\'s path to the endpoint\'s own path, and uses a signal\'s endpoint as written', () => {
    const config = exporterConfig('endpoint: http://loki:3100/otlp/\ntraces_endpoint: http://tempo:4318/custom\nencoding: json', 'otlp_http');
    expect([signalUrl(config, 'logs'), signalUrl(config, 'traces'), signalUrl(config, 'metrics')]).toEqual([
      'http://loki:3100/otlp/v1/logs',
      'http://tempo:4318/custom',
      'http://loki:3100/otlp/v1/metrics',
    ]);
  });

  it('names what is missing or wrong, with the fix', () => {
    expect(problems('compression: gzip')).toBe('exporters.otlphttp: set endpoint (e.g. http://tempo:4318), or logs_endpoint, traces_endpoint and metrics_endpoint for the signals it sends');
    expect(problems('logs_endpoint: loki:3100')).toBe('exporters.otlphttp.logs_endpoint: must start with http:// or https:// (got loki://)');
    expect(problems('endpoint: http://x\nencoding: protobuf')).toContain('exporters.otlphttp.encoding');
    expect(problems('endpoint: http://x\ncompression_params: {level: 11}')).toBe('exporters.otlphttp.compression_params.level: gzip takes a level from -2 to 9 (-1: the default, 1: fastest, 9: smallest), not 11');
    expect(problems('endpoint: http://x\ncompression: none\ncompression_params: {level: 1}')).toBe('exporters.otlphttp.compression_params.level: compression none takes no level; remove compression_params.level');
    expect(problems('endpoint: http://x\ncompression: zstd\ncompression_params: {level: 19}')).toBe('');
    expect(problems('endpoint: http://x\nsending_queue: {batch: {min_size: 100, max_size: 10}}')).toBe('exporters.otlphttp.sending_queue.batch.max_size: must be 0 or at least min_size (100)');
    expect(problems('endpoint: http://x\ntenant: {header: X-Scope-OrgID}\nmetadata_headers: [{key: x-scope-orgid, from_context: x-tenant}, {key: Authorization, from_context: x-auth}]')).toBe(
      [
        'exporters.otlphttp.metadata_headers[0].key: "x-scope-orgid" is set by tenant (or is Authorization): a client must not choose it; use another header, or drop tenant',
        'exporters.otlphttp.metadata_headers[1].key: "Authorization" is set by tenant (or is Authorization): a client must not choose it; use another header, or drop tenant',
      ].join('\n'),
    );
  });
});
