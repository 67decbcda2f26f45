// The redaction processor on batches pushed in process, with the Collector's own cases
// (processor/redactionprocessor/processor_test.go: the inputs and the expected outputs are its):
// the same attributes put on a resource, a scope, a log record and its map body, a span and its
// event, and a data point, and each of those checked after the processor.
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AnyValue, Attributes } from '../../../src/model/anyvalue.js';
import { batchOf, type Batch } from '../../../src/model/batch.js';
import type { LogRow } from '../../../src/model/logs.js';
import type { DataPointRow } from '../../../src/model/metrics.js';
import type { Resource, Scope } from '../../../src/model/resource.js';
import type { SpanRow } from '../../../src/model/traces.js';
import { readmeExample } from '../../helpers/processed.js';
import { processorPipeline, processorProblems } from '../../helpers/processors.js';
import { attrs, logRow, metricBatch, RECEIVED, scope, spanBatch } from '../../helpers/rows.js';

const ALL_SIGNALS = ['logs', 'traces', 'metrics'];

/** The batches that came out, in the order pushed, after `settings` worked on `batches`. */
async function processed(settings: string, batches: Batch[]): Promise<Batch[]> {
  const { service, push, rec } = processorPipeline('redaction', settings, ALL_SIGNALS);
  await service.start();
  for (const batch of batches) await push(batch);
  await service.shutdown();
  return rec.batches.get('capture') ?? [];
}

/** A log record's body as a map, with the record's `redaction.body.*` summary in it under the names a map's own summary has: the Collector's tests read a body so. */
function bodyWithSummary(row: LogRow): Record<string, AnyValue> {
  const out: Record<string, AnyValue> = { ...(row.body as Attributes) };
  for (const [key, value] of Object.entries(row.attributes)) if (key.startsWith('redaction.body.')) out[key.replace('redaction.body.', 'redaction.')] = value;
  return out;
}

/**
 * Every map the processor redacts, with `values` in each before: of the resource, the scope, a log
 * record, its body, a span, its event, a data point.
 */
async function everywhere(settings: string, values: Record<string, AnyValue>): Promise<Record<string, Record<string, AnyValue>>> {
  const res: Resource = { attributes: attrs(values), droppedAttributesCount: 0, schemaUrl: '' };
  const sc: Scope = { ...scope(), attributes: attrs(values) };
  const log: LogRow = { ...logRow(0, res, sc), attributes: attrs(values), body: attrs(values) };
  const span = spanBatch().rows[0] as SpanRow;
  const withEvent: SpanRow = { ...span, resource: res, scope: sc, attributes: attrs(values), events: [{ ...(span.events[0] as SpanRow['events'][0]), attributes: attrs(values) }] };
  const point: DataPointRow = { ...(metricBatch().rows[0] as DataPointRow), resource: res, scope: sc, attributes: attrs(values) };
  const [logs, traces, metrics] = await processed(settings, [batchOf('logs', 'shop', RECEIVED, [log]), batchOf('traces', 'shop', RECEIVED, [withEvent]), batchOf('metrics', 'shop', RECEIVED, [point])]);
  const l = logs?.rows[0] as LogRow;
  const s = traces?.rows[0] as SpanRow;
  const p = metrics?.rows[0] as DataPointRow;
  const plain = (map: Attributes) => ({ ...map });
  return {
    'log resource': plain(l.resource.attributes),
    'log scope': plain(l.scope.attributes),
    log: Object.fromEntries(Object.entries(l.attributes).filter(([key]) => !key.startsWith('redaction.body.'))),
    'log body': bodyWithSummary(l),
    'span resource': plain(s.resource.attributes),
    'span scope': plain(s.scope.attributes),
    span: plain(s.attributes),
    'span event': plain(s.events[0]?.attributes as Attributes),
    'point resource': plain(p.resource.attributes),
    'point scope': plain(p.scope.attributes),
    point: plain(p.attributes),
  };
}

