// Log rows as Loki streams, encoded as the queue holds them and read back by the stand-in Loki
// exactly as Loki reads a push: labels, order within streams, structured metadata, and the JSON
// form.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import type { AnyValue } from '../../../src/model/anyvalue.js';
import { valueText } from '../../../src/model/json.js';
import type { LogRow } from '../../../src/model/logs.js';
import { labelName } from '../../../src/exporters/helper/label-name.js';
import { lokiSchema, type LokiConfig } from '../../../src/exporters/loki/config.js';
import { PushEncoder } from '../../../src/exporters/loki/encode.js';
import { levelOf, StreamLabels } from '../../../src/exporters/loki/labels.js';
import { lineOf } from '../../../src/exporters/loki/line.js';
import { jsonPush } from '../../../src/exporters/loki/push.js';
import { protobufBody, pushRequestOf, readPushes } from '../../../src/exporters/loki/queued.js';
import { lokiWire, parseLabels, PushRequest, timestamp, type LokiRecord } from '../../helpers/loki.js';
import { snappyDecodeStrict } from '../../helpers/snappy-decode.js';
import { rows as rowArbitraries } from '../../helpers/row-arbitraries.js';
import { attrs, logRow, RECEIVED, resource, scope, T0 } from '../../helpers/rows.js';

function settings(overrides: Record<string, unknown> = {}): LokiConfig {
  return Value.Default(lokiSchema, structuredClone({ endpoint: 'http://loki:3100', ...overrides })) as LokiConfig;
}

/** The rows pushed as `encoding`, and read back as Loki reads them. */
function roundTrip(rows: readonly LogRow[], overrides: Record<string, unknown> = {}, encoding: 'proto' | 'json' = 'proto'): LokiRecord[] {
  const queued = new PushEncoder(settings(overrides)).encode(rows, RECEIVED);
  const body = encoding === 'proto' ? protobufBody(queued) : jsonPush(readPushes([pushRequestOf(queued)]));
  const headers = { 'content-type': encoding === 'proto' ? 'application/x-protobuf' : 'application/json' };
  return lokiWire.read('/loki/api/v1/push', headers, body).rows as LokiRecord[];
}

/** The label sets of the streams of a push, in order, as written. */
function streamLabels(rows: readonly LogRow[], overrides: Record<string, unknown> = {}): string[] {
  const request = PushRequest.toObject(PushRequest.decode(snappyDecodeStrict(protobufBody(new PushEncoder(settings(overrides)).encode(rows, RECEIVED))))) as { streams: { labels: string }[] };
  return request.streams.map((s) => s.labels);
}

const kube = () => ({
  attributes: attrs({ 'service.name': 'checkout', 'service.namespace': 'shop', 'deployment.environment.name': 'prod', 'k8s.namespace.name': 'apps', 'host.name': 'web-1' }),
  droppedAttributesCount: 0,
  schemaUrl: '',
});

