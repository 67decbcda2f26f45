// Golden cases of the JSON traces reader, one rule each: the row a span written this way becomes,
// in JSON and, where protobuf can say the same, in its protobuf twin.
import { describe, expect, it } from 'vitest';
import type { SpanRow } from '../../../src/model/traces.js';
import { decodeOtlp } from '../../../src/otlp/decode.js';
import { RecordBudget, TooManyRecords } from '../../../src/otlp/result.js';
import { otlpJsonToProtobuf } from '../../helpers/otlp.js';

const TRACE = '5b8efff798038103d269b633813fc60c';
const SPAN = 'eee19b7ec3c1b174';
const OTHER = '00f067aa0ba902b7';
/** A span's members after its ids (every stored span has both), as JSON and for protobufjs. */
const withIds = (members: string): string => `{"traceId":"${TRACE}","spanId":"${SPAN}"${members === '' ? '' : `,${members}`}}`;
const idsAnd = (span: object): object => ({ traceId: TRACE, spanId: SPAN, ...span });

const exportOf = (spans: string): Buffer => Buffer.from(`{"resourceSpans":[{"scopeSpans":[{"spans":[${spans}]}]}]}`);
const fromJson = (span: string) => decodeOtlp('traces', 'json', exportOf(span));
const fromProtobuf = (span: object) => decodeOtlp('traces', 'protobuf', otlpJsonToProtobuf('traces', { resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] }));
const only = (decoded: { rows: SpanRow[] }): SpanRow => {
  expect(decoded.rows).toHaveLength(1);
  return decoded.rows[0] as SpanRow;
};

