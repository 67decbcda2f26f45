// The settings blocks of the exporter helper: the Collector's names and defaults, its configs
// loading unchanged, and the checks a schema cannot make.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Type from 'typebox';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { check } from '../../../src/config/ajv.js';
import { headerPairs, httpClientProperties, validateHttpClient, type HttpClientConfig } from '../../../src/exporters/helper/http-settings.js';
import { retryOnFailureSchema, retryPolicy, validateRetryOnFailure, type RetryOnFailureConfig } from '../../../src/exporters/helper/retry-settings.js';
import { ROOT } from '../../helpers/cli.js';

// As an exporter composes them: the otlphttp exporter's defaults (timeout 30s, gzip).
const schema = Type.Object({ ...httpClientProperties({ timeout: '30s', compression: 'gzip' }), retry_on_failure: retryOnFailureSchema }, { additionalProperties: false });

function load(data: Record<string, unknown>): { config: HttpClientConfig & { retry_on_failure: RetryOnFailureConfig }; problems: string[] } {
  const problems = check(schema, data).map((p) => `${p.path.join('.')}: ${p.message}`);
  return { config: data as unknown as HttpClientConfig & { retry_on_failure: RetryOnFailureConfig }, problems };
}

describe('defaults', () => {
  it('are the Collector\'s: configretry.NewDefaultBackOffConfig, and confighttp as the otlphttp exporter sets it', () => {
    const { config, problems } = load({ endpoint: 'https://backend:4318' });
    expect(problems).toEqual([]);
    expect(config).toEqual({
      endpoint: 'https://backend:4318',
      tls: { insecure: false, insecure_skip_verify: false, min_version: '1.2' },
      headers: {},
      timeout: '30s',
      compression: 'gzip',
      compression_params: { level: 0 },
      max_conns_per_host: 0,
      idle_conn_timeout: '90s',
      disable_keep_alives: false,
      read_buffer_size: 0,
      write_buffer_size: 0,
      retry_on_failure: { enabled: true, initial_interval: '5s', max_interval: '30s', max_elapsed_time: '5m', multiplier: 1.5, randomization_factor: 0.5 },
    });
    expect(retryPolicy(config.retry_on_failure)).toEqual({
      enabled: true,
      initialIntervalMs: 5000,
      maxIntervalMs: 30_000,
      maxElapsedTimeMs: 300_000,
      multiplier: 1.5,
      randomizationFactor: 0.5,
    });
  });

  it('take another exporter\'s timeout and compression', () => {
    const other = Type.Object(httpClientProperties({ timeout: '5s', compression: 'none' }));
    const data: Record<string, unknown> = {};
    expect(check(other, data)).toEqual([]);
    expect(data).toMatchObject({ timeout: '5s', compression: 'none' });
  });
});

describe('Collector configs', () => {
  // opentelemetry-collector exporter/otlphttpexporter/testdata/config.yaml, as it is.
  const OTLPHTTP = readFileSync(join(ROOT, 'testdata', 'config', 'collector_otlphttp.yaml'), 'utf8');

  it('the otlphttp exporter\'s test config loads unchanged, but for the settings of the queue and the exporter itself', () => {
    const data = parse(OTLPHTTP) as Record<string, unknown>;
    // Not this helper's: the sending queue and otlp_http's per-signal endpoints.
    delete data['sending_queue'];
    delete data['profiles_endpoint'];
    const { config, problems } = load(data);
    expect(problems).toEqual([]);
    expect(retryPolicy(config.retry_on_failure)).toEqual({ enabled: true, initialIntervalMs: 10_000, maxIntervalMs: 60_000, maxElapsedTimeMs: 600_000, multiplier: 1.3, randomizationFactor: 0.7 });
    expect(validateRetryOnFailure(config.retry_on_failure)).toEqual([]);
    // Its one header name with spaces and a "?" is no HTTP token: Go would fail each request with it; otelgate says so up front.
    expect(validateHttpClient(config)).toEqual([{ path: ['headers', 'can you have a . here?'], message: '"can you have a . here?" is not a valid header name (letters, digits and !#$%&\'*+-.^_`|~ only)' }]);
  });

  it('headers may be a list of name/value pairs, as the Collector reads them too', () => {
    const { config, problems } = load({ headers: [{ name: 'X-Scope-OrgID', value: 'tenant-a' }, { name: 'Authorization', value: 'Bearer t' }] });
    expect(problems).toEqual([]);
    expect(headerPairs(config.headers)).toEqual([
      ['X-Scope-OrgID', 'tenant-a'],
      ['Authorization', 'Bearer t'],
    ]);
  });
});