describe('Loki streams', () => {
  it('labels streams with the default resource attributes, named by Loki\'s rule, and sends the rest as structured metadata', () => {
    const res = kube();
    const records = roundTrip([logRow(0, res), logRow(1, res)]);
    expect(records).toHaveLength(2);
    expect(records[0]?.labels).toEqual({ deployment_environment_name: 'prod', k8s_namespace_name: 'apps', service_name: 'checkout', service_namespace: 'shop' });
    expect(records.map((r) => [r.timeUnixNano, r.line])).toEqual([
      [T0, 'order 0 placed'],
      [T0 + 1n, 'order 1 placed'],
    ]);
    expect(records[0]?.metadata).toEqual({
      host_name: 'web-1',
      scope_name: 'app.logger',
      scope_version: '1.2.0',
      order_id: '1000',
      amount: '12.5',
      paid: 'true',
      trace_id: '5b8efff798038103d269b633813fc60c',
      span_id: 'eee19b7ec3c1b174',
      severity_text: 'INFO',
      severity_number: '9',
      flags: '1',
    });
  });

  it('writes the label set in Loki\'s form, sorted by name, which its parser reads back', () => {
    expect(streamLabels([logRow(0, kube())])).toEqual(['{deployment_environment_name="prod", k8s_namespace_name="apps", service_name="checkout", service_namespace="shop"}']);
  });

  it('escapes label values as Go string literals, and turns a lone surrogate into U+FFFD', () => {
    const res = { attributes: attrs({ 'service.name': 'a "quoted"\\ name\nnext\u0001\ud800' }), droppedAttributesCount: 0, schemaUrl: '' };
    const [record] = roundTrip([logRow(0, res)]);
    expect(record?.labels).toEqual({ service_name: 'a "quoted"\\ name\nnext\u0001\ufffd' });
  });

  it('puts each distinct label set in a stream of its own, and the entries of each stream in time order', () => {
    const a = resource('a');
    const b = resource('b');
    const rows = [3n, 1n, 2n].flatMap((t) => [a, b].map((res) => ({ ...logRow(0, res), timeUnixNano: T0 + t, body: `${res.attributes['service.name'] as string}-${t}` })));
    expect(streamLabels(rows)).toEqual(['{service_name="a"}', '{service_name="b"}']);
    expect(roundTrip(rows).map((r) => [r.labels['service_name'], r.line])).toEqual([
      ['a', 'a-1'],
      ['a', 'a-2'],
      ['a', 'a-3'],
      ['b', 'b-1'],
      ['b', 'b-2'],
      ['b', 'b-3'],
    ]);
  });

  it('keeps records of equal times in the order they came', () => {
    const rows = ['first', 'second', 'third'].map((body, i) => ({ ...logRow(0), timeUnixNano: i === 0 ? T0 + 1n : T0, body }));
    expect(roundTrip(rows).map((r) => r.line)).toEqual(['second', 'third', 'first']);
  });

  it('sends a record without any label value to {service_name="unknown_service"}, as Loki names it', () => {
    const bare = { attributes: attrs({ 'host.name': 'web-1' }), droppedAttributesCount: 0, schemaUrl: '' };
    expect(roundTrip([logRow(0, bare)])[0]?.labels).toEqual({ service_name: 'unknown_service' });
  });

  it('takes the time, else the observed time, else the time the request was received', () => {
    const rows = [
      { ...logRow(0), timeUnixNano: T0 },
      { ...logRow(0), timeUnixNano: 0n, observedTimeUnixNano: T0 + 7n },
      { ...logRow(0), timeUnixNano: 0n, observedTimeUnixNano: 0n },
    ];
    expect(roundTrip(rows).map((r) => r.timeUnixNano)).toEqual([T0, T0 + 7n, RECEIVED]);
  });

  it('adds record attributes and the level as labels when asked, with a label of its own name for a renamed attribute', () => {
    const rows = [
      { ...logRow(0), severityNumber: 17, severityText: 'ERROR', attributes: attrs({ 'http.route': '/pay', tier: 'gold' }) },
      { ...logRow(1), severityNumber: 9, severityText: 'INFO', attributes: attrs({ 'http.route': '/pay', tier: 'gold' }) },
    ];
    const records = roundTrip(rows, { labels: { resource_attributes: { 'service.name': 'app' }, attributes: ['http.route'], level: true } });
    expect(records.map((r) => r.labels)).toEqual([
      { app: 'checkout', http_route: '/pay', level: 'error' },
      { app: 'checkout', http_route: '/pay', level: 'info' },
    ]);
    expect(records[0]?.metadata['tier']).toBe('gold');
    expect(records[0]?.metadata['http_route']).toBeUndefined();
  });

  it('keeps the first value of a label name that two attributes map to (Loki refuses a name twice)', () => {
    const res = { attributes: attrs({ 'service.name': 'one', service_name: 'two' }), droppedAttributesCount: 0, schemaUrl: '' };
    const records = roundTrip([logRow(0, res)], { labels: { resource_attributes: ['service.name', 'service_name'] } });
    expect(records[0]?.labels).toEqual({ service_name: 'one' });
  });

  it('sends no structured metadata with structured_metadata: false (Loki 2)', () => {
    expect(roundTrip([logRow(0, kube())], { structured_metadata: false })[0]?.metadata).toEqual({});
  });

  it('writes the same streams in Loki\'s JSON push form', () => {
    const res = kube();
    const rows = [logRow(1, res), logRow(0, res), logRow(2, resource('other'))];
    expect(roundTrip(rows, {}, 'json')).toEqual(roundTrip(rows, {}, 'proto'));
  });

  it('reads a body that is not text as its JSON, in the raw format', () => {
    const rows = [
      { ...logRow(0), body: attrs({ event: 'login', ok: true }) },
      { ...logRow(0), body: 42n },
      { ...logRow(0), body: null },
    ];
    expect(roundTrip(rows).map((r) => r.line)).toEqual(['{"event":"login","ok":true}', '42', '']);
  });

  it('names levels as Loki\'s detected_level does, from the severity number, else the text', () => {
    const levels = [0, 1, 4, 5, 9, 13, 17, 21, 24].map((n) => levelOf({ ...logRow(0), severityNumber: n, severityText: '' }));
    expect(levels).toEqual(['unknown', 'trace', 'trace', 'debug', 'info', 'warn', 'error', 'fatal', 'fatal']);
    expect(levelOf({ ...logRow(0), severityNumber: 0, severityText: 'Notice' })).toBe('notice');
  });

  it('reads back the labels the stand-in parses as Loki does, and refuses what Loki refuses', () => {
    expect(parseLabels('{a="1", b="x\\"y"}')).toEqual({ a: '1', b: 'x"y' });
    expect(() => parseLabels('{}')).toThrow('at least one label pair');
    expect(() => parseLabels('{a="1", a="2"}')).toThrow('duplicate label name');
    expect(() => parseLabels('{a.b="1"}')).toThrow('Error parsing labels');
    expect(() => parseLabels('{a="1"} x')).toThrow('Error parsing labels');
  });
});