describe('the JSON traces reader: each rule, in JSON and protobuf', () => {
  // [rule, the span's members after its ids, the same for protobufjs, what the row holds]
  const cases: [string, string, object, Partial<Record<keyof SpanRow, unknown>>][] = [
    ['times as numbers, exactly', '"startTimeUnixNano":1700000300123456789,"endTimeUnixNano":1700000300123456790', { startTimeUnixNano: '1700000300123456789', endTimeUnixNano: '1700000300123456790' }, { startTimeUnixNano: 1700000300123456789n, endTimeUnixNano: 1700000300123456790n }],
    ['the largest time', '"endTimeUnixNano":18446744073709551615', { endTimeUnixNano: '18446744073709551615' }, { endTimeUnixNano: 18446744073709551615n }],
    ['exponent notation for an integer field', '"startTimeUnixNano":17e17,"end_time_unix_nano":"1.5e3","kind":2e0,"droppedEventsCount":1.2e1', { startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1500', kind: 2, droppedEventsCount: 12 }, { startTimeUnixNano: 1700000000000000000n, endTimeUnixNano: 1500n, kind: 2, droppedEventsCount: 12 }],
    ['the kind by name', '"kind":"SPAN_KIND_SERVER"', { kind: 2 }, { kind: 2 }],
    ['the kind by number', '"kind":5', { kind: 5 }, { kind: 5 }],
    ['the kind as a number in a string', '"kind":"3"', { kind: 3 }, { kind: 3 }],
    ['a kind this version does not name, kept as its number', '"kind":9', { kind: 9 }, { kind: 9 }],
    ['the status code by name', '"status":{"code":"STATUS_CODE_ERROR","message":"boom"}', { status: { code: 2, message: 'boom' } }, { statusCode: 2, statusMessage: 'boom' }],
    ['the status code by number', '"status":{"code":1}', { status: { code: 1 } }, { statusCode: 1, statusMessage: '' }],
    ['the status code as a number in a string', '"status":{"message":"m","code":"2"}', { status: { code: 2, message: 'm' } }, { statusCode: 2, statusMessage: 'm' }],
    [
      'snake_case names, in the span, its events and links',
      `"parent_span_id":"${OTHER}","trace_state":"a=1","start_time_unix_nano":"1","end_time_unix_nano":"2","dropped_attributes_count":5,"events":[{"time_unix_nano":"3","name":"e","attributes":[{"key":"k","value":{"int_value":"4"}}],"dropped_attributes_count":6}],"dropped_events_count":7,"links":[{"trace_id":"${TRACE}","span_id":"${OTHER}","trace_state":"b=2","dropped_attributes_count":8,"flags":1}],"dropped_links_count":9`,
      { parentSpanId: OTHER, traceState: 'a=1', startTimeUnixNano: '1', endTimeUnixNano: '2', droppedAttributesCount: 5, events: [{ timeUnixNano: '3', name: 'e', attributes: [{ key: 'k', value: { intValue: '4' } }], droppedAttributesCount: 6 }], droppedEventsCount: 7, links: [{ traceId: TRACE, spanId: OTHER, traceState: 'b=2', droppedAttributesCount: 8, flags: 1 }], droppedLinksCount: 9 },
      { parentSpanId: OTHER, traceState: 'a=1', droppedEventsCount: 7, droppedLinksCount: 9, events: [{ timeUnixNano: 3n, name: 'e', attributes: expect.objectContaining({ k: 4n }), droppedAttributesCount: 6 }] },
    ],
    ['the span’s own ids in snake_case, where lowerCamelCase is null', '"traceId":null,"trace_id":"0af7651916cd43dd8448eb211c80319c","span_id":"b7ad6b7169203331","spanId":null', { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331' }, { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331' }],
    ['lowerCamelCase ids over their snake_case twins, whatever the order', '"trace_id":"0af7651916cd43dd8448eb211c80319c","span_id":"b7ad6b7169203331"', {}, { traceId: TRACE, spanId: SPAN }],
    [
      'null as the default of every field, at every depth',
      '"traceState":null,"parentSpanId":null,"flags":null,"name":null,"kind":null,"startTimeUnixNano":null,"endTimeUnixNano":null,"attributes":null,"droppedAttributesCount":null,"droppedEventsCount":null,"droppedLinksCount":null,"events":[{"timeUnixNano":null,"name":null,"attributes":null,"droppedAttributesCount":null}],"links":[{"traceId":null,"spanId":null,"traceState":null,"attributes":null,"droppedAttributesCount":null,"flags":null}],"status":{"code":null,"message":null}',
      { events: [{}], links: [{}] },
      { parentSpanId: '', flags: 0, name: '', kind: 0, startTimeUnixNano: 0n, statusCode: 0, events: [{ timeUnixNano: 0n, name: '', attributes: {}, droppedAttributesCount: 0 }] },
    ],
    ['null lists and a null status', '"events":null,"links":null,"status":null', {}, { events: [], links: [], statusCode: 0 }],
    ['a null lowerCamelCase name yields to its snake_case twin', '"startTimeUnixNano":null,"start_time_unix_nano":"7","events":[{"droppedAttributesCount":null,"dropped_attributes_count":2}]', { startTimeUnixNano: '7', events: [{ droppedAttributesCount: 2 }] }, { startTimeUnixNano: 7n }],
    ['duplicate names in a span: the last wins, as JSON.parse', '"name":5,"kind":1,"name":"kept","kind":"SPAN_KIND_CLIENT","events":[{"name":"gone"}],"events":[]', { name: 'kept', kind: 3 }, { name: 'kept', kind: 3, events: [] }],
    ['duplicate names in a status: the last wins', '"status":{"code":"bad","message":"a","code":2,"message":"b"}', { status: { code: 2, message: 'b' } }, { statusCode: 2, statusMessage: 'b' }],
    ['duplicate names in an event: the last wins', '"events":[{"name":"a","attributes":[{"key":"k","value":{"intValue":"1"}}],"name":"b","attributes":[]}]', { events: [{ name: 'b' }] }, { events: [{ timeUnixNano: 0n, name: 'b', attributes: {}, droppedAttributesCount: 0 }] }],
    ['duplicate names in a link: the last wins, lowerCamelCase unless null', '"links":[{"traceState":"a","trace_state":"b","traceState":null,"flags":1,"flags":2}]', { links: [{ traceState: 'b', flags: 2 }] }, { links: [expect.objectContaining({ traceState: 'b', flags: 2 })] }],
    [
      'duplicate names in an attribute and its value: the last wins, standing in for a wrong type before it',
      '"attributes":[{"key":5,"key":"k","value":{"intValue":"x"},"value":{"stringValue":"v"}},{"key":"n","value":{"boolValue":true,"stringValue":null,"intValue":"2"}}]',
      { attributes: [{ key: 'k', value: { stringValue: 'v' } }, { key: 'n', value: { boolValue: true } }] },
      {},
    ],
    [
      'ids in upper and mixed case',
      `"traceId":"5B8EFFF798038103D269B633813FC60C","spanId":"EeE19b7ec3c1B174","parentSpanId":"00F067AA0BA902B7","links":[{"traceId":"0AF7651916CD43DD8448EB211C80319C","spanId":"B7AD6B7169203331"}]`,
      { parentSpanId: OTHER, links: [{ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331' }] },
      { traceId: TRACE, spanId: SPAN, parentSpanId: OTHER },
    ],
    ['a link’s ids of any even length, as protobuf keeps its bytes', '"links":[{"traceId":"abcd","spanId":""}]', { links: [{ traceId: 'abcd', spanId: '' }] }, {}],
    [
      'unknown members in a span, its status, events, links and attributes',
      '"x":{"y":[1,{"z":null}]},"status":{"code":2,"deprecated_code":1,"future":{"a":[]}},"events":[{"name":"e","extra":[[{}]]}],"links":[{"z":null,"traceState":"t"}],"attributes":[{"key":"k","value":{"stringValue":"v","note":1},"more":true}]',
      { status: { code: 2 }, events: [{ name: 'e' }], links: [{ traceState: 't' }], attributes: [{ key: 'k', value: { stringValue: 'v' } }] },
      { statusCode: 2 },
    ],
    ['a status that is not an object, as the unset status (as a resource or scope that is not one is empty)', '"status":"ERROR"', {}, { statusCode: 0, statusMessage: '' }],
    ['flag words with the top bit set', '"flags":4294967295,"links":[{"flags":4294967295}]', { flags: 4294967295, links: [{ flags: 4294967295 }] }, { flags: 4294967295 }],
    ['flag words as negative 32-bit numbers, as their bits', '"flags":-1,"links":[{"flags":-2147483648}]', { flags: -1, links: [{ flags: -2147483648 }] }, { flags: 4294967295, links: [expect.objectContaining({ flags: 2147483648 })] }],
  ];

  it.each(cases)('%s', (_rule, json, protobuf, expected) => {
    const row = only(fromJson(withIds(json)));
    expect(row).toMatchObject(expected);
    expect(only(fromProtobuf(idsAnd(protobuf)))).toEqual(row);
  });

  it('names spans and events with the same strings as the last body did, whatever the bytes around them', () => {
    const first = only(fromJson(withIds('"name":"GET /orders","events":[{"name":"retry"}]')));
    const second = only(fromJson(withIds('"name":"GET /orders","events":[{"name":"retr\\u0079"}]')));
    const third = only(fromJson(withIds('"name":"GET /order","events":[{"name":"retry!"}]')));
    expect([first.name, second.name, third.name, first.events[0]?.name, second.events[0]?.name, third.events[0]?.name]).toEqual(['GET /orders', 'GET /orders', 'GET /order', 'retry', 'retry', 'retry!']);
  });
});

describe('the JSON traces reader: what it skips', () => {
  // [problem, span, its protobuf twin]: spanProblem (src/otlp/checks.ts) in both readers.
  it.each([
    ['a span id of the wrong length', `{"traceId":"${TRACE}","spanId":"eee19b7ec3c1b1"}`, { traceId: TRACE, spanId: 'eee19b7ec3c1b1' }],
    ['a trace id of the wrong length', `{"traceId":"${TRACE}00","spanId":"${SPAN}"}`, { traceId: `${TRACE}00`, spanId: SPAN }],
    ['a parent span id of the wrong length', `{"traceId":"${TRACE}","spanId":"${SPAN}","parentSpanId":"abcd"}`, { traceId: TRACE, spanId: SPAN, parentSpanId: 'abcd' }],
    ['no span id', `{"traceId":"${TRACE}"}`, { traceId: TRACE }],
    ['an all-zero trace id', `{"traceId":"${'0'.repeat(32)}","spanId":"${SPAN}"}`, { traceId: '0'.repeat(32), spanId: SPAN }],
    ['an all-zero span id, in upper case', `{"traceId":"${TRACE}","span_id":"0000000000000000"}`, { traceId: TRACE, spanId: '0000000000000000' }],
  ])('skips a span with %s, as the protobuf reader does, keeping its neighbours', (_what, span, protobuf) => {
    const neighbours = (name: string): string => withIds(`"name":"${name}"`);
    const decoded = decodeOtlp('traces', 'json', exportOf(`${neighbours('a')},${span},${neighbours('b')}`));
    expect([decoded.rows.map((r) => r.name), decoded.skipped, decoded.unreadable]).toEqual([['a', 'b'], 1, undefined]);
    expect([fromProtobuf(protobuf).rows.length, fromProtobuf(protobuf).skipped]).toEqual([0, 1]);
  });

  it.each([
    ['an event with a member of the wrong type', '"events":[{"name":"ok"},{"timeUnixNano":"x"}]'],
    ['an event that is not an object', '"events":[null]'],
    ['events that are not a list', '"events":{}'],
    ['a link with an id that is not hex', '"links":[{"traceId":"zz"}]'],
    ['a link with hex of an odd length', '"links":[{"spanId":"abc"}]'],
    ['a link with flags beyond 32 bits', '"links":[{"flags":4294967296}]'],
    ['a kind name that is no kind', '"kind":"SPAN_KIND_WEIRD"'],
    ['a kind with a fraction', '"kind":1.5'],
    ['a status code name that is no code', '"status":{"code":"STATUS_CODE_MAYBE"}'],
    ['a status message that is not a string', '"status":{"message":5}'],
    ['a duplicate that brings the wrong type last', '"name":"a","name":5'],
    ['a time beyond 2^64-1', '"startTimeUnixNano":18446744073709551616'],
    ['a negative time in an event', '"events":[{"timeUnixNano":"-1"}]'],
    ['a count that is not a number', '"droppedLinksCount":"x"'],
  ])('skips a span with %s, keeping its neighbours', (_what, members) => {
    const decoded = decodeOtlp('traces', 'json', exportOf(`${withIds('"name":"a"')},${withIds(members)},${withIds('"name":"b"')}`));
    expect([decoded.rows.map((r) => r.name), decoded.skipped, decoded.unreadable]).toEqual([['a', 'b'], 1, undefined]);
  });

  it('skips a span that is not an object', () => {
    const decoded = decodeOtlp('traces', 'json', exportOf(`"span",${withIds('"name":"b"')}`));
    expect([decoded.rows.map((r) => r.name), decoded.skipped]).toEqual([['b'], 1]);
  });

  it('discards a body with more spans than allowed, counting spans only (not events or links)', () => {
    const span = withIds('"events":[{},{},{}],"links":[{},{}]');
    expect(decodeOtlp('traces', 'json', exportOf(`${span},${span}`), new RecordBudget(2)).rows).toHaveLength(2);
    expect(decodeOtlp('traces', 'json', exportOf(`${span},${span},${span}`), new RecordBudget(2))).toEqual({ rows: [], skipped: 1, unreadable: new TooManyRecords(2).message, tooMany: 2 });
  });

  it.each([
    ['a key given twice', (inner: string) => `{"kvlistValue":{"values":[{"value":${inner},"key":"a","key":"b"}]}}`],
    ['a second kind of value', (inner: string) => `{"kvlistValue":{"values":[{"key":"a","value":${inner}}]},"arrayValue":null}`],
  ])('reads an attribute nested with %s at every level in time linear in the body, each value once', (_what, level) => {
    // Reading a value again at each level would double the time with each level (22 levels: 4 million
    // times), far past the suite's 30 s timeout (vitest.config.ts) however loaded the machine: no
    // time limit of its own.
    let value = '{"stringValue":"x"}';
    for (let i = 0; i < 22; i++) value = level(value);
    expect(only(fromJson(withIds(`"attributes":[{"key":"deep","value":${value}}]`))).attributes['deep']).toEqual(expect.anything());
  });
});
