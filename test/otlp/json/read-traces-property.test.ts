// The differential test of the JSON traces reader: for arbitrary exports written in any form
// OTLP/JSON allows, its rows are those of the protobuf reader on the protobuf encoding of the
// same export, always, and those of the JSON.parse-based reference wherever that is exact.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeOtlp } from '../../../src/otlp/decode.js';
import { RecordBudget } from '../../../src/otlp/result.js';
import { canonicalRows, otlpJsonToProtobuf } from '../../helpers/otlp.js';
import { referenceDecodeTracesJson } from './reference-traces.js';
import { variation, VariantWriter } from './variants.js';
import { tracesExport } from './variants-traces.js';

const SEED = 20261124;
const TRACE = '"traceId":"5b8efff798038103d269b633813fc60c"';
const SPAN = '"spanId":"eee19b7ec3c1b174"';

describe('the JSON traces reader', () => {
  it('gives the protobuf reader’s rows for any export in any allowed form, and the reference’s where it is exact', () => {
    let comparedWithReference = 0;
    let rows = 0;
    fc.assert(
      fc.property(tracesExport, variation, (canonical, v) => {
        const writer = new VariantWriter(v);
        const body = Buffer.from(writer.write(canonical));
        const fromJson = decodeOtlp('traces', 'json', body);
        const fromProtobuf = decodeOtlp('traces', 'protobuf', otlpJsonToProtobuf('traces', canonical));
        expect(fromJson.unreadable).toBeUndefined();
        expect([fromJson.skipped, canonicalRows(fromJson.rows)]).toEqual([fromProtobuf.skipped, canonicalRows(fromProtobuf.rows)]);
        rows += fromJson.rows.length;
        if (writer.referenceExact) {
          comparedWithReference++;
          const reference = referenceDecodeTracesJson(body, new RecordBudget(Number.POSITIVE_INFINITY));
          expect([fromJson.skipped, canonicalRows(fromJson.rows)]).toEqual([reference.skipped, canonicalRows(reference.rows)]);
        }
      }),
      { seed: SEED, numRuns: 1500 },
    );
    expect(comparedWithReference).toBeGreaterThan(300);
    expect(rows).toBeGreaterThan(1500);
  });

  it('gives the reference’s answer for any body the reference reads, valid or not, exact or not in form', () => {
    // Hand-picked pieces glued at random: duplicates, nulls, wrong types, broken syntax, at every depth of a span.
    const piece = fc.constantFrom(
      TRACE, SPAN, '"trace_id":"5B8EFFF798038103D269B633813FC60D"', '"traceId":null', '"traceId":"abc"', '"span_id":"00F067AA0BA902B7"', '"spanId":"eee19b7ec3c1b1"', '"spanId":5',
      '"parentSpanId":"abcd"', '"parent_span_id":"eee19b7ec3c1b174"', '"parentSpanId":null', '"traceState":"a=1"', '"trace_state":7',
      '"kind":2', '"kind":"3"', '"kind":"x"', '"kind":1.5', '"kind":null', '"name":"n"', '"name":7', '"name":null', '"flags":-1', '"flags":4294967296',
      '"startTimeUnixNano":"5"', '"start_time_unix_nano":6', '"startTimeUnixNano":null', '"endTimeUnixNano":"-1"', '"end_time_unix_nano":"9"',
      '"status":{"code":2,"message":"m"}', '"status":{"code":1,"code":"2"}', '"status":{"code":"2","code":"x"}', '"status":{"message":5}', '"status":{"message":5,"message":"ok"}',
      '"status":"x"', '"status":null', '"status":[]', '"status":{"code":null,"x":{"y":[]}}',
      '"events":[{"name":"e","attributes":[{"key":"k","value":{"intValue":"1"}}]}]', '"events":[{"time_unix_nano":"7","timeUnixNano":null}]', '"events":[{"name":"e","name":5}]',
      '"events":[{"name":5,"name":"e"}]', '"events":[5]', '"events":[null]', '"events":{}', '"events":null', '"events":[{"droppedAttributesCount":"x"},{}]', '"events":[{"dropped_attributes_count":3,"z":[1]}]',
      '"links":[{"traceId":"ab","spanId":"CD","flags":4294967295}]', '"links":[{"trace_id":"abc"}]', '"links":[{"traceState":"a","trace_state":"b","traceState":null}]',
      '"links":[{"attributes":[{"key":"a","value":null}],"attributes":null}]', '"links":[{"flags":1.5}]', '"links":[{"flags":-1}]', '"links":[]',
      '"droppedEventsCount":3', '"dropped_links_count":"4"', '"droppedAttributesCount":null', '"dropped_attributes_count":"x"',
      '"attributes":[{"key":"k","value":{"stringValue":"v"}}]', '"attributes":[{"value":{"boolValue":true},"key":"b"},{"key":"c","value":{"intValue":"bad"}}]', '"attributes":5', '"x_unknown":{"a":[1]}',
      '"attributes":[{"key":5,"key":"k","value":{"intValue":"x"},"value":{"stringValue":"v"}}]', '"attributes":[{"value":{"intValue":"1","int_value":null,"stringValue":null},"key":"i"}]',
    );
    const ids = fc.oneof({ weight: 4, arbitrary: fc.constant(`${TRACE},${SPAN}`) }, { weight: 1, arbitrary: fc.constant('') });
    const span = fc.tuple(ids, fc.array(piece, { maxLength: 4 })).map(([ids, pieces]) => `{${[ids, ...pieces].filter((p) => p !== '').join(',')}}`);
    const scopeHeader = fc.constantFrom('', '"scope":{"name":"s"},', '"scope":{"name":5},', '"schemaUrl":"u",', '"schemaUrl":7,', '"scope":null,');
    const resourceHeader = fc.constantFrom('', '"resource":{"attributes":[]},', '"resource":{"attributes":5},', '"schema_url":"r",');
    const scope = fc.tuple(scopeHeader, fc.array(fc.oneof({ weight: 6, arbitrary: span }, { weight: 1, arbitrary: fc.constantFrom('5', 'null', '[]') }), { maxLength: 3 }), scopeHeader).map(
      ([a, spans, b]) => `{${a}"spans":[${spans.join(',')}]${b === '' ? '' : `,${b.slice(0, -1)}`}}`,
    );
    const resource = fc.tuple(resourceHeader, fc.array(scope, { maxLength: 2 }), fc.constantFrom('scopeSpans', 'scope_spans')).map(([header, scopes, key]) => `{${header}"${key}":[${scopes.join(',')}]}`);
    const body = fc.tuple(fc.array(resource, { maxLength: 2 }), fc.constantFrom('', ',"resourceSpans":[]', ',"resource_spans":null', ',', ']')).map(([resources, tail]) => `{"resourceSpans":[${resources.join(',')}]${tail}}`);
    let rows = 0;
    fc.assert(
      fc.property(body, (text) => {
        const bytes = Buffer.from(text);
        const fromJson = decodeOtlp('traces', 'json', bytes);
        const reference = referenceDecodeTracesJson(bytes, new RecordBudget(Number.POSITIVE_INFINITY));
        expect(fromJson.unreadable === undefined).toBe(reference.unreadable === undefined);
        expect([fromJson.skipped, canonicalRows(fromJson.rows)]).toEqual([reference.skipped, canonicalRows(reference.rows)]);
        rows += fromJson.rows.length;
      }),
      { seed: SEED, numRuns: 3000 },
    );
    expect(rows).toBeGreaterThan(150);
  });
});
