// Transactions and span items → span rows, on hand-made payloads: kinds, statuses, times, ids,
// typed attributes, links, measurements, the v1 span item, and what is skipped.
import { describe, expect, it } from 'vitest';
import type { SpanRow } from '../../src/model/traces.js';
import { RecordBudget } from '../../src/otlp/result.js';
import { decodeSentryEnvelope, type SentryDecoded } from '../../src/sentry/decode.js';
import { envelope } from '../helpers/sentry.js';

const ARRIVAL = 1_800_000_000_000_000_000n;
const TRACE = '5b8efff798038103d269b633813fc60c';
const ROOT_SPAN = 'eee19b7ec3c1b174';
const plain = (attributes: object): Record<string, unknown> => ({ ...attributes });

function transaction(fields: Record<string, unknown> = {}, trace: Record<string, unknown> = {}): SentryDecoded {
  const payload = { type: 'transaction', transaction: 'GET /cart', start_timestamp: 1_700_000_000.5, timestamp: 1_700_000_001.25, contexts: { trace: { trace_id: TRACE, span_id: ROOT_SPAN, op: 'http.server', ...trace } }, ...fields };
  return decodeSentryEnvelope(envelope({}, { header: { type: 'transaction' }, payload }), ARRIVAL, new RecordBudget(100));
}

const child = (fields: Record<string, unknown>) => ({ span_id: 'a'.repeat(16), parent_span_id: ROOT_SPAN, trace_id: TRACE, start_timestamp: 1_700_000_000.6, timestamp: 1_700_000_000.7, ...fields });

function spanItems(items: unknown[], header: Record<string, unknown> = {}): SentryDecoded {
  const item = { header: { type: 'span', item_count: items.length, content_type: 'application/vnd.sentry.items.span.v2+json' }, payload: { version: 2, items } };
  return decodeSentryEnvelope(envelope(header, item), ARRIVAL, new RecordBudget(100));
}

const v2 = (fields: Record<string, unknown>) => ({ trace_id: TRACE, span_id: 'c'.repeat(16), name: 'work', start_timestamp: 1_700_000_000, end_timestamp: 1_700_000_000.000001, is_segment: false, status: 'ok', ...fields });

describe('kind, from the op', () => {
  it.each([
    ['http.server', 2],
    ['http.server.prerender', 2],
    ['http.client', 3],
    ['db', 3],
    ['db.query', 3],
    ['db.sql.query', 3],
    ['queue.publish', 4],
    ['queue.process', 5],
    ['function', 1],
    ['http', 1],
    ['dbx', 1],
    [undefined, 1],
  ])('%s is %i', (op, kind) => {
    const decoded = transaction({ spans: [child({ op })] }, { op });
    expect(decoded.spans.map((span) => span.kind)).toEqual([kind, kind]);
  });

  it('sentry.kind, when the SDK says it, before the op', () => {
    expect(transaction({}, { op: 'http.server', data: { 'sentry.kind': 'consumer' } }).spans[0]?.kind).toBe(5);
    expect(transaction({}, { op: 'http.server', data: { 'sentry.kind': 'sideways' } }).spans[0]?.kind).toBe(2);
    expect(spanItems([v2({ attributes: { 'sentry.op': { value: 'db.query', type: 'string' }, 'sentry.kind': { value: 'producer', type: 'string' } } })]).spans[0]?.kind).toBe(4);
    expect(spanItems([v2({ attributes: { 'sentry.op': { value: 'queue.process', type: 'string' } } })]).spans[0]?.kind).toBe(5);
  });
});

describe('status', () => {
  it.each([
    [undefined, 0, ''],
    ['', 0, ''],
    ['ok', 0, ''],
    ['cancelled', 2, 'cancelled'],
    ['deadline_exceeded', 2, 'deadline_exceeded'],
    ['internal_error', 2, 'internal_error'],
  ])('transaction status %s is %i %s', (status, code, message) => {
    const decoded = transaction({ spans: [child({ status })] }, { status });
    expect(decoded.spans.map((span) => [span.statusCode, span.statusMessage])).toEqual([
      [code, message],
      [code, message],
    ]);
  });

  it('v2: ok is unset; error is an error, with sentry.status.message as its message when there is one', () => {
    const decoded = spanItems([
      v2({ status: 'ok', attributes: { 'sentry.status.message': { value: 'kept', type: 'string' } } }),
      v2({ status: 'error', attributes: { 'sentry.status.message': { value: 'not_found', type: 'string' } } }),
      v2({ status: 'error' }),
    ]);
    expect(decoded.spans.map((span) => [span.statusCode, span.statusMessage, plain(span.attributes)])).toEqual([
      [0, '', { 'sentry.status.message': 'kept', 'sentry.is_segment': false }],
      [2, 'not_found', { 'sentry.is_segment': false }],
      [2, 'error', { 'sentry.is_segment': false }],
    ]);
  });
});

