// The resource processor on batches pushed in process: its actions on each resource, once per
// resource of a batch into one new resource its rows share, the batch that came left as it was.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { batchOf } from '../../../src/model/batch.js';
import type { LogRow } from '../../../src/model/logs.js';
import { readmeExample } from '../../helpers/processed.js';
import { processorPipeline, processorProblems } from '../../helpers/processors.js';
import { attrs, logRow, RECEIVED, resource } from '../../helpers/rows.js';

describe('the resource processor', () => {
  it('changes each resource once, into one new resource for all its rows; the batch that came stays as it was', async () => {
    const checkout = resource('checkout');
    const billing = resource('billing');
    const batch = batchOf('logs', 'shop', RECEIVED, [logRow(0, checkout), logRow(1, checkout), logRow(2, billing)]);
    const { service, push, last } = processorPipeline(
      'resource',
      `attributes:
  - {key: deployment.environment.name, value: prod, action: upsert}
  - {key: host.name, action: delete}
  - {key: team, value: payments, action: insert}`,
    );
    await service.start();
    await push(batch);
    await service.shutdown();
    const rows = last()?.rows as LogRow[];
    expect(rows.map((r) => ({ ...r.resource.attributes }))).toEqual([
      { 'service.name': 'checkout', 'deployment.environment.name': 'prod', team: 'payments' },
      { 'service.name': 'checkout', 'deployment.environment.name': 'prod', team: 'payments' },
      { 'service.name': 'billing', 'deployment.environment.name': 'prod', team: 'payments' },
    ]);
    expect(rows[0]?.resource).toBe(rows[1]?.resource);
    expect(rows[0]?.resource).not.toBe(checkout);
    expect({ ...checkout.attributes }).toEqual({ 'service.name': 'checkout', 'host.name': 'web-1' });
    expect((batch.rows as LogRow[])[0]?.resource).toBe(checkout);
  });

  it('names an action that cannot work', () => {
    expect(processorProblems('resource', 'attributes: [{key: a, action: upsert}]')).toEqual(['processors.resource.attributes[0]: needs one of value, from_attribute or from_context']);
  });

  it('does what the example in its README says', async () => {
    const { service, push, last } = processorPipeline('resource', readmeExample('resource', 'resource/env'));
    await service.start();
    const res = { ...resource('checkout'), attributes: attrs({ 'service.name': 'checkout', 'host.name': 'web-1', 'cloud.account.id': '1234' }) };
    await push(batchOf('logs', 'shop', RECEIVED, [logRow(0, res)]));
    await service.shutdown();
    expect({ ...(last()?.rows as LogRow[])[0]?.resource.attributes }).toEqual({
      'service.name': 'checkout',
      'cloud.account.id': createHash('sha256').update('1234').digest('hex'),
      'deployment.environment.name': 'production',
    });
  });
});
