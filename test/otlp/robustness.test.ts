// What the decoders do with what real senders get wrong: unknown fields, odd field order, broken bodies.
import { describe, expect, it } from 'vitest';
import protobuf from 'protobufjs';
import { decodeOtlp } from '../../src/otlp/decode.js';
import { otlpJsonToProtobuf, requestType } from '../helpers/otlp.js';

const { Writer } = protobuf;

function record(fields: (w: protobuf.Writer) => void): Uint8Array {
  const w = Writer.create();
  fields(w);
  return w.finish();
}

const logRecord = record((w) => {
  w.uint32((1 << 3) | 1).fixed64(1_700_000_000_000_000_000);
  w.uint32((5 << 3) | 2).bytes(record((b) => b.uint32((1 << 3) | 2).string('hello')));
});

describe('protobuf decoding', () => {
  it('skips unknown fields of every wire type at every level, as a newer sender may add them', () => {
    const recordWithUnknown = record((w) => {
      w.uint32((77 << 3) | 0).uint64(123456789);
      w.uint32((1 << 3) | 1).fixed64(1_700_000_000_000_000_000);
      w.uint32((78 << 3) | 2).string('from the future');
      w.uint32((5 << 3) | 2).bytes(record((b) => b.uint32((1 << 3) | 2).string('hello').uint32((9 << 3) | 5).fixed32(7)));
      w.uint32((79 << 3) | 1).double(1.5);
      w.uint32((80 << 3) | 5).fixed32(9);
    });
    const scopeLogs = record((w) => {
      w.uint32((60 << 3) | 1).fixed64(1);
      w.uint32((1 << 3) | 2).bytes(record((s) => s.uint32((1 << 3) | 2).string('scope').uint32((70 << 3) | 0).uint32(5)));
      w.uint32((2 << 3) | 2).bytes(recordWithUnknown);
    });
    const resourceLogs = record((w) => {
      w.uint32((50 << 3) | 2).string('x');
      w.uint32((1000 << 3) | 2).bytes(new Uint8Array([1, 2, 3]));
      w.uint32((2 << 3) | 2).bytes(scopeLogs);
    });
    const body = Buffer.from(record((w) => w.uint32((99 << 3) | 0).uint32(1).uint32((1 << 3) | 2).bytes(resourceLogs)));
    const decoded = decodeOtlp('logs', 'protobuf', body);
    expect(decoded.skipped).toBe(0);
    expect(decoded.rows.map((r) => [r.body, r.scope.name, r.timeUnixNano])).toEqual([['hello', 'scope', 1_700_000_000_000_000_000n]]);
  });

  it('gives every record its scope and resource even when they follow the records on the wire', () => {
    const scopeLogs = record((w) => {
      w.uint32((2 << 3) | 2).bytes(logRecord);
      w.uint32((3 << 3) | 2).string('https://schema');
      w.uint32((1 << 3) | 2).bytes(record((s) => s.uint32((1 << 3) | 2).string('late-scope')));
    });
    const resourceLogs = record((w) => {
      w.uint32((2 << 3) | 2).bytes(scopeLogs);
      w.uint32((1 << 3) | 2).bytes(
        record((r) => r.uint32((1 << 3) | 2).bytes(record((kv) => kv.uint32((1 << 3) | 2).string('service.name').uint32((2 << 3) | 2).bytes(record((v) => v.uint32((1 << 3) | 2).string('late')))))),
      );
    });
    const decoded = decodeOtlp('logs', 'protobuf', Buffer.from(record((w) => w.uint32((1 << 3) | 2).bytes(resourceLogs))));
    expect(decoded.rows).toHaveLength(1);
    expect(decoded.rows[0]?.scope).toMatchObject({ name: 'late-scope', schemaUrl: 'https://schema' });
    expect({ ...decoded.rows[0]?.resource.attributes }).toEqual({ 'service.name': 'late' });
  });

  it('skips a record whose fields have the wrong wire type and keeps its neighbours', () => {
    const bad = record((w) => w.uint32((3 << 3) | 0).uint32(5));
    const scopeLogs = record((w) => w.uint32((2 << 3) | 2).bytes(logRecord).uint32((2 << 3) | 2).bytes(bad).uint32((2 << 3) | 2).bytes(logRecord));
    const body = Buffer.from(record((w) => w.uint32((1 << 3) | 2).bytes(record((r) => r.uint32((2 << 3) | 2).bytes(scopeLogs)))));
    const decoded = decodeOtlp('logs', 'protobuf', body);
    expect([decoded.rows.length, decoded.skipped, decoded.unreadable]).toEqual([2, 1, undefined]);
  });

  it('never throws on a truncated body: keeps what it could read and counts the rest as one unreadable record', () => {
    const full = otlpJsonToProtobuf('logs', {
      resourceLogs: [{ scopeLogs: [{ logRecords: Array.from({ length: 20 }, (_, i) => ({ body: { stringValue: `line ${i}` } })) }] }],
    });
    for (let cut = 1; cut < full.length; cut += 7) {
      const decoded = decodeOtlp('logs', 'protobuf', full.subarray(0, cut));
      expect(decoded.rows.length).toBeLessThan(20);
      expect(decoded.skipped).toBeGreaterThanOrEqual(1);
    }
    expect(decodeOtlp('logs', 'protobuf', full).rows).toHaveLength(20);
  });

  it('says a body that is not protobuf is unreadable', () => {
    const decoded = decodeOtlp('traces', 'protobuf', Buffer.from('{"resourceSpans": []}'));
    expect(decoded.rows).toEqual([]);
    expect(decoded.skipped).toBe(1);
    expect(decoded.unreadable).toBeTypeOf('string');
  });

  it('decodes an empty body as an empty export, as the Collector does', () => {
    for (const signal of ['logs', 'traces', 'metrics'] as const) {
      expect(decodeOtlp(signal, 'protobuf', Buffer.alloc(0))).toEqual({ rows: [], skipped: 0 });
    }
  });

  it('reads packed and unpacked repeated fields alike', () => {
    const type = requestType('metrics');
    const json = {
      resourceMetrics: [{ scopeMetrics: [{ metrics: [{ name: 'h', histogram: { dataPoints: [{ timeUnixNano: '1', count: '3', bucketCounts: ['1', '2'], explicitBounds: [5] }] } }] }] }],
    };
    const packed = otlpJsonToProtobuf('metrics', json);
    expect(type.decode(packed)).toBeTruthy();
    const point = record((w) => {
      w.uint32((3 << 3) | 1).fixed64(1);
      w.uint32((4 << 3) | 1).fixed64(3);
      w.uint32((6 << 3) | 1).fixed64(1);
      w.uint32((6 << 3) | 1).fixed64(2);
      w.uint32((7 << 3) | 1).double(5);
    });
    const metric = record((w) => w.uint32((1 << 3) | 2).string('h').uint32((9 << 3) | 2).bytes(record((h) => h.uint32((1 << 3) | 2).bytes(point))));
    const unpacked = Buffer.from(record((w) => w.uint32((1 << 3) | 2).bytes(record((r) => r.uint32((2 << 3) | 2).bytes(record((s) => s.uint32((2 << 3) | 2).bytes(metric)))))));
    const a = decodeOtlp('metrics', 'protobuf', packed);
    const b = decodeOtlp('metrics', 'protobuf', unpacked);
    expect(a.rows.map((r) => r.kind === 'histogram' && [r.bucketCounts, r.explicitBounds])).toEqual([[[1, 2], [5]]]);
    expect(b.rows.map((r) => r.kind === 'histogram' && [r.bucketCounts, r.explicitBounds])).toEqual([[[1, 2], [5]]]);
  });
});