describe('transactions', () => {
  it('name, ids, times, and a child in the transaction’s trace when it names none', () => {
    const decoded = transaction({ spans: [child({ trace_id: undefined, description: 'SELECT 1', op: 'db' }), child({ span_id: 'b'.repeat(16), op: 'cache.get' })] }, { parent_span_id: 'f'.repeat(16) });
    expect(decoded.spans.map((s) => [s.traceId, s.spanId, s.parentSpanId, s.name, s.startTimeUnixNano, s.endTimeUnixNano])).toEqual([
      [TRACE, ROOT_SPAN, 'f'.repeat(16), 'GET /cart', 1_700_000_000_500_000_000n, 1_700_000_001_250_000_000n],
      [TRACE, 'a'.repeat(16), ROOT_SPAN, 'SELECT 1', 1_700_000_000_600_000_000n, 1_700_000_000_700_000_000n],
      // No description: the op is the name.
      [TRACE, 'b'.repeat(16), ROOT_SPAN, 'cache.get', 1_700_000_000_600_000_000n, 1_700_000_000_700_000_000n],
    ]);
    expect(transaction({ transaction: undefined }).spans[0]?.name).toBe('http.server');
  });

  it('ISO 8601 times', () => {
    const decoded = transaction({ start_timestamp: '2026-11-22T06:00:00.000001Z', timestamp: '2026-11-22T06:00:01Z', spans: [child({ start_timestamp: '2026-11-22T06:00:00.5Z', timestamp: '2026-11-22T06:00:00.75+00:00' })] });
    expect(decoded.spans.map((s) => [s.startTimeUnixNano, s.endTimeUnixNano])).toEqual([
      [1_795_327_200_000_001_000n, 1_795_327_201_000_000_000n],
      [1_795_327_200_500_000_000n, 1_795_327_200_750_000_000n],
    ]);
  });

  it('data, tags, measurements, origin and op as attributes; the transaction also gets the event’s', () => {
    const decoded = transaction(
      {
        tags: [['team', 'payments']],
        user: { id: 'u1' },
        request: { method: 'GET', url: 'https://shop.example/cart' },
        event_id: 'd'.repeat(32),
        platform: 'node',
        release: 'shop@2',
        measurements: { lcp: { value: 1234.5, unit: 'millisecond' }, cls: { value: 0.1 }, bad: { value: 'x' }, worse: 3 },
        spans: [child({ op: 'db', origin: 'auto.db', data: { 'db.rows': 3, nested: { deep: [1, 'two', null] }, none: null }, tags: { shard: '7' }, measurements: { rows: { value: 3 } } })],
      },
      { origin: 'auto.http', data: { 'http.route': '/cart', 'sentry.kind': 'server' } },
    );
    const [root, span] = decoded.spans as [SpanRow, SpanRow];
    expect(plain(root.attributes)).toEqual({
      'http.route': '/cart',
      team: 'payments',
      'user.id': 'u1',
      'http.request.method': 'GET',
      'url.full': 'https://shop.example/cart',
      'sentry.event_id': 'd'.repeat(32),
      'sentry.platform': 'node',
      'sentry.op': 'http.server',
      'sentry.origin': 'auto.http',
      'sentry.measurement.lcp': 1234.5,
      'sentry.measurement.cls': 0.1,
    });
    expect(plain(span.attributes)).toEqual({ 'db.rows': 3n, nested: span.attributes['nested'], shard: '7', 'sentry.op': 'db', 'sentry.origin': 'auto.db', 'sentry.measurement.rows': 3 });
    expect(plain(span.attributes['nested'] as object)).toEqual({ deep: [1n, 'two', null] });
    expect(plain(root.resource.attributes)).toEqual({ 'service.name': 'unknown_service', 'service.version': 'shop@2' });
    expect(span.resource).toBe(root.resource);
  });

  it('links: with valid ids kept, sampled as the W3C flag; others dropped and counted', () => {
    const decoded = transaction({}, { links: [{ trace_id: 'e'.repeat(32), span_id: 'f'.repeat(16), sampled: true, attributes: { 'sentry.link.type': 'previous_trace' } }, { trace_id: 'short', span_id: 'f'.repeat(16) }, 'junk'] });
    const [root] = decoded.spans as [SpanRow];
    expect(root.links.map((link) => [link.traceId, link.spanId, link.flags, plain(link.attributes)])).toEqual([['e'.repeat(32), 'f'.repeat(16), 1, { 'sentry.link.type': 'previous_trace' }]]);
    expect(root.droppedLinksCount).toBe(2);
  });

  it('a span without a valid trace or span id, or without its times, is skipped; the others kept', () => {
    const decoded = transaction({ spans: [child({ span_id: 'nothex!!nothex!!' }), child({ timestamp: undefined }), child({ start_timestamp: 'soon' }), 'junk', child({ span_id: 'b'.repeat(16) })] });
    expect(decoded.spans.map((s) => s.spanId)).toEqual([ROOT_SPAN, 'b'.repeat(16)]);
    expect(decoded.skipped).toBe(4);
    const noTrace = transaction({ spans: [child({ trace_id: undefined })] }, { trace_id: undefined });
    expect([noTrace.spans.length, noTrace.skipped]).toEqual([0, 2]);
  });
});

