// The decoder on envelopes the real @sentry/node SDK sent (testdata/sentry/, made by
// test/sentry/capture.mjs): every field of docs/sentry.md's mapping, asserted exactly.
import { describe, expect, it } from 'vitest';
import type { LogRow } from '../../src/model/logs.js';
import type { SpanRow } from '../../src/model/traces.js';
import { RecordBudget } from '../../src/otlp/result.js';
import { decodeSentryEnvelope, type SentryDecoded } from '../../src/sentry/decode.js';
import { golden } from '../helpers/sentry.js';

const ARRIVAL = 1_800_000_000_000_000_000n;
const SDK = { name: 'sentry.javascript.node', version: '11.12.0' };
const CAPTURE = '/work/wt-sentry/test/sentry/capture.mjs';

function decode(file: string): SentryDecoded {
  return decodeSentryEnvelope(golden(file), ARRIVAL, new RecordBudget(1000));
}

const plain = (attributes: object): Record<string, unknown> => ({ ...attributes });

function only<T>(rows: readonly T[]): T {
  expect(rows).toHaveLength(1);
  return rows[0] as T;
}

const EVENT_RESOURCE = { 'service.name': 'capture-host', 'service.version': 'shop@1.4.2', 'deployment.environment.name': 'golden', 'host.name': 'capture-host' };

describe('an error with a cause (captureException)', () => {
  it.each([
    ['static/05-event.envelope', '51f676c279e54990b494105c7c256090', 1_795_737_181_120_000_000n, 'f0a92a288fb64683a551c93908dcfab3', '92b31dee7b90f609', '39137'],
    ['stream/05-event.envelope', '764bcb120fca47eb955cfd48c22641d8', 1_795_737_181_641_000_000n, '0466543d9b904fb5a74e7b5629a62689', '9fb422a0ba8c7c12', '42059'],
  ])('%s becomes one log row', (file, eventId, time, traceId, spanId, port) => {
    const decoded = decode(file);
    expect([decoded.skipped, decoded.unreadable, decoded.eventId, decoded.spans, plain(decoded.ignored)]).toEqual([0, undefined, eventId, [], {}]);
    const row = only(decoded.logs);
    expect(row).toMatchObject({
      timeUnixNano: time,
      observedTimeUnixNano: ARRIVAL,
      severityNumber: 17,
      severityText: 'error',
      body: 'Error: payment failed',
      traceId,
      spanId,
      flags: 0,
      eventName: '',
      droppedAttributesCount: 0,
    });
    expect(plain(row.resource.attributes)).toEqual(EVENT_RESOURCE);
    expect([row.scope.name, row.scope.version]).toEqual([SDK.name, SDK.version]);
    expect(plain(row.attributes)).toEqual({
      team: 'payments',
      region: 'eu-west-1',
      'user.id': 'u-42',
      'user.email': 'ada@example.com',
      'user.name': 'ada',
      // The SDK's RequestData integration puts the request's address in place of the one set.
      'client.address': '127.0.0.1',
      'http.request.method': 'POST',
      'url.full': `http://127.0.0.1:${port}/checkout?cart=c-7`,
      'sentry.event_id': eventId,
      'sentry.platform': 'node',
      'sentry.sdk.name': SDK.name,
      'sentry.sdk.version': SDK.version,
      'sentry.transaction': 'POST /checkout',
      'exception.type': 'Error',
      'exception.message': 'payment failed',
      'exception.stacktrace': [
        'Error: payment failed',
        `    at charge (${CAPTURE}:106:13)`,
        `    at Server.? (${CAPTURE}:120:7) {`,
        '  [cause]: TypeError: socket closed',
        `      at connect (${CAPTURE}:100:11)`,
        `      at charge (${CAPTURE}:104:7)`,
        `      at Server.? (${CAPTURE}:120:7)`,
        '}',
      ].join('\n'),
    });
  });
});

