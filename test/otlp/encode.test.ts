// The encoders against the golden files: decoding what they write gives the rows back exactly, for
// both encodings, and protobufjs reads the protobuf bytes as exactly what the JSON encoder writes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { newAttributes } from '../../src/model/anyvalue.js';
import { SIGNALS, type Signal } from '../../src/model/signal.js';
import type { RowOf } from '../../src/model/batch.js';
import { decodeOtlp } from '../../src/otlp/decode.js';
import { encodeOtlp } from '../../src/otlp/encode.js';
import { ROOT } from '../helpers/cli.js';
import { canonicalRows } from '../helpers/otlp.js';
import { protobufjsView } from '../helpers/protobufjs-view.js';
import { attrs, logRow, metricBatch, resource, scope, spanBatch } from '../helpers/rows.js';

const ENCODINGS = ['json', 'protobuf'] as const;

function golden<S extends Signal>(signal: S): RowOf<S>[] {
  return decodeOtlp(signal, 'json', readFileSync(`${ROOT}/testdata/otlp/${signal}.json`)).rows;
}

/** Freezes every object the rows reach, so that an encoder writing to one throws. */
function deepFreeze<T>(value: T, seen = new Set<unknown>()): T {
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array || seen.has(value)) return value;
  seen.add(value);
  for (const inner of Object.values(value)) deepFreeze(inner, seen);
  return Object.freeze(value);
}

describe.each(SIGNALS)('%s encoders on the golden rows', (signal) => {
  it.each(ENCODINGS)('%s: decoding the encoded rows gives the same rows, sharing the same objects', (encoding) => {
    const rows = golden(signal);
    const before = canonicalRows(rows);
    const decoded = decodeOtlp(signal, encoding, encodeOtlp(signal, encoding, deepFreeze(rows)));
    expect(decoded.skipped).toBe(0);
    expect(decoded.unreadable).toBeUndefined();
    expect(decoded.rows).toEqual(rows);
    // canonicalRows lists shared resources, scopes and metrics once each: equal text, equal sharing.
    expect(canonicalRows(decoded.rows)).toBe(before);
    expect(canonicalRows(rows)).toBe(before);
  });

  it('protobufjs reads the protobuf bytes as exactly the JSON encoding', () => {
    const rows = golden(signal);
    const json: unknown = JSON.parse(encodeOtlp(signal, 'json', rows).toString('utf8'));
    expect(protobufjsView(signal, encodeOtlp(signal, 'protobuf', rows))).toEqual(json);
  });

  it.each(ENCODINGS)('%s: no rows make an empty export request, which decodes to no rows', (encoding) => {
    const body = encodeOtlp(signal, encoding, []);
    expect(body.toString('utf8')).toBe(encoding === 'json' ? '{}' : '');
    expect(decodeOtlp(signal, encoding, body)).toEqual({ rows: [], skipped: 0 });
  });
});

