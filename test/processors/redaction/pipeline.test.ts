// The redaction processor, as its README's example configures it, in a pipeline of the built
// otelgate over real HTTP with a store behind it, and a second pipeline fed by the same receiver
// without it: the first stores the records masked, the second exactly as they were sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../helpers/gateway.js';
import { ALL, postJson, processedAndRaw, readmeExample, storedRaw } from '../../helpers/processed.js';

const config = processedAndRaw(`redaction/pii: ${readmeExample('redaction', 'redaction/pii')}`, ['redaction/pii'], ['logs', 'traces']);

const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
const T0 = 1_763_800_000_000_000_000n;

const LOGS = JSON.stringify({
  resourceLogs: [
    {
      resource: { attributes: [str('service.name', 'shop'), str('owner', 'ops@shop.example.org')] },
      scopeLogs: [
        {
          scope: {},
          logRecords: [
            { timeUnixNano: String(T0), body: { stringValue: 'payment by jane@example.com with 4111111111111111' }, attributes: [str('http.request.header.authorization', 'Bearer eyJhbGciOi.x.y')] },
            {
              timeUnixNano: String(T0 + 1n),
              body: { kvlistValue: { values: [str('card', '378282246310005'), { key: 'login', value: { kvlistValue: { values: [str('password', 'hunter2'), str('user', 'jane')] } } }] } },
              attributes: [str('user.name', 'jane')],
            },
            { timeUnixNano: String(T0 + 2n), body: { stringValue: 'nothing to hide' }, attributes: [] },
          ],
        },
      ],
    },
  ],
});

const SPANS = JSON.stringify({
  resourceSpans: [
    {
      resource: { attributes: [str('service.name', 'shop')] },
      scopeSpans: [
        {
          scope: {},
          spans: [
            {
              traceId: '5b8efff798038103d269b633813fc60c',
              spanId: 'eee19b7ec3c1b174',
              name: 'POST /pay',
              kind: 2,
              startTimeUnixNano: String(T0),
              endTimeUnixNano: String(T0 + 1_000_000n),
              attributes: [str('card.number', '5500000000000004'), str('http.route', '/pay')],
              events: [{ timeUnixNano: String(T0 + 10n), name: 'charged', attributes: [str('api_token', 'abc123')] }],
            },
          ],
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

describe('the redaction processor in a pipeline', () => {
  it('stores log records masked in bodies and attributes, while the other pipeline stores them as sent', async () => {
    expect(await postJson(gateway, '/v1/logs', 'shop', LOGS)).toEqual([200, '{}']);
    const shape = (rows: Record<string, unknown>[]) => rows.map((row) => [row['body'], row['attributes'], row['resource']]).sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1));
    const resource = { 'service.name': 'shop', owner: '****', 'redaction.masked.count': 1 };
    expect(shape((await gateway.read('logs', gateway.keys['shop'], ALL)).body.rows ?? [])).toEqual([
      ['nothing to hide', {}, resource],
      ['payment by **** with ****', { 'http.request.header.authorization': '****', 'redaction.masked.count': 1, 'redaction.body.masked.count': 1 }, resource],
      ['{"card":"****","login":{"password":"****","user":"jane"}}', { 'user.name': 'jane', 'redaction.body.masked.count': 2 }, resource],
    ]);
    const sent = { 'service.name': 'shop', owner: 'ops@shop.example.org' };
    expect(shape(storedRaw(gateway, 'logs', 'shop'))).toEqual([
      ['nothing to hide', {}, sent],
      ['payment by jane@example.com with 4111111111111111', { 'http.request.header.authorization': 'Bearer eyJhbGciOi.x.y' }, sent],
      ['{"card":"378282246310005","login":{"password":"hunter2","user":"jane"}}', { 'user.name': 'jane' }, sent],
    ]);
  });

  it('stores spans and their events masked, while the other pipeline stores them as sent', async () => {
    expect(await postJson(gateway, '/v1/traces', 'shop', SPANS)).toEqual([200, '{}']);
    const shape = (rows: Record<string, unknown>[]) => rows.map((row) => [row['attributes'], (row['events'] as { attributes: unknown }[]).map((e) => e.attributes)]);
    expect(shape((await gateway.read('spans', gateway.keys['shop'], ALL)).body.rows ?? [])).toEqual([
      [{ 'card.number': '****', 'http.route': '/pay', 'redaction.masked.count': 1 }, [{ api_token: '****', 'redaction.masked.count': 1 }]],
    ]);
    expect(shape(storedRaw(gateway, 'spans', 'shop'))).toEqual([[{ 'card.number': '5500000000000004', 'http.route': '/pay' }, [{ api_token: 'abc123' }]]]);
  });
});
