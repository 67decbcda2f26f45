// The differential test of the JSON logs reader: for arbitrary exports written in any form
// OTLP/JSON allows, its rows are those of the protobuf reader on the protobuf encoding of the
// same export, always, and those of the JSON.parse-based reference wherever that is exact.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeOtlp } from '../../../src/otlp/decode.js';
import { RecordBudget } from '../../../src/otlp/result.js';
import { canonicalRows, otlpJsonToProtobuf } from '../../helpers/otlp.js';
import { referenceDecodeLogsJson } from './reference-logs.js';
import { logsExport, variation, VariantWriter } from './variants.js';

const SEED = 20261123;

describe('the JSON logs reader', () => {
  it('gives the protobuf reader’s rows for any export in any allowed form, and the reference’s where it is exact', () => {
    let comparedWithReference = 0;
    fc.assert(
      fc.property(logsExport, variation, (canonical, v) => {
        const writer = new VariantWriter(v);
        const body = Buffer.from(writer.write(canonical));
        const fromJson = decodeOtlp('logs', 'json', body);
        const fromProtobuf = decodeOtlp('logs', 'protobuf', otlpJsonToProtobuf('logs', canonical));
        expect(fromJson.unreadable).toBeUndefined();
        expect([fromJson.skipped, canonicalRows(fromJson.rows)]).toEqual([fromProtobuf.skipped, canonicalRows(fromProtobuf.rows)]);
        if (writer.referenceExact) {
          comparedWithReference++;
          const reference = referenceDecodeLogsJson(body, new RecordBudget(Number.POSITIVE_INFINITY));
          expect([fromJson.skipped, canonicalRows(fromJson.rows)]).toEqual([reference.skipped, canonicalRows(reference.rows)]);
        }
      }),
      { seed: SEED, numRuns: 1500 },
    );
    expect(comparedWithReference).toBeGreaterThan(300);
  });

  it('gives the reference’s answer for any body the reference reads, valid or not, exact or not in form', () => {
    // Hand-picked pieces glued at random: duplicates, nulls, wrong types, broken syntax.
    const piece = fc.constantFrom(
      '"timeUnixNano":"5"', '"time_unix_nano":"6"', '"timeUnixNano":null', '"severityNumber":"x"', '"severityText":5',
      '"body":{"stringValue":"a","intValue":"1"}', '"body":{"intValue":"bad","stringValue":"b"}', '"body":{"stringValue":null,"string_value":"c"}',
      '"body":{"string_value":"d","stringValue":null}', '"body":{"arrayValue":{"values":[{"boolValue":true}],"values":[{"intValue":7}]}}',
      '"attributes":[{"key":"k","value":{"stringValue":"v"},"key":"k2"}]', '"attributes":{"key":"k"}', '"attributes":null',
      '"traceId":"ABCDEF"', '"traceId":"abc"', '"trace_id":"5b8efff798038103d269b633813fc60c"', '"flags":4294967295', '"flags":-1',
      '"droppedAttributesCount":1.0', '"droppedAttributesCount":1.5', '"body":{"kvlistValue":{"values":[{"key":"a","value":{"intValue":"1"}},{"key":"a","value":null}]}}',
      '"body":{"doubleValue":"Infinity"}', '"body":{"doubleValue":" 1.5 "}', '"body":{"bytesValue":"_-8"}', '"eventName":"\\ud83d\\ude00"',
    );
    const record = fc.array(piece, { maxLength: 5 }).map((pieces) => `{${pieces.join(',')}}`);
    const scopeHeader = fc.constantFrom('', '"scope":{"name":"s"},', '"scope":{"name":5},', '"schemaUrl":"u",', '"schemaUrl":7,', '"scope":null,', '"scope":[],');
    const resourceHeader = fc.constantFrom('', '"resource":{"attributes":[]},', '"resource":{"attributes":5},', '"schema_url":"r",', '"resource":"x",');
    const recordsKey = fc.constantFrom('logRecords', 'log_records');
    const scope = fc.tuple(scopeHeader, recordsKey, fc.array(record, { maxLength: 3 }), scopeHeader).map(([a, key, records, b]) => `{${a}"${key}":[${records.join(',')}]${b === '' ? '' : `,${b.slice(0, -1)}`}}`);
    const resource = fc.tuple(resourceHeader, fc.array(fc.oneof(scope, fc.constantFrom('5', 'null')), { maxLength: 2 }), resourceHeader).map(([a, scopes, b]) => `{${a}"scopeLogs":[${scopes.join(',')}]${b === '' ? '' : `,${b.slice(0, -1)}`}}`);
    const body = fc.tuple(fc.array(resource, { maxLength: 2 }), fc.constantFrom('', ',"resourceLogs":[]', ',"resource_logs":null', ',', ']', '}')).map(([resources, tail]) => `{"resourceLogs":[${resources.join(',')}]${tail}}`);
    fc.assert(
      fc.property(body, (text) => {
        const bytes = Buffer.from(text);
        const fromJson = decodeOtlp('logs', 'json', bytes);
        const reference = referenceDecodeLogsJson(bytes, new RecordBudget(Number.POSITIVE_INFINITY));
        expect(fromJson.unreadable === undefined).toBe(reference.unreadable === undefined);
        expect([fromJson.skipped, canonicalRows(fromJson.rows)]).toEqual([reference.skipped, canonicalRows(reference.rows)]);
      }),
      { seed: SEED, numRuns: 3000 },
    );
  });
});
