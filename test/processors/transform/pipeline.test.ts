// The transform processor in a pipeline of the built otelgate, over real HTTP, with a store behind
// it, and a second pipeline fed by the same receiver without it: the first stores the rows as the
// statements leave them, the second exactly as they were sent, each in the key's project.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { startGateway, type Gateway } from '../../helpers/gateway.js';

const config = (keysFile: string): string => `
extensions:
  apikeyauth: {keys_file: ${keysFile}}
receivers:
  ingest:
    endpoint: 127.0.0.1:0
    auth: {authenticator: apikeyauth}
    read_api: {store: store/transformed}
processors:
  transform/tidy:
    log_statements:
      - replace_pattern(log.body, "password=[^ ]*", "password=***")
      - set(resource.attributes["team"], "payments") where resource.attributes["service.name"] == "billing"
      - context: log
        conditions: ['severity_number >= SEVERITY_NUMBER_ERROR']
        statements: ['set(attributes["alert"], true)']
    trace_statements:
      - keep_keys(span.attributes, ["http.route"])
      - set(span.status.code, STATUS_CODE_ERROR) where span.name == "GET /fail"
exporters:
  store/transformed: {path: ${join(keysFile, '..', 'transformed.db')}}
  store/raw: {path: ${join(keysFile, '..', 'raw.db')}}
service:
  extensions: [apikeyauth]
  pipelines:
    logs/transformed: {receivers: [ingest], processors: [transform/tidy], exporters: [store/transformed]}
    logs/raw: {receivers: [ingest], exporters: [store/raw]}
    traces/transformed: {receivers: [ingest], processors: [transform/tidy], exporters: [store/transformed]}
    traces/raw: {receivers: [ingest], exporters: [store/raw]}
`;

const T0 = 1_763_800_000_000_000_000n;
const str = (key: string, value: string) => ({ key, value: { stringValue: value } });

const LOGS = JSON.stringify({
  resourceLogs: [
    {
      resource: { attributes: [str('service.name', 'billing')] },
      scopeLogs: [
        {
          scope: {},
          logRecords: [
            { timeUnixNano: String(T0), severityNumber: 17, body: { stringValue: 'login failed password=hunter2 for ann' } },
            { timeUnixNano: String(T0 + 1n), severityNumber: 9, body: { stringValue: 'invoice sent' } },
          ],
        },
      ],
    },
  ],
});

const SPANS = JSON.stringify({
  resourceSpans: [
    {
      resource: { attributes: [str('service.name', 'web')] },
      scopeSpans: [
        {
          scope: {},
          spans: ['GET /ok', 'GET /fail'].map((name, i) => ({
            traceId: '5b8efff798038103d269b633813fc60c',
            spanId: `eee19b7ec3c1b17${i}`,
            name,
            kind: 2,
            startTimeUnixNano: String(T0),
            endTimeUnixNano: String(T0 + 1_000n),
            attributes: [str('http.route', name.slice(4)), str('user.email', 'ann@example.com')],
          })),
        },
      ],
    },
  ],
});

const ALL = { from: '1970-01-01T00:00:00Z', limit: '100' };
let gateway: Gateway;

beforeAll(async () => {
  gateway = await startGateway({ projects: ['shop'], config });
});

afterAll(async () => {
  await gateway?.stop();
});

async function post(path: string, body: string): Promise<[number, string]> {
  const response = await fetch(`${gateway.url}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${gateway.keys['shop']}`, 'Content-Type': 'application/json' }, body });
  return [response.status, await response.text()];
}

/** `otelgate query` on the store of the untransformed rows. */
function raw(what: 'logs' | 'spans'): Record<string, unknown>[] {
  const query = runCli(['query', what, '--project', 'shop', '--exporter', 'store/raw', '--from', ALL.from, '--config', join(gateway.dir, 'config.yaml')]);
  expect(query.stderr).toBe('');
  return query.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

const byTime = (rows: Record<string, unknown>[]) => [...rows].sort((a, b) => String(a['time_unix_nano']).localeCompare(String(b['time_unix_nano'])));

describe('the transform processor in a pipeline', () => {
  it('stores log records as its statements leave them, while the other pipeline stores them as sent', async () => {
    expect(await post('/v1/logs', LOGS)).toEqual([200, '{}']);
    const transformed = byTime((await gateway.read('logs', gateway.keys['shop'], ALL)).body.rows ?? []);
    expect(transformed.map((row) => [row['body'], row['attributes'], row['resource']])).toEqual([
      ['login failed password=*** for ann', { alert: true }, { 'service.name': 'billing', team: 'payments' }],
      ['invoice sent', {}, { 'service.name': 'billing', team: 'payments' }],
    ]);
    expect(byTime(raw('logs')).map((row) => [row['body'], row['attributes'], row['resource']])).toEqual([
      ['login failed password=hunter2 for ann', {}, { 'service.name': 'billing' }],
      ['invoice sent', {}, { 'service.name': 'billing' }],
    ]);
  });

  it('stores spans as its statements leave them, while the other pipeline stores them as sent', async () => {
    expect(await post('/v1/traces', SPANS)).toEqual([200, '{}']);
    const shape = (rows: Record<string, unknown>[]) =>
      rows.map((row) => [row['name'], row['attributes'], (row['status'] as { code: number } | undefined)?.code ?? row['status_code']]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(shape((await gateway.read('spans', gateway.keys['shop'], ALL)).body.rows ?? [])).toEqual([
      ['GET /fail', { 'http.route': '/fail' }, 2],
      ['GET /ok', { 'http.route': '/ok' }, 0],
    ]);
    expect(shape(raw('spans'))).toEqual([
      ['GET /fail', { 'http.route': '/fail', 'user.email': 'ann@example.com' }, 0],
      ['GET /ok', { 'http.route': '/ok', 'user.email': 'ann@example.com' }, 0],
    ]);
  });
});