/** `expected` for every map `everywhere` gives. */
function inEvery(maps: Record<string, Record<string, AnyValue>>, expected: Record<string, AnyValue>): void {
  for (const [where, map] of Object.entries(maps)) expect({ where, map }).toEqual({ where, map: expected });
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

describe('the redaction processor, with the Collector\'s cases', () => {
  it('removes the keys that are not allowed, keeps the allowed and the ignored', async () => {
    const maps = await everywhere('allowed_keys: [group, id, name]\nignored_keys: [safe_attribute]', {
      group: 'temporary',
      id: 5n,
      name: 'placeholder',
      safe_attribute: '4111111111111112',
      credit_card: '4111111111111111',
    });
    inEvery(maps, { group: 'temporary', id: 5n, name: 'placeholder', safe_attribute: '4111111111111112' });
  });

  it('with an empty allowed_keys removes every attribute (fails closed)', async () => {
    inEvery(await everywhere('{}', { group: 'temporary', id: 5n }), {});
  });

  it('keeps every key with allow_all_keys, and still masks values', async () => {
    const maps = await everywhere('allowed_keys: [group, id, name]\nallow_all_keys: true\nblocked_values: ["4[0-9]{12}(?:[0-9]{3})?"]', {
      group: 'temporary',
      id: 5n,
      name: 'placeholder',
      credit_card: 'placeholder 4111111111111111',
      email: 'user@mycompany.com',
    });
    inEvery(maps, { group: 'temporary', id: 5n, name: 'placeholder', credit_card: 'placeholder ****', email: 'user@mycompany.com' });
  });

  const debugValues = {
    id: 5n,
    'group.id': 'some.valid.id',
    'member (id)': 'some other valid id',
    name: 'placeholder 4111111111111111',
    safe_attribute: 'harmless 4111111111111112',
    safeRE_attribute_id: 'safe id',
    safeRE_attribute_source: 'safe source',
    credit_card: '4111111111111111',
    token_some: 'tokenize',
    api_key_some: 'apinize',
    email: 'user@mycompany.com',
  };
  const debugSettings = `allowed_keys: [id, group, name, group.id, "member (id)", token_some, api_key_some, email]
blocked_values: ["4[0-9]{12}(?:[0-9]{3})?"]
ignored_keys: [safe_attribute]
ignored_key_patterns: ["safeRE_attribute.*"]
blocked_key_patterns: [".*(token|api_key).*"]
allowed_values: [".+@mycompany.com"]`;
  const kept = {
    id: 5n,
    'group.id': 'some.valid.id',
    'member (id)': 'some other valid id',
    safe_attribute: 'harmless 4111111111111112',
    safeRE_attribute_id: 'safe id',
    safeRE_attribute_source: 'safe source',
    email: 'user@mycompany.com',
  };

  it('summary debug: says which keys it removed, masked and allowed, and counts them and the ignored', async () => {
    inEvery(await everywhere(`${debugSettings}\nsummary: debug`, debugValues), {
      ...kept,
      name: 'placeholder ****',
      token_some: '****',
      api_key_some: '****',
      'redaction.redacted.keys': 'credit_card',
      'redaction.redacted.count': 1n,
      'redaction.masked.keys': 'api_key_some,name,token_some',
      'redaction.masked.count': 3n,
      'redaction.allowed.keys': 'email',
      'redaction.allowed.count': 1n,
      'redaction.ignored.count': 3n,
    });
  });

  it('hash_function md5: what is masked becomes its hash', async () => {
    inEvery(await everywhere(`${debugSettings}\nhash_function: MD5\nsummary: debug`, debugValues), {
      ...kept,
      name: 'placeholder 5910f4ea0062a0e29afd3dccc741e3ce',
      api_key_some: '93a699237950bde9eb9d25c7ead025f3',
      token_some: '77e9ef3680c5518785ef0121d3884c3d',
      'redaction.redacted.keys': 'credit_card',
      'redaction.redacted.count': 1n,
      'redaction.masked.keys': 'api_key_some,name,token_some',
      'redaction.masked.count': 3n,
      'redaction.allowed.keys': 'email',
      'redaction.allowed.count': 1n,
      'redaction.ignored.count': 3n,
    });
    expect(md5('4111111111111111')).toBe('5910f4ea0062a0e29afd3dccc741e3ce');
  });

  it('hash_function sha1, sha3 and the hmacs', async () => {
    const key = 'k'.repeat(64);
    const cases: [string, string][] = [
      ['sha1', createHash('sha1').update('4111111111111111').digest('hex')],
      ['sha3', createHash('sha3-256').update('4111111111111111').digest('hex')],
      ['hmac-sha256', createHmac('sha256', key).update('4111111111111111').digest('hex')],
      ['hmac-sha512', createHmac('sha512', key).update('4111111111111111').digest('hex')],
    ];
    for (const [fn, hash] of cases) {
      const maps = await everywhere(`allow_all_keys: true\nblocked_values: ["4[0-9]{15}"]\nhash_function: ${fn}\nhmac_key: ${key}`, { card: 'card 4111111111111111 paid' });
      inEvery(maps, { card: `card ${hash} paid` });
    }
  });

  it('summary info: counts only', async () => {
    const maps = await everywhere(
      'allowed_keys: [id, name, group, email]\nblocked_values: ["4[0-9]{12}(?:[0-9]{3})?"]\nignored_keys: [safe_attribute]\nignored_key_patterns: ["safeRE_attribute.*"]\nallowed_values: [".+@mycompany.com"]\nsummary: info',
      {
        id: 5n,
        safe_attribute: 'harmless but suspicious 4111111111111141',
        safeRE_attribute_id: 'safe id',
        safeRE_attribute_source: 'safe source',
        name: 'placeholder 4111111111111111',
        credit_card: '4111111111111111',
        email: 'user@mycompany.com',
      },
    );
    inEvery(maps, {
      id: 5n,
      safe_attribute: 'harmless but suspicious 4111111111111141',
      safeRE_attribute_id: 'safe id',
      safeRE_attribute_source: 'safe source',
      name: 'placeholder ****',
      email: 'user@mycompany.com',
      'redaction.redacted.count': 1n,
      'redaction.masked.count': 1n,
      'redaction.allowed.count': 1n,
      'redaction.ignored.count': 3n,
    });
  });

  it('summary silent, and by default: no summary at all', async () => {
    const values = { id: 5n, name: 'placeholder 4111111111111111', credit_card: '4111111111111111' };
    for (const summary of ['summary: silent\n', '']) {
      inEvery(await everywhere(`${summary}allowed_keys: [id, name, group]\nblocked_values: ["4[0-9]{12}(?:[0-9]{3})?"]`, values), { id: 5n, name: 'placeholder ****' });
    }
  });

  it('applies several blocked values, each where it matches', async () => {
    const maps = await everywhere('allowed_keys: [id, name, mystery]\nblocked_values: ["4[0-9]{12}(?:[0-9]{3})?", "(5[1-5][0-9]{3})"]\nsummary: debug', {
      id: 5n,
      mystery: 'mystery 52000',
      name: 'placeholder 4111111111111111 52000',
      credit_card: '4111111111111111',
    });
    inEvery(maps, {
      id: 5n,
      mystery: 'mystery ****',
      name: 'placeholder **** ****',
      'redaction.redacted.keys': 'credit_card',
      'redaction.redacted.count': 1n,
      'redaction.masked.keys': 'mystery,name',
      'redaction.masked.count': 2n,
    });
  });

  it('adds to the summary of an earlier pass', async () => {
    const [logs] = await processed('allowed_keys: [id, credit_card, mystery]\nblocked_values: ["4[0-9]{12}(?:[0-9]{3})?"]\nsummary: debug', [
      batchOf('logs', 'shop', RECEIVED, [
        {
          ...logRow(0),
          attributes: attrs({
            id: 5n,
            redundant: 1.2,
            mystery: 'mystery ****',
            credit_card: '4111111111111111',
            'redaction.redacted.keys': 'dropped_attr1,dropped_attr2',
            'redaction.redacted.count': 2n,
            'redaction.masked.keys': 'mystery',
            'redaction.masked.count': 1n,
          }),
        },
      ]),
    ]);
    expect({ ...(logs?.rows[0] as LogRow).attributes }).toEqual({
      id: 5n,
      mystery: 'mystery ****',
      credit_card: '****',
      'redaction.redacted.keys': 'dropped_attr1,dropped_attr2,redundant',
      'redaction.redacted.count': 3n,
      'redaction.masked.keys': 'credit_card,mystery',
      'redaction.masked.count': 2n,
    });
  });

  it('checks values that are not strings only with redact_all_types', async () => {
    const settings = 'allow_all_keys: true\nblocked_values: ["4[0-9]{12}(?:[0-9]{3})?"]';
    const values = { group: 'temporary', id: 5n, credit_card: 'placeholder 4111111111111111', credit_card_int: 4111111111111111n };
    const without = await everywhere(settings, values);
    for (const where of ['log', 'span', 'span event', 'point', 'log resource', 'point scope']) {
      expect(without[where]).toEqual({ group: 'temporary', id: 5n, credit_card: 'placeholder ****', credit_card_int: 4111111111111111n });
    }
    const withAll = await everywhere(`${settings}\nredact_all_types: true`, values);
    inEvery(withAll, { group: 'temporary', id: 5n, credit_card: 'placeholder ****', credit_card_int: '****' });
  });

  it('masks a string body where it matches, and says so on the record', async () => {
    const [logs] = await processed('allowed_keys: [id]\nblocked_values: ["4[0-9]{12}(?:[0-9]{3})?"]\nsummary: debug', [
      batchOf('logs', 'shop', RECEIVED, [{ ...logRow(0), attributes: attrs({}), body: 'placeholder 4111111111111111' }]),
    ]);
    const row = logs?.rows[0] as LogRow;
    expect(row.body).toBe('placeholder ****');
    expect({ ...row.attributes }).toEqual({ 'redaction.body.masked.keys': 'body', 'redaction.body.masked.count': 1n });
  });

  it('walks a map body: keys as attribute keys, paths in the summary, lists by index', async () => {
    const body = attrs({
      credit_card: '4111111111111111',
      not_allowed_key: 'temp',
      id: 'user123',
      nested: attrs({ credit_card: '4111111111111111', not_allowed_key: 'temp', id: 'user123', safe_attribute: '4111111111111111', email: 'user@mycompany.com' }),
      slice: ['4111111111111111', 'user123'],
    });
    const [logs] = await processed(
      'allowed_keys: [id, email, credit_card, nested, slice]\nblocked_values: ["4[0-9]{12}(?:[0-9]{3})?"]\nignored_keys: [safe_attribute]\nallowed_values: [".+@mycompany.com"]\nsummary: debug',
      [batchOf('logs', 'shop', RECEIVED, [{ ...logRow(0), attributes: attrs({}), body }])],
    );
    const row = logs?.rows[0] as LogRow;
    expect(JSON.parse(JSON.stringify(row.body))).toEqual({
      credit_card: '****',
      id: 'user123',
      nested: { credit_card: '****', id: 'user123', safe_attribute: '4111111111111111', email: 'user@mycompany.com' },
      slice: ['****', 'user123'],
    });
    expect({ ...row.attributes }).toEqual({
      'redaction.body.redacted.keys': 'nested.not_allowed_key,not_allowed_key',
      'redaction.body.redacted.count': 2n,
      'redaction.body.masked.keys': 'credit_card,nested.credit_card,slice.[0]',
      'redaction.body.masked.count': 3n,
      'redaction.body.allowed.keys': 'nested.email',
      'redaction.body.allowed.count': 1n,
      'redaction.body.ignored.count': 1n,
    });
    expect(JSON.parse(JSON.stringify(body))).toEqual(JSON.parse(JSON.stringify(attrs({ ...body }))));
    expect((body['nested'] as Attributes)['not_allowed_key']).toBe('temp');
  });

  it('masks span event attributes', async () => {
    const span = spanBatch().rows[0] as SpanRow;
    const [traces] = await processed('allow_all_keys: true\nblocked_values: [xyzxyz]\nsummary: debug', [
      batchOf('traces', 'shop', RECEIVED, [{ ...span, events: [{ ...(span.events[0] as SpanRow['events'][0]), attributes: attrs({ password: 'xyzxyz', username: 'foobar' }) }] }]),
    ]);
    expect({ ...(traces?.rows[0] as SpanRow).events[0]?.attributes }).toEqual({ password: '****', username: 'foobar', 'redaction.masked.keys': 'password', 'redaction.masked.count': 1n });
  });
});

describe('the redaction processor', () => {
  it('replaces matches as Go does: no empty match right after a match', async () => {
    inEvery(await everywhere('allow_all_keys: true\nblocked_values: ["a*"]', { text: 'baaac' }), { text: '****b****c****' });
  });

  it('masks a blocked key\'s value line by line, as Go\'s .* does, and never between the halves of a character', async () => {
    inEvery(await everywhere('allow_all_keys: true\nblocked_key_patterns: [secret]\nblocked_values: ["x*"]', { secret: 'line one\nline two\n', emoji: '😀' }), {
      secret: '****\n****\n****',
      emoji: '****😀****',
    });
    inEvery(await everywhere('allow_all_keys: true\nblocked_key_patterns: [secret]\nhash_function: md5', { secret: 'a\nb' }), { secret: `${md5('a')}\n${md5('b')}` });
  });

  it('masks with masking_string when it is set', async () => {
    inEvery(await everywhere('allow_all_keys: true\nblocked_values: ["4[0-9]{15}"]\nblocked_key_patterns: [secret]\nmasking_string: "[REDACTED]"', { card: 'card 4111111111111111', secret: 'x' }), {
      card: 'card [REDACTED]',
      secret: '[REDACTED]',
    });
  });

  it('changes a resource once per batch into one new resource its rows share; the batch that came stays as it was', async () => {
    const res: Resource = { attributes: attrs({ 'service.name': 'checkout', 'user.email': 'jane@example.com' }), droppedAttributesCount: 0, schemaUrl: '' };
    const batch = batchOf('logs', 'shop', RECEIVED, [logRow(0, res), logRow(1, res)]);
    const [logs] = await processed('allow_all_keys: true\nblocked_values: ["[a-z]+@example[.]com"]', [batch]);
    const rows = logs?.rows as LogRow[];
    expect({ ...rows[0]?.resource.attributes }).toEqual({ 'service.name': 'checkout', 'user.email': '****' });
    expect(rows[1]?.resource).toBe(rows[0]?.resource);
    expect(res.attributes['user.email']).toBe('jane@example.com');
    expect((batch.rows as LogRow[])[0]?.resource).toBe(res);
    expect(logs?.project).toBe('shop');
  });

  it('hands on a batch it has nothing to change as it came', async () => {
    const batch = batchOf('logs', 'shop', RECEIVED, [logRow(0)]);
    const [logs] = await processed('allow_all_keys: true\nblocked_values: ["4[0-9]{15}"]', [batch]);
    expect(logs).toBe(batch);
  });

  it('does what the example in its README says', async () => {
    const settings = readmeExample('redaction', 'redaction/pii');
    const row: LogRow = {
      ...logRow(0),
      body: 'payment by jane@example.com with 4111111111111111',
      attributes: attrs({ 'http.request.header.authorization': 'Bearer eyJhbGciOi.x.y', 'db.password': 'hunter2', 'order.id': 1000n }),
    };
    const span = { ...(spanBatch().rows[0] as SpanRow), attributes: attrs({ 'card.number': '5500000000000004', 'user.email': 'ops@shop.example.org', 'http.route': '/orders' }) };
    const [logs, traces] = await processed(settings, [batchOf('logs', 'shop', RECEIVED, [row]), batchOf('traces', 'shop', RECEIVED, [span])]);
    const out = logs?.rows[0] as LogRow;
    expect(out.body).toBe('payment by **** with ****');
    expect({ ...out.attributes }).toEqual({
      'http.request.header.authorization': '****',
      'db.password': '****',
      'order.id': 1000n,
      'redaction.masked.count': 2n,
      'redaction.body.masked.count': 1n,
    });
    expect({ ...(traces?.rows[0] as SpanRow).attributes }).toEqual({ 'card.number': '****', 'user.email': '****', 'http.route': '/orders', 'redaction.masked.count': 2n });
  });

  it('names what is wrong in its settings', () => {
    expect(processorProblems('redaction', 'blocked_values: ["(a+)+$", "ok"]\nallowed_values: ["(?<=x)y"]')).toEqual([
      'processors.redaction.blocked_values[0]: "(a+)+$" could take exponential time on some input (a repetition without an upper bound inside another, such as (a+)+); write it without the nesting',
      'processors.redaction.allowed_values[0]: "(?<=x)y": lookarounds are not RE2 syntax, which the Collector\'s regular expressions are',
    ]);
    expect(processorProblems('redaction', 'hash_function: sha256')).toEqual(['processors.redaction.hash_function: unknown hash function "sha256"; use one of md5, sha1, sha3, hmac-sha256, hmac-sha512, or leave it out to mask with ****']);
    expect(processorProblems('redaction', 'hash_function: hmac-sha256\nhmac_key: short')).toEqual([
      'processors.redaction.hmac_key: hmac-sha256 needs a key of at least 32 bytes (this one has 5); set hmac_key, from the environment: hmac_key: ${env:REDACTION_HMAC_KEY}',
    ]);
    expect(processorProblems('redaction', 'masking_string: "[REDACTED]"\nhash_function: md5')).toEqual([
      'processors.redaction.masking_string: masking_string and hash_function cannot both be set: what is masked is either replaced by the masking string or by its hash; remove one',
    ]);
    expect(processorProblems('redaction', 'summary: verbose')).toEqual(['processors.redaction.summary: "verbose" is not a summary level; use debug, info or silent']);
    expect(processorProblems('redaction', 'db_sanitizer: {sql: {enabled: true}}\nurl_sanitizer: {enabled: false}')).toEqual([
      'processors.redaction.db_sanitizer: the Collector\'s db_sanitizer is not in otelgate yet; remove it (or set enabled: false), and mask what it would have with blocked_values',
    ]);
  });
});