describe('Loki scope metadata', () => {
  it('leaves out an empty scope name and version', () => {
    const sc = { ...scope(''), version: '' };
    const metadata = roundTrip([logRow(0, resource(), sc)])[0]?.metadata ?? {};
    expect(Object.keys(metadata).filter((k) => k.startsWith('scope_'))).toEqual([]);
  });
});

// What the encoder keeps from batch to batch, and the copies it writes, change how it writes a
// push, never what: the pushes decompress (by Go's rules) to the streams the model below makes,
// and through one long-lived encoder to the bytes a new encoder writes for each batch alone.

type Wire = { streams?: { labels?: string; entries?: { timestamp?: { seconds?: string; nanos?: number }; line?: string; structuredMetadata?: { name?: string; value?: string }[] }[] }[] };

interface ModelStream {
  labels: string;
  entries: { time: bigint; line: string; metadata: string[] }[];
}

const wellFormed = (text: string): string => (text as string & { toWellFormed(): string }).toWellFormed();

/** A push's streams as Loki's decoder reads them: labels, and each entry's time, line and metadata pairs in order. */
function wireStreams(queued: Buffer): ModelStream[] {
  const request = PushRequest.toObject(PushRequest.decode(snappyDecodeStrict(protobufBody(queued))), { longs: String }) as Wire;
  return (request.streams ?? []).map((s) => ({
    labels: s.labels ?? '',
    entries: (s.entries ?? []).map((e) => ({
      time: timestamp(e.timestamp ?? {}),
      line: e.line ?? '',
      metadata: (e.structuredMetadata ?? []).flatMap((p) => [p.name ?? '', p.value ?? '']),
    })),
  }));
}

/**
 * The streams the rows make, worked out the plain way: each record's stream by its labels (in the
 * order streams first appear), its entries stably in time order; an entry's metadata is its
 * resource's and scope's, then its attributes not used as labels, then its ids, severity, flags and
 * event name, those it has.
 */
function modelStreams(rows: readonly LogRow[], config: LokiConfig): ModelStream[] {
  const labels = new StreamLabels(config);
  const streams = new Map<string, ModelStream>();
  for (const row of rows) {
    const key = labels.of(row);
    let stream = streams.get(key);
    if (stream === undefined) streams.set(key, (stream = { labels: key, entries: [] }));
    const metadata: string[] = [];
    if (config.structured_metadata) {
      metadata.push(...labels.sharedMetadata(row.resource, row.scope));
      for (const [name, value] of Object.entries(row.attributes)) {
        const text = valueText(value);
        if (!labels.recordSkip.has(name) && text !== undefined) metadata.push(labelName(name), text);
      }
      if (row.traceId !== '') metadata.push('trace_id', row.traceId);
      if (row.spanId !== '') metadata.push('span_id', row.spanId);
      if (row.severityText !== '') metadata.push('severity_text', row.severityText);
      if (row.severityNumber !== 0) metadata.push('severity_number', String(row.severityNumber));
      if (row.flags !== 0) metadata.push('flags', String(row.flags));
      if (row.eventName !== '') metadata.push('event_name', row.eventName);
    }
    const time = row.timeUnixNano !== 0n ? row.timeUnixNano : row.observedTimeUnixNano !== 0n ? row.observedTimeUnixNano : RECEIVED;
    stream.entries.push({ time, line: wellFormed(lineOf(config.format, row)), metadata: metadata.map(wellFormed) });
  }
  const out = [...streams.values()];
  for (const stream of out) stream.entries.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
  return out;
}

const NEXT_SECOND = (T0 / 1_000_000_000n + 1n) * 1_000_000_000n;