describe('span v2 items', () => {
  it('typed attributes keep their type: integers exactly (beyond 2^53 too), doubles even when whole', () => {
    const attributes = (json: string) => {
      const body = Buffer.from(`{}\n{"type":"span"}\n{"version":2,"items":[{"trace_id":"${TRACE}","span_id":"${'c'.repeat(16)}","name":"n","start_timestamp":1,"end_timestamp":2,"attributes":${json}}]}`);
      const decoded = decodeSentryEnvelope(body, ARRIVAL, new RecordBudget(10));
      expect(decoded.skipped).toBe(0);
      return plain(decoded.spans[0]?.attributes ?? {});
    };
    expect(
      attributes(
        '{"s":{"value":"x","type":"string"},"i":{"value":9007199254740993,"type":"integer"},"neg":{"value":-9223372036854775808,"type":"integer"},"d":{"value":1,"type":"double"},"d2":{"value":2.5,"type":"double"},"b":{"value":false,"type":"boolean"},"a":{"value":["x","y"],"type":"array"},"u":{"value":3,"type":"integer","unit":"millisecond"}}',
      ),
    ).toEqual({ s: 'x', i: 9_007_199_254_740_993n, neg: -9_223_372_036_854_775_808n, d: 1, d2: 2.5, b: false, a: ['x', 'y'], u: 3n });
    // A value that does not fit its type, or a plain value, is read as plain JSON; beyond int64 an integer is a double.
    expect(attributes('{"m":{"value":"7","type":"integer"},"f":{"value":1.5,"type":"integer"},"p":5,"q":"plain","big":{"value":18446744073709551616,"type":"integer"},"n":{"value":null,"type":"string"},"nt":{"type":"string"}}')).toEqual({
      m: '7',
      f: 1.5,
      p: 5n,
      q: 'plain',
      big: 18_446_744_073_709_551_616,
      nt: plain({ type: 'string' }),
    });
  });

  it('service.name, sentry.release and sentry.environment go to the resource; the SDK attributes name the scope', () => {
    const decoded = spanItems(
      [
        v2({
          attributes: {
            'service.name': { value: 'api', type: 'string' },
            'sentry.release': { value: 'api@3', type: 'string' },
            'sentry.environment': { value: 'prod', type: 'string' },
            'sentry.sdk.name': { value: 'sentry.python', type: 'string' },
            'sentry.sdk.version': { value: '2.40.0', type: 'string' },
            'server.address': { value: 'db.internal', type: 'string' },
            'user.ip_address': { value: '10.0.0.9', type: 'string' },
          },
        }),
        v2({ span_id: 'd'.repeat(16), attributes: { 'sentry.release': { value: 7, type: 'integer' } } }),
      ],
      { sdk: { name: 'sentry.javascript.browser', version: '11.0.0' } },
    );
    const [one, two] = decoded.spans as [SpanRow, SpanRow];
    expect(plain(one.resource.attributes)).toEqual({ 'service.name': 'api', 'service.version': 'api@3', 'deployment.environment.name': 'prod' });
    expect([one.scope.name, one.scope.version]).toEqual(['sentry.python', '2.40.0']);
    // On a span, server.address is the server it called: it stays.
    expect(plain(one.attributes)).toEqual({ 'sentry.sdk.name': 'sentry.python', 'sentry.sdk.version': '2.40.0', 'server.address': 'db.internal', 'client.address': '10.0.0.9', 'sentry.is_segment': false });
    // Not text: not a release, kept where it was. No SDK attributes: the envelope header's SDK.
    expect(plain(two.resource.attributes)).toEqual({ 'service.name': 'unknown_service' });
    expect(plain(two.attributes)).toEqual({ 'sentry.release': 7n, 'sentry.is_segment': false });
    expect([two.scope.name, two.scope.version]).toEqual(['sentry.javascript.browser', '11.0.0']);
  });

  it('links with typed attributes', () => {
    const [span] = spanItems([v2({ links: [{ trace_id: 'e'.repeat(32), span_id: 'f'.repeat(16), sampled: false, attributes: { n: { value: 2, type: 'integer' } } }] })]).spans as [SpanRow];
    expect(span.links.map((link) => [link.traceId, link.spanId, link.flags, plain(link.attributes)])).toEqual([['e'.repeat(32), 'f'.repeat(16), 0, { n: 2n }]]);
  });

  it('the version may be absent; an item that is not a span, or lacks ids or times, is skipped', () => {
    const body = envelope({}, { header: { type: 'span' }, payload: { items: [v2({}), 'junk', v2({ span_id: 'short' }), v2({ end_timestamp: undefined }), v2({ span_id: 'd'.repeat(16), name: 7 })] } });
    const decoded = decodeSentryEnvelope(body, ARRIVAL, new RecordBudget(100));
    expect(decoded.spans.map((s) => [s.spanId, s.name])).toEqual([
      ['c'.repeat(16), 'work'],
      ['d'.repeat(16), ''],
    ]);
    expect(decoded.skipped).toBe(3);
  });

  it('a standalone span of older SDKs (one span JSON) is read like a transaction’s child', () => {
    const payload = child({ description: 'INP click', op: 'ui.interaction.click', origin: 'auto.http.browser.inp', status: 'ok', data: { 'sentry.exclusive_time': 12 }, tags: { page: '/cart' } });
    const decoded = decodeSentryEnvelope(envelope({ sdk: { name: 'sentry.javascript.browser', version: '9.1.0' } }, { header: { type: 'span' }, payload }), ARRIVAL, new RecordBudget(10));
    expect(decoded.spans.map((s) => [s.spanId, s.parentSpanId, s.name, s.kind, s.statusCode, s.startTimeUnixNano, s.endTimeUnixNano, s.scope.name])).toEqual([['a'.repeat(16), ROOT_SPAN, 'INP click', 1, 0, 1_700_000_000_600_000_000n, 1_700_000_000_700_000_000n, 'sentry.javascript.browser']]);
    expect(plain(decoded.spans[0]?.attributes ?? {})).toEqual({ 'sentry.exclusive_time': 12n, page: '/cart', 'sentry.op': 'ui.interaction.click', 'sentry.origin': 'auto.http.browser.inp' });
  });

  it('keys such as __proto__ are attributes like any other', () => {
    const payload = `{"span_id":"${'a'.repeat(16)}","trace_id":"${TRACE}","start_timestamp":1,"timestamp":2,"data":{"__proto__":{"polluted":1},"constructor":"c"},"tags":{"__proto__":"t"}}`;
    const decoded = decodeSentryEnvelope(Buffer.from(`{}\n{"type":"span"}\n${payload}`), ARRIVAL, new RecordBudget(10));
    const attributes = plain(decoded.spans[0]?.attributes ?? {});
    expect(Object.keys(attributes).sort()).toEqual(['__proto__', 'constructor']);
    expect([attributes['__proto__'], attributes['constructor']]).toEqual(['t', 'c']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
