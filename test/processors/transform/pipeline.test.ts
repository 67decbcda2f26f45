// The transform processor in a pipeline of the built otelgate, over real HTTP, with a store behind
// it, and a second pipeline fed by the same receiver without it: the first stores the rows as the
// statements leave them, the second exactly as they were sent, each in the key's project.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../helpers/gateway.js';
import { ALL, postJson, processedAndRaw, storedRaw } from '../../helpers/processed.js';

const config = processedAndRaw(
  `transform/tidy:
  log_statements:
    - replace_pattern(log.body, "password=[^ ]*", "password=***")
    - set(resource.attributes["team"], "payments") where resource.attributes["service.name"] == "billing"
    - context: log
      conditions: ['severity_number >= SEVERITY_NUMBER_ERROR']
      statements: ['set(attributes["alert"], true)']
  trace_statements:
    - keep_keys(span.attributes, ["http.route"])
    - set(span.status.code, STATUS_CODE_ERROR) where span.name == "GET /fail"`,
  ['transform/tidy'],
  ['logs', 'traces'],
);

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

let gateway: Gateway;

beforeAll(async () => {
  gateway = await startGateway({ projects: ['shop'], config });
});

afterAll(async () => {
  await gateway?.stop();
});

const byTime = (rows: Record<string, unknown>[]) => [...rows].sort((a, b) => String(a['time_unix_nano']).localeCompare(String(b['time_unix_nano'])));

describe('the transform processor in a pipeline', () => {
  it('stores log records as its statements leave them, while the other pipeline stores them as sent', async () => {
    expect(await postJson(gateway, '/v1/logs', 'shop', LOGS)).toEqual([200, '{}']);
    const transformed = byTime((await gateway.read('logs', gateway.keys['shop'], ALL)).body.rows ?? []);
    expect(transformed.map((row) => [row['body'], row['attributes'], row['resource']])).toEqual([
      ['login failed password=*** for ann', { alert: true }, { 'service.name': 'billing', team: 'payments' }],
      ['invoice sent', {}, { 'service.name': 'billing', team: 'payments' }],
    ]);
    expect(byTime(storedRaw(gateway, 'logs', 'shop')).map((row) => [row['body'], row['attributes'], row['resource']])).toEqual([
      ['login failed password=hunter2 for ann', {}, { 'service.name': 'billing' }],
      ['invoice sent', {}, { 'service.name': 'billing' }],
    ]);
  });

  it('stores spans as its statements leave them, while the other pipeline stores them as sent', async () => {
    expect(await postJson(gateway, '/v1/traces', 'shop', SPANS)).toEqual([200, '{}']);
    const shape = (rows: Record<string, unknown>[]) =>
      rows.map((row) => [row['name'], row['attributes'], (row['status'] as { code: number } | undefined)?.code ?? row['status_code']]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(shape((await gateway.read('spans', gateway.keys['shop'], ALL)).body.rows ?? [])).toEqual([
      ['GET /fail', { 'http.route': '/fail' }, 2],
      ['GET /ok', { 'http.route': '/ok' }, 0],
    ]);
    expect(shape(storedRaw(gateway, 'spans', 'shop'))).toEqual([
      ['GET /fail', { 'http.route': '/fail', 'user.email': 'ann@example.com' }, 0],
      ['GET /ok', { 'http.route': '/ok', 'user.email': 'ann@example.com' }, 0],
    ]);
  });
});