/** Records as a service sends them: a few keys with a few values each, some values new every time, long or not ASCII. */
const repeating = (() => {
  const value = fc.oneof(
    fc.constantFrom<AnyValue>('GET', 'POST', 'é', 'a\ud800b', '', 200n, 404n, 12.5, 13.5, Number.NaN, true, false, null, new Uint8Array([1, 2]), ['x', 1n]),
    fc.string({ maxLength: 20 }),
    fc.string({ minLength: 65, maxLength: 90 }),
    fc.string({ unit: 'binary', maxLength: 10 }),
  );
  const attributes = fc.uniqueArray(fc.tuple(fc.constantFrom('http.method', 'url.path', 'status', 'service.name', 'k8s.pod', 'trace_id', '_x', '1st'), value), { maxLength: 5, selector: ([k]) => k });
  const resources = [resource('checkout'), resource('cart'), { attributes: attrs({ 'host.name': 'web-2' }), droppedAttributesCount: 0, schemaUrl: '' }];
  const scopes = [scope(), scope('other'), { ...scope(''), version: '' }];
  const row = fc.record({
    resource: fc.nat(resources.length - 1),
    scope: fc.nat(scopes.length - 1),
    // Around a whole second (a timestamp's nanos are under 10^9) and at the ends of the range.
    time: fc.constantFrom(0n, T0, T0 + 1n, T0 + 1_000_000_000n, T0 - 5n, NEXT_SECOND - 1n, NEXT_SECOND, 1n, 2n ** 64n - 1n),
    observed: fc.constantFrom(0n, T0 + 7n),
    severityNumber: fc.constantFrom(0, 9, 17),
    severityText: fc.constantFrom('', 'INFO', 'ERROR'),
    flags: fc.constantFrom(0, 1),
    traceId: fc.constantFrom('', '5b8efff798038103d269b633813fc60c', '0af7651916cd43dd8448eb211c80319c'),
    spanId: fc.constantFrom('', 'eee19b7ec3c1b174'),
    eventName: fc.constantFrom('', 'login'),
    body: fc.oneof(fc.string({ maxLength: 30 }), fc.string({ unit: 'binary', maxLength: 30 }), fc.string({ minLength: 100, maxLength: 300 }), value),
    attributes,
  });
  // New resource, scope and attribute objects for every batch, as decoded requests bring.
  return fc.array(fc.array(row, { maxLength: 30 }), { minLength: 1, maxLength: 5 }).map((batches) =>
    batches.map((batch) => {
      const res = resources.map((r) => ({ ...r, attributes: attrs({ ...r.attributes }) }));
      const scs = scopes.map((s) => ({ ...s }));
      return batch.map((r): LogRow => ({
        resource: res[r.resource] as LogRow['resource'],
        scope: scs[r.scope] as LogRow['scope'],
        timeUnixNano: r.time,
        observedTimeUnixNano: r.observed,
        severityNumber: r.severityNumber,
        severityText: r.severityText,
        body: r.body,
        attributes: attrs(Object.fromEntries(r.attributes)),
        droppedAttributesCount: 0,
        flags: r.flags,
        traceId: r.traceId,
        spanId: r.spanId,
        eventName: r.eventName,
      }));
    }),
  );
})();

const configs = fc.constantFrom<Record<string, unknown>>(
  {},
  { structured_metadata: false },
  { format: 'logfmt' },
  { labels: { resource_attributes: ['service.name'], attributes: ['http.method'], level: true } },
  { labels: { resource_attributes: { 'host.name': 'host' }, attributes: { status: 'code' } }, format: 'json' },
);

