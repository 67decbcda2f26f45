// The HTTP client settings of a remote exporter, with the Collector's confighttp.ClientConfig
// names: endpoint, proxy_url, tls, headers, timeout, compression and the connection pool.
import Type, { type Static } from 'typebox';
import { parseDuration } from '../../config/duration.js';
import type { SettingsProblem } from '../../runtime/component.js';
import { COMPRESSIONS, type Compression, levelProblem, ZSTD_MISSING, zstdAvailable } from './compression.js';
import { tlsClientSchema, validateTlsClient } from './tls-settings.js';

/** What differs between exporters: the Collector's otlphttp uses timeout 30s and gzip. */
export interface HttpClientDefaults {
  timeout: string;
  compression: Compression;
}

export const headersSchema = Type.Union(
  [
    Type.Record(Type.String(), Type.String()),
    // The Collector also reads headers as a list of name/value pairs (configopaque.MapList).
    Type.Array(Type.Object({ name: Type.String({ minLength: 1 }), value: Type.String() }, { additionalProperties: false })),
  ],
  { default: {}, description: 'Headers added to every request, name: value (or a list of {name, value}); they override User-Agent and Content-Type, and a Host header replaces the endpoint\'s host.' },
);

/** The settings to spread into an exporter's schema (its Type.Object), with that exporter's defaults. */
export function httpClientProperties(defaults: HttpClientDefaults) {
  return {
    endpoint: Type.Optional(Type.String({ minLength: 1, description: 'Base URL of the backend, http:// or https://; the exporter adds its path to it.' })),
    proxy_url: Type.Optional(
      Type.String({ minLength: 1, description: 'HTTP proxy, http://[user:password@]host:port: https:// endpoints are reached through a CONNECT tunnel, http:// endpoints by asking the proxy for the URL.' }),
    ),
    tls: tlsClientSchema,
    headers: headersSchema,
    timeout: Type.String({ format: 'duration', default: defaults.timeout, description: 'Time limit of one attempt, from connecting to the end of the answer; "0" for none.' }),
    compression: Type.Enum(COMPRESSIONS, { default: defaults.compression, description: 'Compression of request bodies: gzip, zstd, or none.' }),
    compression_params: Type.Object(
      { level: Type.Integer({ default: 0, description: 'Compression level, 0 for the default: gzip -2 to 9 (-1 the default, level 6; 1 fastest; 9 smallest); zstd as the Collector reads it: below 3 the fastest (the default), 3-5 zstd\'s default, 6-9 better, 10 and up the best.' }) },
      { default: {}, additionalProperties: false, description: 'Advanced compression settings, as the Collector\'s.' },
    ),
    max_conns_per_host: Type.Integer({ minimum: 0, default: 0, description: 'Connections open to one host at most; 0 for no limit.' }),
    idle_conn_timeout: Type.String({ format: 'duration', default: '90s', description: 'How long an idle connection is kept for the next request (shorter if the server says so in Keep-Alive).' }),
    disable_keep_alives: Type.Boolean({ default: false, description: 'A new connection for every request.' }),
    read_buffer_size: Type.Integer({ minimum: 0, default: 0, description: 'Accepted so that Collector configs load; no effect (Node sizes its socket buffers itself).' }),
    write_buffer_size: Type.Integer({ minimum: 0, default: 0, description: 'Accepted so that Collector configs load; no effect (Node sizes its socket buffers itself).' }),
  };
}

const exampleSchema = Type.Object(httpClientProperties({ timeout: '30s', compression: 'gzip' }));
export type HttpClientConfig = Static<typeof exampleSchema>;

/** Headers as name/value pairs, whichever form they were written in. */
export function headerPairs(headers: HttpClientConfig['headers']): [string, string][] {
  return Array.isArray(headers) ? headers.map(({ name, value }) => [name, value]) : Object.entries(headers);
}

// RFC 9110 field names are tokens; values may not hold CR, LF or NUL.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BAD_VALUE = /[\r\n\0]/;

function checkUrl(value: string, setting: string, what: string): SettingsProblem[] {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return [{ path: [setting], message: `"${value}" is not a URL; write it as http://host:port or https://host:port` }];
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return [{ path: [setting], message: `${what} must start with http:// or https:// (got ${url.protocol}//)` }];
  return [];
}

/** Checks beyond the schema; paths are relative to the exporter's settings. */
export function validateHttpClient(config: HttpClientConfig): SettingsProblem[] {
  const problems: SettingsProblem[] = [];
  if (config.endpoint !== undefined) problems.push(...checkUrl(config.endpoint, 'endpoint', 'the endpoint'));
  if (config.proxy_url !== undefined) problems.push(...checkUrl(config.proxy_url, 'proxy_url', 'the proxy'));
  const seen = new Set<string>();
  headerPairs(config.headers).forEach(([name, value], index) => {
    const path = Array.isArray(config.headers) ? ['headers', index] : ['headers', name];
    if (!TOKEN.test(name)) problems.push({ path, message: `"${name}" is not a valid header name (letters, digits and !#$%&'*+-.^_\`|~ only)` });
    if (BAD_VALUE.test(value)) problems.push({ path, message: 'a header value may not hold a line break or NUL' });
    const key = name.toLowerCase();
    if (seen.has(key)) problems.push({ path, message: `the header "${name}" is given twice (header names are case-insensitive)` });
    seen.add(key);
  });
  if (config.compression === 'zstd' && !zstdAvailable()) problems.push({ path: ['compression'], message: ZSTD_MISSING });
  const level = levelProblem(config.compression, config.compression_params.level);
  if (level !== undefined) problems.push({ path: ['compression_params', 'level'], message: level });
  if (parseDuration(config.idle_conn_timeout) === 0) problems.push({ path: ['idle_conn_timeout'], message: 'must be above 0; to keep no idle connection, set disable_keep_alives: true' });
  problems.push(...validateTlsClient(config.tls));
  return problems;
}

/** The Collector's composeSignalURL: the path is appended to the endpoint's own path. */
export function joinUrl(endpoint: string, path: string): string {
  const relative = path.startsWith('/') ? path.slice(1) : path;
  return endpoint.endsWith('/') ? endpoint + relative : `${endpoint}/${relative}`;
}
