// Log rows as Loki streams, read back by the stand-in Loki exactly as Loki reads a push: labels,
// order within streams, structured metadata, and the JSON form.
import { describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import type { LogRow } from '../../../src/model/logs.js';
import { lokiSchema, type LokiConfig } from '../../../src/exporters/loki/config.js';
import { snappyBlock } from '../../../src/exporters/helper/snappy.js';
import { jsonPush, pushRequest } from '../../../src/exporters/loki/push.js';
import { levelOf, StreamBuilder } from '../../../src/exporters/loki/streams.js';
import { lokiWire, parseLabels, type LokiRecord } from '../../helpers/loki.js';
import { attrs, logRow, RECEIVED, resource, scope, T0 } from '../../helpers/rows.js';

function settings(overrides: Record<string, unknown> = {}): LokiConfig {
  return Value.Default(lokiSchema, structuredClone({ endpoint: 'http://loki:3100', ...overrides })) as LokiConfig;
}

/** The rows pushed as `encoding`, and read back as Loki reads them. */
function roundTrip(rows: readonly LogRow[], overrides: Record<string, unknown> = {}, encoding: 'proto' | 'json' = 'proto'): LokiRecord[] {
  const streams = new StreamBuilder(settings(overrides)).streams(rows, RECEIVED);
  const body = encoding === 'proto' ? snappyBlock(pushRequest(streams)) : jsonPush(streams);
  const headers = { 'content-type': encoding === 'proto' ? 'application/x-protobuf' : 'application/json' };
  return lokiWire.read('/loki/api/v1/push', headers, body).rows as LokiRecord[];
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
    const streams = new StreamBuilder(settings()).streams([logRow(0, kube())], RECEIVED);
    expect(streams.map((s) => s.labels)).toEqual(['{deployment_environment_name="prod", k8s_namespace_name="apps", service_name="checkout", service_namespace="shop"}']);
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
    const streams = new StreamBuilder(settings()).streams(rows, RECEIVED);
    expect(streams.map((s) => [s.labels, s.entries.map((e) => e.line)])).toEqual([
      ['{service_name="a"}', ['a-1', 'a-2', 'a-3']],
      ['{service_name="b"}', ['b-1', 'b-2', 'b-3']],
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
