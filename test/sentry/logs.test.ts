// Log items → log rows on hand-made payloads, and the record budget: a 10,000-item envelope within
// a 10,000-record limit, one over it, and the shared memory budget running out.
import { describe, expect, it } from 'vitest';
import type { LogRow } from '../../src/model/logs.js';
import { OutOfBudget, RecordBudget, TooManyRecords } from '../../src/otlp/result.js';
import { decodeSentryEnvelope, type SentryDecoded } from '../../src/sentry/decode.js';
import { envelope } from '../helpers/sentry.js';

const ARRIVAL = 1_800_000_000_000_000_000n;
const TRACE = '5b8efff798038103d269b633813fc60c';
const plain = (attributes: object): Record<string, unknown> => ({ ...attributes });

const logEnvelope = (items: unknown[], container: Record<string, unknown> = { version: 2 }): Buffer =>
  envelope({ sdk: { name: 'sentry.javascript.browser', version: '11.12.0' } }, { header: { type: 'log', item_count: items.length, content_type: 'application/vnd.sentry.items.log+json' }, payload: { ...container, items } });

function logs(items: unknown[], budget = new RecordBudget(100)): SentryDecoded {
  return decodeSentryEnvelope(logEnvelope(items), ARRIVAL, budget);
}

const item = (fields: Record<string, unknown>) => ({ timestamp: 1_700_000_000.25, level: 'info', body: 'hello', trace_id: TRACE, ...fields });

describe('log items', () => {
  it('severity: severity_number when it is one, else the level', () => {
    const decoded = logs([
      item({ level: 'warn', severity_number: 14 }),
      item({ level: 'trace' }),
      item({ level: 'fatal', severity_number: 99 }),
      item({ level: 'critical', severity_number: 'x' }),
      item({ level: undefined }),
    ]);
    expect(decoded.logs.map((row) => [row.severityText, row.severityNumber])).toEqual([
      ['warn', 14],
      ['trace', 1],
      ['fatal', 21],
      ['critical', 21],
      ['', 0],
    ]);
  });

  it('time, ids, body; the active span from sentry.trace.parent_span_id, a span_id field before it', () => {
    const decoded = logs([
      item({ attributes: { 'sentry.trace.parent_span_id': { value: 'ABCDEF0123456789', type: 'string' } } }),
      item({ span_id: '1'.repeat(16), attributes: { 'sentry.trace.parent_span_id': { value: '2'.repeat(16), type: 'string' } } }),
      item({ trace_id: 'nope', timestamp: '2026-11-22T06:00:00Z', body: { structured: [1, 2] }, attributes: { 'sentry.trace.parent_span_id': { value: 'not an id', type: 'string' } } }),
      item({ timestamp: undefined, body: undefined }),
    ]);
    expect(decoded.logs.map((row) => [row.timeUnixNano, row.observedTimeUnixNano, row.traceId, row.spanId, plain(row.attributes)])).toEqual([
      [1_700_000_000_250_000_000n, ARRIVAL, TRACE, 'abcdef0123456789', {}],
      [1_700_000_000_250_000_000n, ARRIVAL, TRACE, '1'.repeat(16), { 'sentry.trace.parent_span_id': '2'.repeat(16) }],
      [1_795_327_200_000_000_000n, ARRIVAL, '', '', { 'sentry.trace.parent_span_id': 'not an id' }],
      [ARRIVAL, ARRIVAL, TRACE, '', {}],
    ]);
    expect(decoded.logs.map((row) => row.body)).toEqual(['hello', 'hello', decoded.logs[2]?.body, null]);
    expect(plain(decoded.logs[2]?.body as object)).toEqual({ structured: [1n, 2n] });
  });

  it('the sentry.* attributes that name the resource move there, as on events; the scope is the SDK', () => {
    const [row] = logs([
      item({
        attributes: {
          'sentry.release': { value: 'web@5', type: 'string' },
          'sentry.environment': { value: 'staging', type: 'string' },
          'server.address': { value: 'web-7', type: 'string' },
          'sentry.sdk.name': { value: 'sentry.python', type: 'string' },
          'sentry.sdk.version': { value: '2.40.0', type: 'string' },
          'user.ip_address': { value: '10.1.1.1', type: 'string' },
          'client.address': { value: '10.2.2.2', type: 'string' },
          'order.id': { value: 7, type: 'integer' },
        },
      }),
    ]).logs as [LogRow];
    expect(plain(row.resource.attributes)).toEqual({ 'service.name': 'web-7', 'service.version': 'web@5', 'deployment.environment.name': 'staging', 'host.name': 'web-7' });
    expect([row.scope.name, row.scope.version]).toEqual(['sentry.python', '2.40.0']);
    // The record's own client.address wins; the user's address stays under its name.
    expect(plain(row.attributes)).toEqual({ 'sentry.sdk.name': 'sentry.python', 'sentry.sdk.version': '2.40.0', 'user.ip_address': '10.1.1.1', 'client.address': '10.2.2.2', 'order.id': 7n });
  });

  it('a service.name attribute names the service; without server.address or one, unknown_service; the header SDK the scope', () => {
    const [named, unnamed] = logs([item({ attributes: { 'service.name': { value: 'checkout', type: 'string' }, 'server.address': { value: 'web-7', type: 'string' } } }), item({})]).logs as [LogRow, LogRow];
    expect(plain(named.resource.attributes)).toEqual({ 'service.name': 'checkout', 'host.name': 'web-7' });
    expect(plain(unnamed.resource.attributes)).toEqual({ 'service.name': 'unknown_service' });
    expect([unnamed.scope.name, unnamed.scope.version]).toEqual(['sentry.javascript.browser', '11.12.0']);
  });

  it('the older container without a version, plain attribute values; items that are not objects skipped', () => {
    const decoded = decodeSentryEnvelope(logEnvelope([item({ attributes: { plain: 'text', n: 3, f: 0.5 } }), 7, null], {}), ARRIVAL, new RecordBudget(10));
    expect(decoded.logs.map((row) => plain(row.attributes))).toEqual([{ plain: 'text', n: 3n, f: 0.5 }]);
    expect(decoded.skipped).toBe(2);
  });

  it('a value nested deeper than 64 levels skips its record, not the others', () => {
    const deep = JSON.parse(`${'['.repeat(70)}1${']'.repeat(70)}`) as unknown;
    const ok = JSON.parse(`${'['.repeat(60)}1${']'.repeat(60)}`) as unknown;
    const decoded = logs([item({ body: 'deep', attributes: { d: { value: deep, type: 'array' } } }), item({ body: 'ok', attributes: { d: { value: ok, type: 'array' } } }), item({ body: { deep } })]);
    expect(decoded.logs.map((row) => row.body)).toEqual(['ok']);
    expect(decoded.skipped).toBe(2);
  });
});