describe('what the encoders write', () => {
  const emptyResource = (): RowOf<'logs'>['resource'] => ({ attributes: newAttributes(), droppedAttributesCount: 0, schemaUrl: '' });
  const emptyScope = (): RowOf<'logs'>['scope'] => ({ name: '', version: '', attributes: newAttributes(), droppedAttributesCount: 0, schemaUrl: '' });

  it.each<[Signal, RowOf<Signal>, string, string]>([
    [
      'logs',
      {
        resource: emptyResource(),
        scope: emptyScope(),
        timeUnixNano: 0n,
        observedTimeUnixNano: 0n,
        severityNumber: 0,
        severityText: '',
        body: null,
        attributes: newAttributes(),
        droppedAttributesCount: 0,
        flags: 0,
        traceId: '',
        spanId: '',
        eventName: '',
      },
      '{"resourceLogs":[{"resource":{},"scopeLogs":[{"scope":{},"logRecords":[{}]}]}]}',
      '0a08 0a00 1204 0a00 1200',
    ],
    [
      'traces',
      {
        resource: emptyResource(),
        scope: emptyScope(),
        traceId: '',
        spanId: '',
        parentSpanId: '',
        traceState: '',
        flags: 0,
        name: '',
        kind: 0,
        startTimeUnixNano: 0n,
        endTimeUnixNano: 0n,
        attributes: newAttributes(),
        droppedAttributesCount: 0,
        events: [],
        droppedEventsCount: 0,
        links: [],
        droppedLinksCount: 0,
        statusCode: 0,
        statusMessage: '',
      },
      '{"resourceSpans":[{"resource":{},"scopeSpans":[{"scope":{},"spans":[{"status":{}}]}]}]}',
      '0a0a 0a00 1206 0a00 1202 7a00',
    ],
    [
      'metrics',
      {
        resource: emptyResource(),
        scope: emptyScope(),
        metric: { name: '', description: '', unit: '', type: 'gauge', temporality: 0, isMonotonic: false, metadata: newAttributes() },
        startTimeUnixNano: 0n,
        timeUnixNano: 0n,
        attributes: newAttributes(),
        flags: 0,
        exemplars: [],
        kind: 'number',
        value: 0,
      },
      '{"resourceMetrics":[{"resource":{},"scopeMetrics":[{"scope":{},"metrics":[{"gauge":{"dataPoints":[{"asDouble":0}]}}]}]}]}',
      '0a15 0a00 1211 0a00 120d 2a0b 0a09 21 0000000000000000',
    ],
  ])('%s: a row with every field at its default writes none of them, only the messages the SDKs always send', (signal, row, json, hex) => {
    expect(encodeOtlp(signal, 'json', [row]).toString('utf8')).toBe(json);
    expect(encodeOtlp(signal, 'protobuf', [row]).toString('hex')).toBe(hex.replaceAll(' ', ''));
  });

  it('writes OTLP/JSON as the spec has it: camelCase, 64-bit integers as strings, hex ids, base64 bytes, defaults left out', () => {
    const row = { ...logRow(0), body: new Uint8Array([0, 255]), severityText: '', flags: 0, spanId: '' };
    const json = JSON.parse(encodeOtlp('logs', 'json', [row]).toString('utf8')) as unknown;
    expect(json).toEqual({
      resourceLogs: [
        {
          resource: {
            attributes: [
              { key: 'service.name', value: { stringValue: 'checkout' } },
              { key: 'host.name', value: { stringValue: 'web-1' } },
            ],
          },
          scopeLogs: [
            {
              scope: { name: 'app.logger', version: '1.2.0' },
              logRecords: [
                {
                  timeUnixNano: '1700000000123456789',
                  observedTimeUnixNano: '1700000000123457789',
                  severityNumber: 9,
                  body: { bytesValue: 'AP8=' },
                  attributes: [
                    { key: 'order.id', value: { intValue: '1000' } },
                    { key: 'amount', value: { doubleValue: 12.5 } },
                    { key: 'paid', value: { boolValue: true } },
                  ],
                  traceId: '5b8efff798038103d269b633813fc60c',
                },
              ],
            },
          ],
        },
      ],
    });
  });

  it('writes a span status, bucket sets and an int 0 even when empty, as the SDKs do, and a -0 double', () => {
    const span = { ...(spanBatch().rows[0] as RowOf<'traces'>), statusCode: 0, events: [], attributes: Object.create(null) as RowOf<'traces'>['attributes'] };
    const spanJson = JSON.parse(encodeOtlp('traces', 'json', [span]).toString('utf8')) as { resourceSpans: [{ scopeSpans: [{ spans: [Record<string, unknown>] }] }] };
    expect(spanJson.resourceSpans[0].scopeSpans[0].spans[0]['status']).toEqual({});

    const [counter] = metricBatch().rows as [RowOf<'metrics'>];
    const zero = { ...counter, value: 0n };
    const pointOf = (row: RowOf<'metrics'>, type: string): unknown =>
      (JSON.parse(encodeOtlp('metrics', 'json', [row]).toString('utf8')) as { resourceMetrics: [{ scopeMetrics: [{ metrics: [Record<string, { dataPoints: [unknown] }>] }] }] })
        .resourceMetrics[0].scopeMetrics[0].metrics[0][type]?.dataPoints[0];
    expect(pointOf(zero, 'sum')).toEqual({ startTimeUnixNano: '1700000000123456789', timeUnixNano: '1700000060123456789', asInt: '0', attributes: [{ key: 'region', value: { stringValue: 'eu' } }] });
    const exponential: RowOf<'metrics'> = {
      ...counter,
      metric: { ...counter.metric, type: 'exponential_histogram' },
      attributes: Object.create(null) as RowOf<'metrics'>['attributes'],
      kind: 'exponential_histogram',
      count: 0,
      sum: undefined,
      min: -0,
      max: undefined,
      scale: 0,
      zeroCount: 0,
      zeroThreshold: -0,
      positive: { offset: 0, bucketCounts: [] },
      negative: { offset: -2, bucketCounts: [1] },
    };
    const text = encodeOtlp('metrics', 'json', [exponential]).toString('utf8');
    expect(text).toContain('"positive":{},"negative":{"offset":-2,"bucketCounts":["1"]}');
    expect(text).toContain('"min":-0');
    expect(text).toContain('"zeroThreshold":-0');
    expect(Object.is((decodeOtlp('metrics', 'protobuf', encodeOtlp('metrics', 'protobuf', [exponential])).rows[0] as { zeroThreshold: number }).zeroThreshold, -0)).toBe(true);
  });
});