describe('the Loki push encoder', () => {
  it('writes the streams the rows make, batch after batch, the same bytes as a new encoder would', () => {
    fc.assert(
      fc.property(repeating, configs, fc.constantFrom(3, 100_000), (batches, overrides, keep) => {
        const config = settings(overrides);
        const longLived = new PushEncoder(config, keep);
        for (const rows of batches) {
          const queued = longLived.encode(rows, RECEIVED);
          const alone = new PushEncoder(config).encode(rows, RECEIVED);
          expect(snappyDecodeStrict(protobufBody(queued))).toEqual(snappyDecodeStrict(protobufBody(alone)));
          expect(wireStreams(queued)).toEqual(modelStreams(rows, config));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('writes an entry longer than 2 MiB by writing its batch again with longer lengths, and the next batch as a new encoder would', () => {
    const config = settings();
    const encoder = new PushEncoder(config);
    const rows = [logRow(0), { ...logRow(1), body: 'x'.repeat(2 * 1024 * 1024 + 100) }, logRow(2)];
    expect(wireStreams(encoder.encode(rows, RECEIVED))).toEqual(modelStreams(rows, config));
    const next = Array.from({ length: 5 }, (_, i) => logRow(i + 3));
    expect(snappyDecodeStrict(protobufBody(encoder.encode(next, RECEIVED)))).toEqual(snappyDecodeStrict(protobufBody(new PushEncoder(config).encode(next, RECEIVED))));
  });

  it('writes any rows as the model makes them', () => {
    fc.assert(
      fc.property(rowArbitraries.logs, configs, (rows, overrides) => {
        const config = settings(overrides);
        expect(wireStreams(new PushEncoder(config).encode(rows, RECEIVED))).toEqual(modelStreams(rows, config));
      }),
      { numRuns: 200 },
    );
  });

  it('writes entries of every length either side of the 2 MiB that three bytes of length take', () => {
    const config = settings({ structured_metadata: false });
    // Without metadata an entry is its line and under 20 bytes of time and heads.
    const line = 'y'.repeat(2 ** 21);
    for (let n = 2 ** 21 - 40; n <= 2 ** 21; n++) {
      const rows = [{ ...logRow(0), body: line.slice(0, n) }, logRow(1)];
      expect(wireStreams(new PushEncoder(config).encode(rows, RECEIVED))).toEqual(modelStreams(rows, config));
    }
  });

  it('writes lines that are not ASCII, whose UTF-8 is longer than their characters, at every length a line\'s length changes size', () => {
    const config = settings();
    const bodies = ['é', 'ok é', 'é'.repeat(16), 'é'.repeat(17), 'é'.repeat(63), 'é'.repeat(64), 'a'.repeat(127) + 'é', '€'.repeat(50), '\ud83d\ude00'.repeat(40), 'x\ud800y'.repeat(30), '€'.repeat(5_461), '€'.repeat(5_462), 'é'.repeat(8_192), 'plain ascii'];
    const rows = bodies.map((body, i) => ({ ...logRow(i), body }));
    expect(wireStreams(new PushEncoder(config).encode(rows, RECEIVED))).toEqual(modelStreams(rows, config));
    expect(roundTrip(rows).map((r) => r.line)).toEqual(bodies.map((body) => Buffer.from(body, 'utf8').toString('utf8')));
  });

  it('writes lines, values and labels longer than a Snappy literal holds (64 KiB)', () => {
    const config = settings({ labels: { resource_attributes: ['service.name'], attributes: ['big'] } });
    const long = (unit: string, n: number): string => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
    const rows = [
      { ...logRow(0), body: long('line ', 70_000), attributes: attrs({ big: long('é', 20_000), other: long('x', 17_000) }) },
      { ...logRow(1), body: long('€ and \ud83d\ude00 ', 40_000), attributes: attrs({ big: 'small', other: long('y', 100_000) }) },
    ];
    const queued = new PushEncoder(config).encode(rows, RECEIVED);
    expect(wireStreams(queued)).toEqual(modelStreams(rows, config));
    expect(roundTrip(rows, { labels: { resource_attributes: ['service.name'], attributes: ['big'] } }).map((r) => [r.line.length, r.labels['big']?.length])).toEqual([
      [70_000, 20_000],
      [40_000, 5],
    ]);
  });

  it('writes the values of a key that has too many to keep as they come, and still copies what repeats', () => {
    const config = settings();
    const encoder = new PushEncoder(config);
    const batch = (from: number): LogRow[] => Array.from({ length: 300 }, (_, i) => ({ ...logRow(i), attributes: attrs({ 'url.path': `/orders/${from + (i % 150)}`, method: 'GET' }) }));
    for (const from of [0, 150, 0]) {
      const rows = batch(from);
      const queued = encoder.encode(rows, RECEIVED);
      expect(wireStreams(queued)).toEqual(modelStreams(rows, config));
      // The metadata every entry repeats (host, scope, method, severity, flags: some 110 of its 275
      // bytes) is copied, not written again.
      expect(queued.length).toBeLessThan(0.8 * snappyDecodeStrict(protobufBody(queued)).length);
    }
  });

  it('writes an empty value of a key that has too many to keep, between copies', () => {
    const config = settings();
    const rows = Array.from({ length: 72 }, (_, i) => ({ ...logRow(i), attributes: attrs({ id: i < 70 ? `v${i}` : '', after: 'same' }) }));
    const queued = new PushEncoder(config).encode(rows, RECEIVED);
    expect(wireStreams(queued)).toEqual(modelStreams(rows, config));
    // proto3: an empty value reads back as none.
    expect(roundTrip(rows).map((r) => [r.line, r.metadata['id'] ?? '', r.metadata['after']])).toEqual(rows.map((row, i) => [row.body, i < 70 ? `v${i}` : '', 'same']));
  });
});