describe('the record budget', () => {
  const many = (n: number) => logEnvelope(Array.from({ length: n }, (_, i) => item({ body: `line ${i}`, attributes: { i: { value: i, type: 'integer' } } })));

  it('a 10,000-item envelope is read within a 10,000-record limit', () => {
    const budget = new RecordBudget(10_000);
    const decoded = decodeSentryEnvelope(many(10_000), ARRIVAL, budget);
    expect([decoded.logs.length, decoded.skipped, budget.counted]).toEqual([10_000, 0, 10_000]);
    expect(decoded.logs[9_999]?.body).toBe('line 9999');
    expect(decoded.logs[0]?.resource).toBe(decoded.logs[9_999]?.resource);
  });

  it('one record over the limit throws TooManyRecords, as every decoder does', () => {
    expect(() => decodeSentryEnvelope(many(10_001), ARRIVAL, new RecordBudget(10_000))).toThrow(new TooManyRecords(10_000));
    // Spans count one each, the transaction's too; events one.
    const transaction = { type: 'transaction', start_timestamp: 1, timestamp: 2, contexts: { trace: { trace_id: TRACE, span_id: 'a'.repeat(16) } }, spans: [{}, {}] };
    const body = envelope({}, { header: { type: 'event' }, payload: {} }, { header: { type: 'transaction' }, payload: transaction });
    expect(() => decodeSentryEnvelope(body, ARRIVAL, new RecordBudget(3))).toThrow(TooManyRecords);
    expect(decodeSentryEnvelope(body, ARRIVAL, new RecordBudget(4)).skipped).toBe(2);
  });

  it('the shared memory budget running out throws OutOfBudget', () => {
    let left = 3;
    const shared = { take: () => left-- > 0, give: () => undefined };
    expect(() => decodeSentryEnvelope(many(5), ARRIVAL, new RecordBudget(100, shared, 400))).toThrow(OutOfBudget);
  });
});