describe('JSON decoding', () => {
  const logs = (records: unknown[]) => Buffer.from(JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: records }] }] }));

  it('skips each record with a field of the wrong type and keeps the rest', () => {
    const decoded = decodeOtlp(
      'logs',
      'json',
      logs([
        { body: { stringValue: 'kept' } },
        { severityNumber: 'high' },
        { timeUnixNano: '-1' },
        { body: { stringValue: 5 } },
        { attributes: { key: 'not a list' } },
        { traceId: 'not hex at all!' },
        'a string, not a record',
        { body: { stringValue: 'kept too' }, severityNumber: '13', timeUnixNano: 1700000000000 },
      ]),
    );
    expect(decoded.rows.map((r) => r.body)).toEqual(['kept', 'kept too']);
    expect(decoded.rows[1]?.severityNumber).toBe(13);
    expect(decoded.skipped).toBe(6);
  });

  it.each([
    ['not JSON at all', 'this is not json', /^not JSON/],
    ['a JSON array', '[1, 2]', /not an export object/],
    ['a list that is not a list', '{"resourceLogs": {"a": 1}}', /resourceLogs is not a list/],
  ])('says a body that is %s is unreadable, counting one record', (_title, body, reason) => {
    const decoded = decodeOtlp('logs', 'json', Buffer.from(body));
    expect(decoded.rows).toEqual([]);
    expect(decoded.skipped).toBe(1);
    expect(decoded.unreadable).toMatch(reason);
  });

  it('counts a resource or scope entry that is not an object as one skipped record', () => {
    const body = Buffer.from(JSON.stringify({ resourceLogs: [5, { scopeLogs: ['x', { logRecords: [{ body: { stringValue: 'ok' } }] }] }] }));
    const decoded = decodeOtlp('logs', 'json', body);
    expect([decoded.rows.length, decoded.skipped]).toEqual([1, 2]);
  });

  it('skips a record whose 64-bit integers are out of range, as protobuf could not carry them', () => {
    const decoded = decodeOtlp(
      'logs',
      'json',
      logs([
        { timeUnixNano: '18446744073709551616' },
        { timeUnixNano: 1e300 },
        { attributes: [{ key: 'n', value: { intValue: '9223372036854775808' } }] },
        { timeUnixNano: '18446744073709551615', attributes: [{ key: 'n', value: { intValue: '-9223372036854775808' } }] },
      ]),
    );
    expect(decoded.rows.map((r) => [r.timeUnixNano, r.attributes['n']])).toEqual([[18446744073709551615n, -9223372036854775808n]]);
    expect(decoded.skipped).toBe(3);
  });

  it('accepts a leading byte-order mark and an empty object', () => {
    expect(decodeOtlp('metrics', 'json', Buffer.from('\ufeff{}'))).toEqual({ rows: [], skipped: 0 });
  });

  it.each(['json', 'protobuf'] as const)('keeps "__proto__" and Object.prototype member names as ordinary attribute keys (%s)', (encoding) => {
    const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
    const body = logs([{ attributes: names.map((key) => ({ key, value: { stringValue: `${key}!` } })) }, { attributes: [] }]);
    const decoded = decodeOtlp('logs', encoding, encoding === 'json' ? body : otlpJsonToProtobuf('logs', JSON.parse(body.toString())));
    const [withNames, without] = decoded.rows;
    expect(Object.keys(withNames?.attributes ?? {})).toEqual(names);
    for (const key of names) expect(withNames?.attributes[key]).toBe(`${key}!`);
    // Nothing is inherited: a map without these keys does not answer to them either.
    for (const key of names) expect([key in (without?.attributes ?? {}), without?.attributes[key]]).toEqual([false, undefined]);
    expect(JSON.stringify(without?.attributes)).toBe('{}');
  });
});