describe('captureMessage at each level', () => {
  const levels: [string, string, number, bigint][] = [
    ['06', 'fatal', 21, 1_795_737_181_127_000_000n],
    ['07', 'error', 17, 1_795_737_181_127_000_000n],
    ['08', 'warning', 13, 1_795_737_181_127_000_000n],
    ['09', 'log', 9, 1_795_737_181_128_000_000n],
    ['10', 'info', 9, 1_795_737_181_128_000_000n],
    ['11', 'debug', 5, 1_795_737_181_128_000_000n],
  ];

  it.each(levels)('static/%s: %s is severity %i, the message the body', (n, level, severity, time) => {
    const row = only(decode(`static/${n}-event.envelope`).logs);
    expect(row).toMatchObject({ severityText: level, severityNumber: severity, body: `checkout note at ${level}`, timeUnixNano: time, traceId: 'f0a92a288fb64683a551c93908dcfab3' });
    expect(row.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(plain(row.resource.attributes)).toEqual(EVENT_RESOURCE);
    const { 'sentry.event_id': id, ...rest } = plain(row.attributes);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    // Outside the request: no user, no request. The SDK's synthetic exception is where the message was reported, not an exception.
    expect(rest).toEqual({
      team: 'payments',
      region: 'eu-west-1',
      'sentry.platform': 'node',
      'sentry.sdk.name': SDK.name,
      'sentry.sdk.version': SDK.version,
      'code.stacktrace': [`    at scene (${CAPTURE}:142:85)`, '    at process.processTicksAndRejections (node:internal/process/task_queues:104:5)', `    at ${CAPTURE}:30:3`].join('\n'),
    });
  });

  it('a service.name tag names the service; server_name stays the host', () => {
    const decoded = decode('static/12-event.envelope');
    const row = only(decoded.logs);
    expect(decoded.eventId).toBe('5af1a74488c743ddbd31b29a808cc10d');
    expect(plain(row.resource.attributes)).toEqual({ ...EVENT_RESOURCE, 'service.name': 'checkout' });
    expect(row.attributes['service.name']).toBeUndefined();
    expect(row).toMatchObject({ body: 'tagged with its service', severityText: 'info', severityNumber: 9, timeUnixNano: 1_795_737_181_128_000_000n, spanId: 'ad73e621f80b7e98' });
  });
});

describe('a transaction (traceLifecycle static)', () => {
  const decoded = decode('static/04-transaction.envelope');
  const byId = new Map(decoded.spans.map((span) => [span.spanId, span]));
  const span = (id: string): SpanRow => byId.get(id) as SpanRow;

  it('is one span for the transaction and one per child, in one trace', () => {
    expect([decoded.logs, decoded.skipped, decoded.unreadable, decoded.eventId]).toEqual([[], 0, undefined, 'ddb7ebecde63450bb4205c2020fc53d2']);
    expect(decoded.spans.map((s) => [s.spanId, s.parentSpanId, s.name, s.kind])).toEqual([
      ['92b31dee7b90f609', 'b66ebeb686d3f1d2', 'POST /checkout', 2],
      ['bcee2f04210aa709', '92b31dee7b90f609', 'load cart', 3],
      ['9a3f641640e8ed84', 'bcee2f04210aa709', 'decode rows', 1],
      ['95ae5163c4fb5680', '92b31dee7b90f609', 'POST https://psp.example/charge', 3],
    ]);
    for (const s of decoded.spans) {
      expect(s.traceId).toBe('f0a92a288fb64683a551c93908dcfab3');
      expect(s.resource).toBe(decoded.spans[0]?.resource);
      expect(plain(s.resource.attributes)).toEqual(EVENT_RESOURCE);
      expect([s.scope.name, s.scope.version]).toEqual([SDK.name, SDK.version]);
    }
  });

  it('times are the seconds the SDK wrote, to the nanosecond', () => {
    expect(decoded.spans.map((s) => [s.startTimeUnixNano, s.endTimeUnixNano])).toEqual([
      [1_795_737_181_105_454_400n, 1_795_737_181_124_947_800n],
      [1_795_737_181_106_188_800n, 1_795_737_181_119_467_000n],
      [1_795_737_181_106_393_800n, 1_795_737_181_119_335_200n],
      [1_795_737_181_119_550_700n, 1_795_737_181_119_691_000n],
    ]);
  });

  it('status ok is unset; any other is an error with the Sentry status as message', () => {
    expect(decoded.spans.map((s) => [s.statusCode, s.statusMessage])).toEqual([
      [0, ''],
      [0, ''],
      [0, ''],
      [2, 'internal_error'],
    ]);
  });

  it('the transaction span has its data, tags, user, request and event fields as attributes', () => {
    const attributes = plain(span('92b31dee7b90f609').attributes);
    expect(attributes).toMatchObject({
      'sentry.op': 'http.server',
      'sentry.origin': 'auto.http.http_server',
      'sentry.sample_rate': 1n,
      'http.request.method': 'POST',
      'url.full': 'http://127.0.0.1:39137/checkout?cart=c-7',
      'http.response.status_code': 200n,
      'http.request.header.host': ['127.0.0.1:39137'],
      team: 'payments',
      region: 'eu-west-1',
      'user.id': 'u-42',
      'user.email': 'ada@example.com',
      'user.name': 'ada',
      'client.address': '127.0.0.1',
      'sentry.event_id': 'ddb7ebecde63450bb4205c2020fc53d2',
      'sentry.platform': 'node',
      'sentry.sdk.name': SDK.name,
      'sentry.sdk.version': SDK.version,
    });
    // sentry.kind became the span's kind.
    expect(attributes['sentry.kind']).toBeUndefined();
  });

  it('a child span has its data, op and origin as attributes, types kept', () => {
    expect(plain(span('bcee2f04210aa709').attributes)).toEqual({
      'sentry.origin': 'manual',
      'sentry.op': 'db.query',
      'db.system.name': 'postgresql',
      'cart.items': 3n,
      'cart.total': 12.5,
      'cart.open': true,
    });
    expect(plain(span('95ae5163c4fb5680').attributes)).toEqual({ 'sentry.origin': 'manual', 'sentry.op': 'http.client' });
  });
});

describe('span v2 items (traceLifecycle stream)', () => {
  const decoded = decode('stream/02-span.envelope');
  const COMMON = {
    'sentry.trace_lifecycle': 'stream',
    'sentry.segment.name': 'POST',
    'sentry.segment.id': '9fb422a0ba8c7c12',
    'sentry.sdk.name': SDK.name,
    'sentry.sdk.version': SDK.version,
    'user.id': 'u-42',
    'user.email': 'ada@example.com',
    'user.name': 'ada',
    'sentry.is_localhost': true,
  };

  it('are one span row each: ids, names, kinds, times, status', () => {
    expect([decoded.logs, decoded.skipped, decoded.unreadable, decoded.eventId]).toEqual([[], 0, undefined, undefined]);
    expect(decoded.spans.map((s) => [s.traceId, s.spanId, s.parentSpanId, s.name, s.kind, s.startTimeUnixNano, s.endTimeUnixNano, s.statusCode, s.statusMessage])).toEqual([
      ['0466543d9b904fb5a74e7b5629a62689', 'b950a755dccfa48f', 'b5dad0ca02afc450', 'decode rows', 1, 1_795_737_181_630_267_400n, 1_795_737_181_636_058_600n, 0, ''],
      ['0466543d9b904fb5a74e7b5629a62689', 'b5dad0ca02afc450', '9fb422a0ba8c7c12', 'load cart', 3, 1_795_737_181_630_051_100n, 1_795_737_181_638_635_200n, 0, ''],
      ['0466543d9b904fb5a74e7b5629a62689', 'bcd9d13adff42dbe', '9fb422a0ba8c7c12', 'POST https://psp.example/charge', 3, 1_795_737_181_638_795_000n, 1_795_737_181_638_860_000n, 2, 'internal_error'],
      ['0466543d9b904fb5a74e7b5629a62689', '9fb422a0ba8c7c12', 'bd25d433d7c11e82', 'POST', 2, 1_795_737_181_629_300_600n, 1_795_737_181_651_445_000n, 0, ''],
    ]);
  });

  it('release and environment go to the resource, the SDK to the scope; no server name, so the default service', () => {
    for (const s of decoded.spans) {
      expect(plain(s.resource.attributes)).toEqual({ 'service.name': 'unknown_service', 'service.version': 'shop@1.4.2', 'deployment.environment.name': 'golden' });
      expect([s.scope.name, s.scope.version]).toEqual([SDK.name, SDK.version]);
    }
  });

  it('typed attributes keep their types; user.ip_address is client.address', () => {
    const [decodeRows, loadCart, charge, segment] = decoded.spans as [SpanRow, SpanRow, SpanRow, SpanRow];
    expect(plain(decodeRows.attributes)).toEqual({ 'sentry.origin': 'manual', 'sentry.op': 'function', ...COMMON, 'client.address': '203.0.113.7', 'sentry.is_segment': false });
    expect(plain(loadCart.attributes)).toEqual({
      'sentry.origin': 'manual',
      'sentry.op': 'db.query',
      'db.system.name': 'postgresql',
      'cart.items': 3n,
      'cart.total': 12.5,
      'cart.open': true,
      ...COMMON,
      'client.address': '203.0.113.7',
      'sentry.is_segment': false,
    });
    // The reason is the status message, not an attribute.
    expect(plain(charge.attributes)).toEqual({ 'sentry.origin': 'manual', 'sentry.op': 'http.client', ...COMMON, 'client.address': '203.0.113.7', 'sentry.is_segment': false });
    expect(plain(segment.attributes)).toMatchObject({
      'sentry.op': 'http.server',
      'sentry.sample_rate': 1n,
      'http.request.method': 'POST',
      'url.full': 'http://127.0.0.1:42059/checkout?cart=c-7',
      'http.response.status_code': 200n,
      'http.request.header.host': ['127.0.0.1:42059'],
      'client.address': '127.0.0.1',
      // The request's address is client.address; the user's stays under its own name.
      'user.ip_address': '203.0.113.7',
      'sentry.is_segment': true,
      'os.name': 'Debian',
    });
    expect(segment.attributes['sentry.kind']).toBeUndefined();
  });
});

describe('log items (Sentry.logger.*)', () => {
  it.each([
    ['static/02-log.envelope', 'f0a92a288fb64683a551c93908dcfab3', '92b31dee7b90f609', [1_795_737_181_123_208_800n, 1_795_737_181_123_812_000n, 1_795_737_181_123_916_100n]],
    ['stream/03-log.envelope', '0466543d9b904fb5a74e7b5629a62689', '9fb422a0ba8c7c12', [1_795_737_181_647_528_200n, 1_795_737_181_647_823_600n, 1_795_737_181_647_886_300n]],
  ])('%s: one row each, in the span that was active', (file, traceId, spanId, times) => {
    const decoded = decode(file);
    expect([decoded.spans, decoded.skipped, decoded.unreadable, decoded.eventId]).toEqual([[], 0, undefined, undefined]);
    expect(decoded.logs.map((row: LogRow) => [row.timeUnixNano, row.observedTimeUnixNano, row.severityText, row.severityNumber, row.body, row.traceId, row.spanId])).toEqual([
      [times[0], ARRIVAL, 'info', 9, 'cart c-7 loaded with 3 items', traceId, spanId],
      [times[1], ARRIVAL, 'warn', 13, 'card expires soon', traceId, spanId],
      [times[2], ARRIVAL, 'error', 17, 'charge declined', traceId, spanId],
    ]);
    const user = { 'user.id': 'u-42', 'user.email': 'ada@example.com', 'user.name': 'ada', 'sentry.sdk.name': SDK.name, 'sentry.sdk.version': SDK.version };
    expect(decoded.logs.map((row) => plain(row.attributes))).toEqual([
      { 'cart.total': 12.5, ...user, 'sentry.message.template': 'cart %s loaded with %s items', 'sentry.message.parameter.0': 'c-7', 'sentry.message.parameter.1': 3n, 'sentry.timestamp.sequence': 0n },
      { 'card.months_left': 1n, ...user, 'sentry.timestamp.sequence': 1n },
      { 'psp.code': 'do_not_honor', retry: false, ...user, 'sentry.timestamp.sequence': 2n },
    ]);
    for (const row of decoded.logs) {
      // server.address is the SDK's server name: the host, and the service for want of a name.
      expect(plain(row.resource.attributes)).toEqual(EVENT_RESOURCE);
      expect([row.scope.name, row.scope.version]).toEqual([SDK.name, SDK.version]);
    }
  });
});

describe('items not stored', () => {
  it.each([
    ['static/01-client_report.envelope', { client_report: 1 }],
    ['static/03-sessions.envelope', { sessions: 1 }],
    ['stream/04-sessions.envelope', { sessions: 1 }],
  ])('%s is counted by type', (file, ignored) => {
    const decoded = decode(file);
    expect([decoded.logs, decoded.spans, decoded.skipped, decoded.unreadable, plain(decoded.ignored)]).toEqual([[], [], 0, undefined, ignored]);
  });
});
