// The attributes processor on batches pushed in process: each action as the Collector's
// attraction does it, include/exclude choosing the rows, the batch that came left as it was, and
// the settings problems a Collector config meets.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AnyValue } from '../../../src/model/anyvalue.js';
import { batchOf, type Batch } from '../../../src/model/batch.js';
import type { LogRow } from '../../../src/model/logs.js';
import type { SpanRow } from '../../../src/model/traces.js';
import { consumeContext } from '../../../src/runtime/component.js';
import { readmeExample } from '../../helpers/processed.js';
import { processorPipeline, processorProblems } from '../../helpers/processors.js';
import { attrs, exclusiveCopy, logRow, RECEIVED, resource, spanBatch } from '../../helpers/rows.js';

function logs(): Batch<'logs'> {
  const row = (i: number, service: string, body: string): LogRow => ({
    ...logRow(i, resource(service)),
    body,
    attributes: attrs({ user: `user${i}`, count: '42', ratio: 0.5, url: `https://shop.example/cart/${i}?x=1`, 'secret.token': 'abc' }),
  });
  return batchOf('logs', 'shop', RECEIVED, [row(0, 'checkout', 'GET /cart'), row(1, 'billing', 'GET /health')]);
}

async function pushed(settings: string, batch: Batch, metadata: Record<string, string[]>): Promise<Batch | undefined> {
  const { service, push, last } = processorPipeline('attributes', settings);
  await service.start();
  if (Object.keys(metadata).length === 0) await push(batch);
  else await service.consumer('nop', batch.signal)?.consume(batch, consumeContext({ client: { keyId: '', metadata } }));
  await service.shutdown();
  return last();
}

/** The batch out of the processor; the same batch made exclusive (changed in place) comes out with the same attributes. */
async function run(settings: string, batch: Batch = logs(), metadata: Record<string, string[]> = {}): Promise<Batch | undefined> {
  const out = await pushed(settings, batch, metadata);
  expect(attributesOf(await pushed(settings, exclusiveCopy(batch), metadata))).toEqual(attributesOf(out));
  return out;
}

const attributesOf = (batch: Batch | undefined): Record<string, AnyValue>[] => ((batch?.rows ?? []) as LogRow[]).map((row) => ({ ...row.attributes }));
const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