describe('text neither encoding changes, and the one protobuf cannot carry', () => {
  it('keeps control characters, quotes, backslashes and any Unicode in both encodings', () => {
    const text = 'a\u0000\u001f"\\/\u007f\u2028é🎉';
    const row = { ...logRow(0), body: text, attributes: attrs({ [text]: text }) };
    for (const encoding of ENCODINGS) expect(decodeOtlp('logs', encoding, encodeOtlp('logs', encoding, [row])).rows).toEqual([row]);
  });

  it('keeps a lone surrogate in JSON (escaped) but not in protobuf, whose strings are UTF-8: it becomes U+FFFD there', () => {
    const row = { ...logRow(0), body: 'x\ud800y' };
    expect(decodeOtlp('logs', 'json', encodeOtlp('logs', 'json', [row])).rows).toEqual([row]);
    expect(decodeOtlp('logs', 'protobuf', encodeOtlp('logs', 'protobuf', [row])).rows).toEqual([{ ...row, body: 'x\ufffdy' }]);
  });
});

describe('large bodies', () => {
  it.each(ENCODINGS)('%s: 5,000 records with strings of every length-prefix size, then a small body, both come back whole', (encoding) => {
    const res = resource();
    const sc = scope();
    const sizes = [0, 42, 43, 127, 128, 16383, 16384, 3 * 2 ** 20];
    const rows = Array.from({ length: 5000 }, (_, i) => ({ ...logRow(i, res, sc), body: i < sizes.length ? 'é'.repeat(sizes[i] as number) : `record ${i}` }));
    const body = encodeOtlp('logs', encoding, rows);
    expect(body.length).toBeGreaterThan(6 * 2 ** 20);
    const decoded = decodeOtlp('logs', encoding, body);
    expect(decoded.skipped).toBe(0);
    expect(decoded.rows).toEqual(rows);
    const small = [logRow(0)];
    expect(decodeOtlp('logs', encoding, encodeOtlp('logs', encoding, small)).rows).toEqual(small);
  });
});

describe('grouping in encodeOtlp', () => {
  const twins = () => {
    const [web, webTwin, worker] = [resource('web'), resource('web'), resource('worker')];
    const sc = scope();
    const scTwin = scope();
    return [logRow(0, web, sc), logRow(1, worker, sc), logRow(2, webTwin, scTwin), logRow(3, web, sc), logRow(4, webTwin, sc)];
  };

  /** [service.name, [scope count, records per scope]] per ResourceLogs, as protobufjs reads the body. */
  function layout(body: Buffer): [string, number[]][] {
    const view = protobufjsView('logs', body) as { resourceLogs: { resource: { attributes: { value: { stringValue: string } }[] }; scopeLogs: { logRecords: unknown[] }[] }[] };
    return view.resourceLogs.map((rl) => [rl.resource.attributes[0]?.value.stringValue ?? '', rl.scopeLogs.map((sl) => sl.logRecords.length)]);
  }

  it('by identity (the default) writes one ResourceLogs per resource object and one ScopeLogs per scope object, in order of first appearance', () => {
    const rows = twins();
    expect(layout(encodeOtlp('logs', 'protobuf', rows))).toEqual([
      ['web', [2]],
      ['worker', [1]],
      ['web', [1, 1]],
    ]);
    expect(layout(encodeOtlp('logs', 'protobuf', rows, { group: 'identity' }))).toEqual(layout(encodeOtlp('logs', 'protobuf', rows)));
    const decoded = decodeOtlp('logs', 'json', encodeOtlp('logs', 'json', rows)).rows;
    expect(decoded.map((r) => r.timeUnixNano - (rows[0] as RowOf<'logs'>).timeUnixNano)).toEqual([0n, 3n, 1n, 2n, 4n]);
    expect(new Set(decoded.map((r) => r.resource)).size).toBe(3);
  });

  it('by value merges resources and scopes equal by value into one message each, in order of first appearance', () => {
    const rows = twins();
    expect(layout(encodeOtlp('logs', 'protobuf', rows, { group: 'value' }))).toEqual([
      ['web', [4]],
      ['worker', [1]],
    ]);
    const decoded = decodeOtlp('logs', 'json', encodeOtlp('logs', 'json', rows, { group: 'value' })).rows;
    expect(decoded.map((r) => r.timeUnixNano - (rows[0] as RowOf<'logs'>).timeUnixNano)).toEqual([0n, 2n, 3n, 4n, 1n]);
    expect(new Set(decoded.map((r) => r.resource)).size).toBe(2);
    expect(new Set(decoded.map((r) => r.scope)).size).toBe(2);
  });

  it('writes one Metric message per metric object by identity, one per value by value', () => {
    const [counter] = metricBatch().rows as [RowOf<'metrics'>];
    const twin = { ...counter, metric: { ...counter.metric }, value: 7n };
    const metricsIn = (body: Buffer): number =>
      (protobufjsView('metrics', body) as { resourceMetrics: { scopeMetrics: { metrics: unknown[] }[] }[] }).resourceMetrics[0]?.scopeMetrics[0]?.metrics.length ?? 0;
    expect(metricsIn(encodeOtlp('metrics', 'protobuf', [counter, twin, counter]))).toBe(2);
    expect(metricsIn(encodeOtlp('metrics', 'protobuf', [counter, twin, counter], { group: 'value' }))).toBe(1);
  });
});