describe('protobuf framing inside a message', () => {
  it('skips a record whose field claims more bytes than the record has, and keeps the next one whole', () => {
    // LogRecord: severity_text (field 3) declares 5 bytes but the record holds only 2 more.
    const overrunning = Uint8Array.from([0x1a, 0x05, 0x61, 0x62]);
    const good = Uint8Array.from([0x1a, 0x02, 0x6f, 0x6b]);
    const scopeLogs = record((w) => w.uint32((2 << 3) | 2).bytes(overrunning).uint32((2 << 3) | 2).bytes(good));
    const body = Buffer.from(record((w) => w.uint32((1 << 3) | 2).bytes(record((r) => r.uint32((2 << 3) | 2).bytes(scopeLogs)))));
    const decoded = decodeOtlp('logs', 'protobuf', body);
    expect(decoded.rows.map((r) => r.severityText)).toEqual(['ok']);
    expect(decoded.skipped).toBe(1);
  });
});

describe('a resource or scope whose header is broken', () => {
  // A resource attribute with the wrong type: string_value given as a number (JSON) / varint (protobuf).
  const badResourceJson = (records: number) => ({
    resource: { attributes: [{ key: 'k', value: { stringValue: 5 } }] },
    scopeLogs: [{ logRecords: Array.from({ length: records }, () => ({ body: { stringValue: 'lost' } })) }],
  });
  const goodResourceJson = { resource: {}, scopeLogs: [{ scope: { name: 'after' }, logRecords: [{ body: { stringValue: 'kept' } }] }] };

  it('skips only that entry, counting its records, in JSON and protobuf alike', () => {
    const json = { resourceLogs: [badResourceJson(3), goodResourceJson] };
    const fromJson = decodeOtlp('logs', 'json', Buffer.from(JSON.stringify(json)));
    expect([fromJson.rows.map((r) => r.body), fromJson.skipped]).toEqual([['kept'], 3]);

    const badResource = record((w) => {
      w.uint32((1 << 3) | 2).bytes(record((res) => res.uint32((1 << 3) | 2).bytes(record((kv) => kv.uint32((1 << 3) | 2).string('k').uint32((2 << 3) | 2).bytes(record((v) => v.uint32((1 << 3) | 0).uint32(5)))))));
      w.uint32((2 << 3) | 2).bytes(record((sl) => { for (let i = 0; i < 3; i++) sl.uint32((2 << 3) | 2).bytes(logRecord); }));
    });
    const good = otlpJsonToProtobuf('logs', { resourceLogs: [goodResourceJson] });
    const body = Buffer.concat([Buffer.from(record((w) => w.uint32((1 << 3) | 2).bytes(badResource))), good]);
    const fromProtobuf = decodeOtlp('logs', 'protobuf', body);
    expect([fromProtobuf.rows.map((r) => r.body), fromProtobuf.skipped, fromProtobuf.unreadable]).toEqual([['kept'], 3, undefined]);
  });

  it('skips only the scope whose header is broken', () => {
    const json = { resourceLogs: [{ scopeLogs: [{ scope: { name: 7 }, logRecords: [{}, {}] }, { scope: { name: 'ok' }, logRecords: [{ body: { stringValue: 'kept' } }] }] }] };
    const decoded = decodeOtlp('logs', 'json', Buffer.from(JSON.stringify(json)));
    expect([decoded.rows.map((r) => r.scope.name), decoded.skipped]).toEqual([['ok'], 2]);
  });
});
