// Golden cases of the JSON logs reader, one rule each: the row a record written this way becomes,
// in JSON and, where protobuf can say the same, in its protobuf twin.
import { describe, expect, it } from 'vitest';
import type { LogRow } from '../../../src/model/logs.js';
import { decodeOtlp } from '../../../src/otlp/decode.js';
import { RecordBudget, TooManyRecords } from '../../../src/otlp/result.js';
import { otlpJsonToProtobuf } from '../../helpers/otlp.js';

const exportOf = (record: string): Buffer => Buffer.from(`{"resourceLogs":[{"scopeLogs":[{"logRecords":[${record}]}]}]}`);
const fromJson = (record: string) => decodeOtlp('logs', 'json', exportOf(record));
const fromProtobuf = (record: object) => decodeOtlp('logs', 'protobuf', otlpJsonToProtobuf('logs', { resourceLogs: [{ scopeLogs: [{ logRecords: [record] }] }] }));
const only = (decoded: { rows: LogRow[] }): Partial<LogRow> => {
  expect(decoded.rows).toHaveLength(1);
  return decoded.rows[0] as LogRow;
};

describe('the JSON logs reader: each rule, in JSON and protobuf', () => {
  // [rule, JSON record, the same record for protobufjs, what the row holds]
  const cases: [string, string, object, Partial<Record<keyof LogRow, unknown>>][] = [
    ['an int64 as a number beyond 2^53, exactly', '{"body":{"intValue":9007199254740993}}', { body: { intValue: '9007199254740993' } }, { body: 9007199254740993n }],
    ['a time as a number, exactly', '{"timeUnixNano":1700000300123456789}', { timeUnixNano: '1700000300123456789' }, { timeUnixNano: 1700000300123456789n }],
    ['the int64 extremes as numbers', '{"attributes":[{"key":"min","value":{"intValue":-9223372036854775808}},{"key":"max","value":{"int_value":"9223372036854775807"}}]}', { attributes: [{ key: 'min', value: { intValue: '-9223372036854775808' } }, { key: 'max', value: { intValue: '9223372036854775807' } }] }, {}],
    ['the largest time', '{"timeUnixNano":18446744073709551615}', { timeUnixNano: '18446744073709551615' }, { timeUnixNano: 18446744073709551615n }],
    ['exponent notation for an integer field', '{"timeUnixNano":17e17,"observedTimeUnixNano":"1.5e3","severityNumber":1.3e1}', { timeUnixNano: '1700000000000000000', observedTimeUnixNano: '1500', severityNumber: 13 }, { timeUnixNano: 1700000000000000000n, observedTimeUnixNano: 1500n, severityNumber: 13 }],
    ['a double as "NaN"', '{"body":{"doubleValue":"NaN"}}', { body: { doubleValue: Number.NaN } }, { body: Number.NaN }],
    ['a double as "Infinity"', '{"body":{"double_value":"Infinity"}}', { body: { doubleValue: Number.POSITIVE_INFINITY } }, { body: Number.POSITIVE_INFINITY }],
    ['a double as "-Infinity"', '{"body":{"doubleValue":"-Infinity"}}', { body: { doubleValue: Number.NEGATIVE_INFINITY } }, { body: Number.NEGATIVE_INFINITY }],
    ['a double rounded as JSON.parse rounds it', '{"body":{"doubleValue":0.1000000000000000055511151231257827}}', { body: { doubleValue: 0.1 } }, { body: 0.1 }],
    ['an enum by name', '{"severityNumber":"SEVERITY_NUMBER_WARN"}', { severityNumber: 13 }, { severityNumber: 13 }],
    ['an enum as a number in a string', '{"severity_number":"17"}', { severityNumber: 17 }, { severityNumber: 17 }],
    ['bytes in standard base64', '{"body":{"bytesValue":"+/8="}}', { body: { bytesValue: '+/8=' } }, { body: new Uint8Array([0xfb, 0xff]) }],
    ['bytes in URL-safe base64, unpadded', '{"body":{"bytes_value":"-_8"}}', { body: { bytesValue: '+/8=' } }, { body: new Uint8Array([0xfb, 0xff]) }],
    ['ids in upper and mixed case', '{"traceId":"5B8EFFF798038103D269B633813FC60C","span_id":"EeE19b7ec3c1B174"}', { traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b174' }, { traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b174' }],
    ['a trace id of the wrong length, as absent (logs.proto)', '{"traceId":"abcdef","spanId":"eee19b7ec3c1b174","body":{"stringValue":"kept"}}', { traceId: 'abcdef', spanId: 'eee19b7ec3c1b174', body: { stringValue: 'kept' } }, { traceId: '', spanId: 'eee19b7ec3c1b174', body: 'kept' }],
    ['a span id of the wrong length, as absent', '{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b17400"}', { traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b17400' }, { traceId: '5b8efff798038103d269b633813fc60c', spanId: '' }],
    ['snake_case names', '{"time_unix_nano":"5","observed_time_unix_nano":"6","severity_text":"W","dropped_attributes_count":2,"event_name":"e","body":{"kvlist_value":{"values":[{"key":"a","value":{"bool_value":true}}]}}}', { timeUnixNano: '5', observedTimeUnixNano: '6', severityText: 'W', droppedAttributesCount: 2, eventName: 'e', body: { kvlistValue: { values: [{ key: 'a', value: { boolValue: true } }] } } }, { timeUnixNano: 5n, severityText: 'W', droppedAttributesCount: 2, eventName: 'e' }],
    ['unknown members at any depth', '{"x":{"y":[1,{"z":null}]},"body":{"arrayValue":{"values":[{"stringValue":"a","extra":[[]]}],"more":1},"future":true},"attributes":[{"key":"k","value":{"intValue":"1"},"note":"n"}]}', { body: { arrayValue: { values: [{ stringValue: 'a' }] } }, attributes: [{ key: 'k', value: { intValue: '1' } }] }, { body: ['a'] }],
    ['null as the default of every field', '{"timeUnixNano":null,"observedTimeUnixNano":null,"severityNumber":null,"severityText":null,"body":null,"attributes":null,"droppedAttributesCount":null,"flags":null,"traceId":null,"spanId":null,"eventName":null}', {}, { timeUnixNano: 0n, severityNumber: 0, severityText: '', body: null, traceId: '', flags: 0 }],
    ['a null lowerCamelCase name yields to its snake_case twin', '{"timeUnixNano":null,"time_unix_nano":"7"}', { timeUnixNano: '7' }, { timeUnixNano: 7n }],
    ['duplicate names: the last wins, as JSON.parse', '{"severityText":5,"timeUnixNano":"1","severityText":"kept","timeUnixNano":"2","body":{"stringValue":"a"},"body":{"intValue":"3"}}', { severityText: 'kept', timeUnixNano: '2', body: { intValue: '3' } }, { severityText: 'kept', timeUnixNano: 2n, body: 3n }],
    ['every JSON escape', String.raw`{"body":{"stringValue":"\"\\\/\b\f\n\r\t\u00e9\u20AC"}}`, { body: { stringValue: '"\\/\b\f\n\r\té€' } }, { body: '"\\/\b\f\n\r\té€' }],
    ['a surrogate pair escaped', String.raw`{"body":{"stringValue":"\ud83d\ude00 ok"}}`, { body: { stringValue: '😀 ok' } }, { body: '😀 ok' }],
    ['a flag word with the top bit set', '{"flags":4294967295}', { flags: 4294967295 }, { flags: 4294967295 }],
  ];

  it.each(cases)('%s', (_rule, json, protobuf, expected) => {
    const row = only(fromJson(json));
    expect(row).toMatchObject(expected);
    expect(only(fromProtobuf(protobuf))).toEqual(row);
  });

  it('keeps a lone surrogate escaped in a string, as JSON.parse does', () => {
    expect(only(fromJson(String.raw`{"body":{"stringValue":"a\ud800b\udc00"}}`)).body).toBe(JSON.parse(String.raw`"a\ud800b\udc00"`));
  });

  it('replaces bytes that are not UTF-8 as TextDecoder does', () => {
    const bad = [Buffer.from([0xff]), Buffer.from([0xe2, 0x82]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xf0, 0x9f, 0x98]), Buffer.from([0xc0, 0xaf]), Buffer.from('é€😀')];
    for (const bytes of bad) {
      for (const escaped of [false, true]) {
        const inner = Buffer.concat([Buffer.from('x'), bytes, Buffer.from(escaped ? '\\n' : ''), bytes, Buffer.from('y')]);
        const body = Buffer.concat([Buffer.from('{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"body":{"stringValue":"'), inner, Buffer.from('"}}]}]}]}')]);
        const expected = new TextDecoder().decode(inner).replace('\\n', '\n');
        expect(only(decodeOtlp('logs', 'json', body)).body).toBe(expected);
      }
    }
  });

  it('reads a body with a byte-order mark, white space everywhere and members in any order', () => {
    const body = Buffer.from('\ufeff \n{ "resourceLogs" : [ { "scopeLogs" : [ { "logRecords" : [ { "body" : { "stringValue" : "x" } } ] , "scope" : { "name" : "late" } } ] , "schemaUrl" : "u" , "resource" : { "attributes" : [ { "value" : { "intValue" : 1 } , "key" : "k" } ] } } ] }\t');
    const row = only(decodeOtlp('logs', 'json', body));
    expect([row.body, row.scope?.name, row.resource?.schemaUrl, row.resource?.attributes['k']]).toEqual(['x', 'late', 'u', 1n]);
  });

  it('takes an AnyValue holding several kinds as today: the first in order string, bool, int, double, array, kvlist, bytes', () => {
    expect(only(fromJson('{"body":{"bytesValue":"AA==","intValue":"1","boolValue":false}}')).body).toBe(false);
    expect(only(fromJson('{"body":{"intValue":"bad","stringValue":"s"}}')).body).toBe('s');
  });
});

describe('the JSON logs reader: what it skips and refuses', () => {
  it.each([
    ['an integer with a fraction', '{"timeUnixNano":1.5}'],
    ['a negative time', '{"timeUnixNano":"-1"}'],
    ['a time beyond 2^64-1', '{"timeUnixNano":18446744073709551616}'],
    ['an int64 beyond 2^63-1', '{"body":{"intValue":9223372036854775808}}'],
    ['a huge exponent', '{"timeUnixNano":1e999999999}'],
    ['an enum name that is no enum', '{"severityNumber":"SEVERITY_NUMBER_LOUD"}'],
    ['a 32-bit field beyond 32 bits', '{"flags":4294967296}'],
    ['hex of an odd length', '{"traceId":"abc"}'],
    ['an id that is not hex', '{"spanId":"zz"}'],
    ['a string where a number belongs', '{"droppedAttributesCount":"x"}'],
    ['a record that is not an object', '"text"'],
    ['a wrong type overridden by nothing', '{"body":{"stringValue":1}}'],
  ])('skips a record with %s, keeping its neighbours', (_what, record) => {
    const decoded = decodeOtlp('logs', 'json', exportOf(`{"body":{"stringValue":"a"}},${record},{"body":{"stringValue":"b"}}`));
    expect([decoded.rows.map((r) => r.body), decoded.skipped, decoded.unreadable]).toEqual([['a', 'b'], 1, undefined]);
  });

  it.each([
    ['not JSON', 'nope'],
    ['empty', ''],
    ['truncated', '{"resourceLogs":[{"scopeLogs":[{"logRecords":[{}'],
    ['followed by more', '{} {}'],
    ['holding a raw control character in a string', '{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"severityText":"a\tb"}]}]}]}'],
    ['holding a bad escape', String.raw`{"x":"\x"}`],
    ['holding a bad number', '{"x":01}'],
    ['holding a trailing comma', '{"resourceLogs":[],}'],
    ['with bytes outside strings that are not UTF-8', '{"x":1}\xff'],
  ])('says a body that is %s is not JSON, counting one record, as JSON.parse did', (_what, text) => {
    expect(decodeOtlp('logs', 'json', Buffer.from(text, 'latin1'))).toEqual({ rows: [], skipped: 1, unreadable: expect.stringMatching(/^not JSON: /) });
  });

  it('says a body nested 100,000 levels deep is no export, without a stack overflow', () => {
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(decodeOtlp('logs', 'json', Buffer.from(deep(100_000)))).toEqual({ rows: [], skipped: 1, unreadable: 'the JSON body is not an export object' });
    expect(decodeOtlp('logs', 'json', Buffer.from(`{"x":${deep(100_000)}}`))).toEqual({ rows: [], skipped: 0 });
    expect(decodeOtlp('logs', 'json', Buffer.from(`{"x":${'['.repeat(100_000)}}`)).unreadable).toMatch(/^not JSON/);
  });

  it('skips a record whose body nests deeper than the stack, as the protobuf reader does, and keeps its neighbours', () => {
    let deep = '{"stringValue":"x"}';
    for (let i = 0; i < 100_000; i++) deep = `{"arrayValue":{"values":[${deep}]}}`;
    const decoded = decodeOtlp('logs', 'json', exportOf(`{"body":{"stringValue":"a"}},{"body":${deep}},{"body":{"stringValue":"b"}}`));
    expect([decoded.rows.map((r) => r.body), decoded.skipped]).toEqual([['a', 'b'], 1]);
  });

  it('reads a 30 MB string', () => {
    const text = 'é'.repeat(15 * 1024 * 1024);
    expect(only(fromJson(`{"body":{"stringValue":"${text}"}}`)).body).toBe(text);
  });

  it('discards a body with more records than allowed, as before', () => {
    const decoded = decodeOtlp('logs', 'json', exportOf('{},{},{}'), new RecordBudget(2));
    expect(decoded).toEqual({ rows: [], skipped: 1, unreadable: new TooManyRecords(2).message, tooMany: 2 });
  });

  it('counts records once when a list given twice is read again: only the last counts, as JSON.parse keeps it', () => {
    const budget = new RecordBudget(3);
    const body = Buffer.from('{"resourceLogs":[{"scopeLogs":[{"logRecords":[{},{}],"log_records":[{}],"logRecords":[{},{},{}]}]}]}');
    const decoded = decodeOtlp('logs', 'json', body, budget);
    expect([decoded.rows.length, decoded.skipped, budget.counted]).toEqual([3, 0, 3]);
  });
});