describe('checks beyond the schema', () => {
  const validated = (data: Record<string, unknown>) => {
    const { config, problems } = load(data);
    expect(problems).toEqual([]);
    return validateHttpClient(config);
  };

  it('accepts a plain config', () => {
    expect(validated({ endpoint: 'http://localhost:4318', proxy_url: 'http://proxy:3128', headers: { 'X-Scope-OrgID': 'a' } })).toEqual([]);
  });

  it('wants URLs for endpoint and proxy_url, http or https', () => {
    expect(validated({ endpoint: 'localhost:4318', proxy_url: 'proxy:3128' })).toEqual([
      { path: ['endpoint'], message: 'the endpoint must start with http:// or https:// (got localhost://)' },
      { path: ['proxy_url'], message: 'the proxy must start with http:// or https:// (got proxy://)' },
    ]);
    expect(validated({ endpoint: 'not a url' })).toEqual([{ path: ['endpoint'], message: '"not a url" is not a URL; write it as http://host:port or https://host:port' }]);
    expect(validated({ proxy_url: 'socks5://proxy:1080' })).toEqual([{ path: ['proxy_url'], message: 'the proxy must start with http:// or https:// (got socks5://)' }]);
  });

  it('refuses header values with line breaks and a header given twice', () => {
    expect(validated({ headers: { 'X-A': 'one\r\nX-Injected: two' } })).toEqual([{ path: ['headers', 'X-A'], message: 'a header value may not hold a line break or NUL' }]);
    expect(validated({ headers: [{ name: 'X-A', value: '1' }, { name: 'x-a', value: '2' }] })).toEqual([
      { path: ['headers', 1], message: 'the header "x-a" is given twice (header names are case-insensitive)' },
    ]);
  });

  it('wants cert_file and key_file together, and max_version not below min_version', () => {
    expect(validated({ tls: { cert_file: 'client.crt' } })).toEqual([{ path: ['tls', 'key_file'], message: 'a client certificate needs both cert_file and key_file, or neither' }]);
    expect(validated({ tls: { key_file: 'client.key' } })).toEqual([{ path: ['tls', 'cert_file'], message: 'a client certificate needs both cert_file and key_file, or neither' }]);
    expect(validated({ tls: { min_version: '1.3', max_version: '1.2' } })).toEqual([{ path: ['tls', 'max_version'], message: 'must not be below min_version ("1.3")' }]);
  });

  it('wants an idle_conn_timeout above 0', () => {
    expect(validated({ idle_conn_timeout: '0' })).toEqual([{ path: ['idle_conn_timeout'], message: 'must be above 0; to keep no idle connection, set disable_keep_alives: true' }]);
  });

  it('refuses unknown compressions and TLS versions in the schema', () => {
    expect(load({ compression: 'snappy', tls: { min_version: '1.4' } }).problems).toEqual([
      'tls.min_version: must be one of 1.0, 1.1, 1.2, 1.3 (got the string "1.4"). Did you mean "1.0"?',
      'compression: must be one of gzip, zstd, none (got the string "snappy")',
    ]);
  });

  it('retry_on_failure: max_elapsed_time not below initial_interval or max_interval, unless 0', () => {
    const retry = (block: Record<string, unknown>) => {
      const { config, problems } = load({ retry_on_failure: block });
      expect(problems).toEqual([]);
      return validateRetryOnFailure(config.retry_on_failure);
    };
    expect(retry({ max_elapsed_time: '20s' })).toEqual([{ path: ['retry_on_failure', 'max_elapsed_time'], message: 'must not be less than max_interval (30s), or "0" to retry for ever' }]);
    expect(retry({ max_elapsed_time: '1s' })).toEqual([
      { path: ['retry_on_failure', 'max_elapsed_time'], message: 'must not be less than initial_interval (5s), or "0" to retry for ever' },
      { path: ['retry_on_failure', 'max_elapsed_time'], message: 'must not be less than max_interval (30s), or "0" to retry for ever' },
    ]);
    expect(retry({ max_elapsed_time: '0' })).toEqual([]);
    expect(load({ retry_on_failure: { randomization_factor: 1.5, multiplier: -1 } }).problems).toEqual([
      'retry_on_failure.multiplier: must be >= 0 (got number -1)',
      'retry_on_failure.randomization_factor: must be <= 1 (got number 1.5)',
    ]);
  });
});
