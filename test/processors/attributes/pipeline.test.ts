// The attributes and resource processors in a pipeline of the built otelgate, over real HTTP,
// with a store behind it, and a second pipeline fed by the same receiver without them: the first
// stores the rows as the actions leave them, the second exactly as they were sent.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../helpers/gateway.js';
import { ALL, postJson, processedAndRaw, storedRaw } from '../../helpers/processed.js';

const config = processedAndRaw(
  `resource/env:
  attributes:
    - {key: deployment.environment.name, value: production, action: upsert}
attributes/tidy:
  include: {match_type: regexp, log_bodies: ["^login"]}
  actions:
    - {key: user.email, action: hash}
    - {key: attempt, converted_type: int, action: convert}`,
  ['resource/env', 'attributes/tidy'],
  ['logs'],
);

const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
const T0 = 1_763_800_000_000_000_000n;
const LOGS = JSON.stringify({
  resourceLogs: [
    {
      resource: { attributes: [str('service.name', 'web')] },
      scopeLogs: [
        {
          scope: {},
          logRecords: [
            { timeUnixNano: String(T0), body: { stringValue: 'login failed' }, attributes: [str('user.email', 'ann@example.com'), str('attempt', '3')] },
            { timeUnixNano: String(T0 + 1n), body: { stringValue: 'page shown' }, attributes: [str('user.email', 'bob@example.com'), str('attempt', '1')] },
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

describe('the attributes and resource processors in a pipeline', () => {
  it('store what their actions leave, while the other pipeline stores the records as sent', async () => {
    expect(await postJson(gateway, '/v1/logs', 'shop', LOGS)).toEqual([200, '{}']);
    const shape = (rows: Record<string, unknown>[]) => rows.map((row) => [row['body'], row['attributes'], row['resource']]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(shape((await gateway.read('logs', gateway.keys['shop'], ALL)).body.rows ?? [])).toEqual([
      ['login failed', { 'user.email': createHash('sha256').update('ann@example.com').digest('hex'), attempt: 3 }, { 'service.name': 'web', 'deployment.environment.name': 'production' }],
      ['page shown', { 'user.email': 'bob@example.com', attempt: '1' }, { 'service.name': 'web', 'deployment.environment.name': 'production' }],
    ]);
    expect(shape(storedRaw(gateway, 'logs', 'shop'))).toEqual([
      ['login failed', { 'user.email': 'ann@example.com', attempt: '3' }, { 'service.name': 'web' }],
      ['page shown', { 'user.email': 'bob@example.com', attempt: '1' }, { 'service.name': 'web' }],
    ]);
  });
});