describe('the attributes processor', () => {
  it('insert adds a missing key only, update changes an existing one only, upsert does both; values from the config, another attribute or the request', async () => {
    const out = await run(
      `actions:
  - {key: user, value: nobody, action: insert}
  - {key: env, value: prod, action: insert}
  - {key: missing, value: x, action: update}
  - {key: count, value: 7, action: update}
  - {key: copied, from_attribute: user, action: upsert}
  - {key: tenant, from_context: metadata.x-tenant, action: upsert}
  - {key: nothing, from_attribute: no-such-key, action: upsert}`,
      logs(),
      { 'x-tenant': ['a', 'b'] },
    );
    expect(attributesOf(out)[0]).toEqual({ user: 'user0', count: 7n, ratio: 0.5, url: 'https://shop.example/cart/0?x=1', 'secret.token': 'abc', env: 'prod', copied: 'user0', tenant: 'a;b' });
  });

  it('delete and hash by key and by pattern (SHA-256 of the value\'s bytes, as the Collector\'s)', async () => {
    const out = await run(`actions:
  - {key: user, action: hash}
  - {key: ratio, action: hash}
  - {pattern: "^secret\\\\.", action: delete}
  - {key: url, action: delete}`);
    const double = Buffer.alloc(8);
    double.writeDoubleLE(0.5);
    expect(attributesOf(out)[0]).toEqual({ user: sha256(Buffer.from('user0')), count: '42', ratio: sha256(double) });
  });

  it('takes keys that plain objects inherit ("constructor", "toString") as absent until a row has them', async () => {
    const out = await run(`actions:
  - {key: constructor, value: made, action: insert}
  - {key: toString, value: x, action: update}
  - {key: hasOwnProperty, action: hash}
  - {key: valueOf, action: delete}
  - {key: copied, from_attribute: toString, action: upsert}`);
    expect(attributesOf(out)[0]).toEqual({ user: 'user0', count: '42', ratio: 0.5, url: 'https://shop.example/cart/0?x=1', 'secret.token': 'abc', constructor: 'made' });
  });

  it('hashes each value as it is, also when values repeat across batches and past the hashes an action remembers', async () => {
    // 5,000 values (more than an action keeps), each twice and in two batches, and a value that is not text among them.
    const value = (i: number): AnyValue => (i % 1000 === 7 ? 7n : `user${i % 5000}`);
    const batch = (from: number): Batch<'logs'> =>
      batchOf('logs', 'shop', RECEIVED, Array.from({ length: 5000 }, (_, i) => ({ ...logRow(from + i, resource('checkout')), attributes: attrs({ user: value(from + i) }) })));
    const { service, push, rec } = processorPipeline('attributes', 'actions: [{key: user, action: hash}]');
    await service.start();
    await push(batch(0));
    await push(batch(5000));
    await service.shutdown();
    const expected = (i: number): string => {
      const v = value(i);
      if (typeof v === 'string') return sha256(Buffer.from(v));
      const bytes = Buffer.alloc(8);
      bytes.writeBigInt64LE(v as bigint);
      return sha256(bytes);
    };
    const hashes = (rec.batches.get('capture') ?? []).flatMap((b) => attributesOf(b).map((a) => a['user']));
    expect(hashes).toHaveLength(10_000);
    expect(hashes).toEqual(Array.from({ length: 10_000 }, (_, i) => expected(i)));
  });

  it('extract sets each named group of the pattern; convert changes a type where it can', async () => {
    const out = await run(`actions:
  - {key: url, pattern: "^(?P<scheme>\\\\w+)://(?P<host>[^/]+)/(?P<path>[^?]*)", action: extract}
  - {key: count, converted_type: int, action: convert}
  - {key: ratio, converted_type: string, action: convert}
  - {key: user, converted_type: double, action: convert}`);
    expect(attributesOf(out)[1]).toEqual({ user: 'user1', count: 42n, ratio: '0.5', url: 'https://shop.example/cart/1?x=1', 'secret.token': 'abc', scheme: 'https', host: 'shop.example', path: 'cart/1' });
  });

  it('applies to the rows include chooses and exclude does not; hands on the batch itself when nothing changes, and never changes the one that came', async () => {
    const batch = logs();
    const included = await run(`include: {match_type: strict, services: [billing]}\nactions: [{key: env, value: prod, action: insert}]`, batch);
    expect(attributesOf(included).map((a) => a['env'])).toEqual([undefined, 'prod']);
    expect(attributesOf(batch).map((a) => a['env'])).toEqual([undefined, undefined]);
    const excluded = await run(`exclude: {match_type: regexp, log_bodies: ["/health$"], attributes: [{key: user, value: "^user"}]}\nactions: [{key: env, value: prod, action: insert}]`);
    expect(attributesOf(excluded).map((a) => a['env'])).toEqual(['prod', undefined]);
    const spans = await run(`include: {match_type: strict, span_names: ["POST /orders"]}\nactions: [{key: env, value: prod, action: insert}]`, spanBatch());
    expect((spans?.rows as SpanRow[]).map((s) => s.attributes['env'])).toEqual(['prod']);
    const none = await run(`include: {match_type: strict, libraries: [{name: other}]}\nactions: [{key: env, value: prod, action: insert}]`, batch);
    expect(none).toBe(batch);
  });

  it('changes the rows of an exclusive batch in place, those include chooses only, and hands them on in a new array of an exclusive batch; nothing changed, that batch itself', async () => {
    const batch = exclusiveCopy(logs());
    const maps = (batch.rows as LogRow[]).map((row) => row.attributes);
    const out = await pushed(`include: {match_type: strict, services: [billing]}\nactions: [{key: env, value: prod, action: insert}, {key: user, action: hash}]`, batch, {});
    expect(out?.exclusive).toBe(true);
    expect(out?.rows).not.toBe(batch.rows);
    expect((out?.rows as LogRow[]).map((row, i) => row === batch.rows[i] && row.attributes === maps[i])).toEqual([true, true]);
    expect(maps.map((m) => ({ ...m }))).toEqual([
      { user: 'user0', count: '42', ratio: 0.5, url: 'https://shop.example/cart/0?x=1', 'secret.token': 'abc' },
      { user: sha256(Buffer.from('user1')), count: '42', ratio: 0.5, url: 'https://shop.example/cart/1?x=1', 'secret.token': 'abc', env: 'prod' },
    ]);
    const untouched = exclusiveCopy(logs());
    expect(await pushed(`include: {match_type: strict, services: [nobody]}\nactions: [{key: env, value: prod, action: insert}]`, untouched, {})).toBe(untouched);
  });

  it('names what is wrong with an action or a property, as the Collector refuses them', () => {
    expect(
      processorProblems(
        'attributes',
        `actions:
  - {action: insert, value: 1}
  - {key: a, action: upsert}
  - {key: a, action: update, value: 1, from_attribute: b}
  - {key: a, action: extract, pattern: "(?P<first>\\\\w+)-(\\\\w+)"}
  - {key: a, action: convert}
  - {key: a, action: rename}
  - {pattern: "(a+)+", action: delete}
include: {match_type: strict, services: [checkout], span_kinds: [SPAN_KIND_SERVER]}
exclude: {match_type: strict}`,
      ),
    ).toEqual([
      'processors.attributes.actions[0]: needs a key',
      'processors.attributes.actions[1]: needs one of value, from_attribute or from_context',
      'processors.attributes.actions[2]: takes only one of value, from_attribute and from_context',
      'processors.attributes.actions[3]: pattern has a group without a name; name every group, or make it (?:...)',
      'processors.attributes.actions[4]: needs converted_type: string, int or double',
      'processors.attributes.actions[5]: unsupported action "rename"; use one of insert, update, upsert, delete, hash, extract, convert',
      'processors.attributes.actions[6]: pattern "(a+)+" could take exponential time on some input (a repetition without an upper bound inside another, such as (a+)+); write it without the nesting',
      'processors.attributes.include.span_kinds: span_kinds is not supported in otelgate yet; use the filter or transform processor\'s conditions for it',
      'processors.attributes.exclude: names no property to match (services, resources, attributes, libraries, span_names, log_bodies, log_severity_texts, metric_names)',
    ]);
  });

  it('needs at least one action, as the Collector', () => {
    expect(processorProblems('attributes', '{}')).toEqual(['processors.attributes.actions: missing required field "actions": give at least one action']);
    expect(processorProblems('attributes', 'actions: []')).toEqual(['processors.attributes.actions: missing required field "actions": give at least one action']);
  });

  it('does what the example in its README says', async () => {
    const row = (i: number, service: string): LogRow => ({
      ...logRow(i, resource(service)),
      attributes: attrs({ 'http.url': 'https://shop.example/cart', 'user.email': 'ann@example.com', 'secret.key': 'k', 'deployment.environment.name': 'staging' }),
    });
    const out = await run(readmeExample('attributes', 'attributes/tidy'), batchOf('logs', 'shop', RECEIVED, [row(0, 'checkout'), row(1, 'billing')]));
    expect(attributesOf(out)).toEqual([
      { 'http.url': 'https://shop.example/cart', 'user.email': sha256(Buffer.from('ann@example.com')), 'deployment.environment.name': 'staging', url_scheme: 'https', server_address: 'shop.example' },
      { 'http.url': 'https://shop.example/cart', 'user.email': 'ann@example.com', 'secret.key': 'k', 'deployment.environment.name': 'staging' },
    ]);
  });
});
