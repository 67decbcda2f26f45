// A value a client sends nests lists and maps 64 levels deep at most (MAX_ANY_VALUE_DEPTH): every
// reader skips a record with a deeper one, and counts it, so that nothing after the readers
// recurses without bound. The same boundary in protobuf, in the JSON logs and traces readers, and
// in the JSON.parse-based reader of metrics.
import { describe, expect, it } from 'vitest';
import { MAX_ANY_VALUE_DEPTH } from '../../src/model/anyvalue.js';
import { decodeOtlp } from '../../src/otlp/decode.js';

/** Protobuf: a length-delimited field. */
function field(no: number, bytes: number[]): number[] {
  const length: number[] = [];
  for (let n = bytes.length; ; n >>>= 7) {
    if (n < 128) {
      length.push(n);
      break;
    }
    length.push((n & 127) | 128);
  }
  return [(no << 3) | 2, ...length, ...bytes];
}

/** An AnyValue of `levels` arrays (alternating with maps) around a string, as protobuf. */
function protobufValue(levels: number): number[] {
  let value = field(1, [...Buffer.from('x')]);
  for (let i = 0; i < levels; i++) value = i % 2 === 0 ? field(5, field(1, value)) : field(6, field(1, [...field(1, [...Buffer.from('k')]), ...field(2, value)]));
  return value;
}

/** The same value as OTLP JSON. */
function jsonValue(levels: number): unknown {
  let value: unknown = { stringValue: 'x' };
  for (let i = 0; i < levels; i++) value = i % 2 === 0 ? { arrayValue: { values: [value] } } : { kvlistValue: { values: [{ key: 'k', value }] } };
  return value;
}

const protobufLogs = (levels: number): Buffer => Buffer.from(field(1, field(2, field(2, field(5, protobufValue(levels))))));
const jsonLogs = (levels: number): Buffer => Buffer.from(JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ body: jsonValue(levels) }] }] }] }));
const jsonSpans = (levels: number): Buffer =>
  Buffer.from(
    JSON.stringify({
      resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b174', name: 's', startTimeUnixNano: '1', endTimeUnixNano: '2', attributes: [{ key: 'deep', value: jsonValue(levels) }] }] }] }],
    }),
  );

describe('how deep a value may nest', () => {
  it.each([
    ['logs protobuf', (levels: number) => decodeOtlp('logs', 'protobuf', protobufLogs(levels))],
    ['logs JSON', (levels: number) => decodeOtlp('logs', 'json', jsonLogs(levels))],
    ['traces JSON', (levels: number) => decodeOtlp('traces', 'json', jsonSpans(levels))],
  ])('%s: 64 levels are read, 65 skip the record', (_name, decode) => {
    expect(MAX_ANY_VALUE_DEPTH).toBe(64);
    const kept = decode(MAX_ANY_VALUE_DEPTH);
    expect([kept.rows.length, kept.skipped]).toEqual([1, 0]);
    const skipped = decode(MAX_ANY_VALUE_DEPTH + 1);
    expect([skipped.rows.length, skipped.skipped]).toEqual([0, 1]);
    // The next body reads from depth 0 again: a skipped record leaves nothing counted behind.
    expect(decode(MAX_ANY_VALUE_DEPTH).rows.length).toBe(1);
  });
});
