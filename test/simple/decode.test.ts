import { describe, expect, it } from 'vitest';
import { decodeSimpleLogs } from '../../src/simple/decode.js';
import { flatten } from '../../src/simple/flatten.js';
import { severityNumber } from '../../src/simple/levels.js';
import { parseTimestamp } from '../../src/simple/time.js';

const ARRIVAL = 1_800_000_000_000_000_000n;
const decode = (value: unknown) => decodeSimpleLogs(Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)), ARRIVAL);

describe('simple JSON: fields and aliases', () => {
  it('reads every field of the spec table under its name', () => {
    const { rows, skipped } = decode({
      message: 'paid',
      level: 'warn',
      timestamp: '2026-11-22T06:00:00.123456789+01:00',
      service: 'web',
      context: { user: { id: 42, roles: ['a'] }, ok: true, none: null },
      trace_id: 'not-hex-but-kept',
      span_id: 'abc',
      scope: 'billing',
      event: 'payment.done',
    });
    expect(skipped).toBe(0);
    const [row] = rows;
    expect(row).toMatchObject({
      body: 'paid',
      severityNumber: 13,
      severityText: 'warn',
      timeUnixNano: 1_795_323_600_123_456_789n,
      observedTimeUnixNano: ARRIVAL,
      traceId: '',
      spanId: '',
      eventName: 'payment.done',
      scope: { name: 'billing' },
    });
    expect({ ...row?.resource.attributes }).toEqual({ 'service.name': 'web' });
    // Ids that are not hex ids are kept as sent, in attributes: a row's trace id is hex or ''.
    expect({ ...row?.attributes }).toEqual({ 'user.id': '42', 'user.roles': '["a"]', ok: 'true', none: 'null', trace_id: 'not-hex-but-kept', span_id: 'abc' });
  });

  it.each([
    ['lower-case hex', '5b8efff798038103d269b633813fc60c', 'eee19b7ec3c1b174', '5b8efff798038103d269b633813fc60c', 'eee19b7ec3c1b174', {}],
    ['upper-case hex: the id, and the text as sent', '5B8EFFF798038103D269B633813FC60C', 'EEE19B7EC3C1B174', '5b8efff798038103d269b633813fc60c', 'eee19b7ec3c1b174', { trace_id: '5B8EFFF798038103D269B633813FC60C', span_id: 'EEE19B7EC3C1B174' }],
    ['hex of the wrong length', '5b8efff798038103', 'eee19b7ec3c1b174ff', '', '', { trace_id: '5b8efff798038103', span_id: 'eee19b7ec3c1b174ff' }],
    ['empty', '', '', '', '', {}],
    ['a number', 12, 34, '', '', { trace_id: '12', span_id: '34' }],
  ])('ids: %s', (_name, trace, span, traceId, spanId, attributes) => {
    const [row] = decode({ message: 'm', trace_id: trace, span_id: span, context: { trace_id: 'from context' } }).rows;
    expect([row?.traceId, row?.spanId]).toEqual([traceId, spanId]);
    expect({ ...row?.attributes }).toEqual({ trace_id: 'from context', ...attributes });
  });

  it('reads the aliases: body, severity, time, service_name, attributes, traceId, spanId', () => {
    const [row] = decode({ body: 'x', severity: 'ERROR', time: 1_700_000_000, service_name: 'api', attributes: { a: 1 }, traceId: 't', spanId: 's' }).rows;
    expect(row).toMatchObject({ body: 'x', severityNumber: 17, severityText: 'ERROR', timeUnixNano: 1_700_000_000_000_000_000n, traceId: '', spanId: '' });
    expect({ ...row?.attributes }).toEqual({ a: '1', trace_id: 't', span_id: 's' });
    expect({ ...row?.resource.attributes }).toEqual({ 'service.name': 'api' });
  });

  it.each([
    [{ message: { nested: [1, 2] } }, '{"nested":[1,2]}'],
    [{ message: [1, 'a'] }, '[1,"a"]'],
    [{ message: 42 }, '42'],
    [{ message: false }, 'false'],
    [{ message: '' }, ''],
    [{ message: null, body: 'the alias' }, 'the alias'],
  ])('makes %j a string message', (record, body) => {
    expect(decode(record).rows.map((r) => r.body)).toEqual([body]);
  });

  it('skips and counts records with no usable message, and anything that is not an object', () => {
    const result = decode([{ message: 'kept' }, {}, { message: null }, { level: 'info' }, 'text', 5, null, [{ message: 'nested array' }]]);
    expect([result.rows.length, result.skipped]).toEqual([1, 7]);
  });

  it('skips a record nested too deep to flatten on its own, keeping the others', () => {
    const deep = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    const result = decodeSimpleLogs(Buffer.from(`[{"message":"kept"},{"message":"x","context":${deep}}]`), ARRIVAL);
    expect([result.rows.map((r) => r.body), result.skipped]).toEqual([['kept'], 1]);
  });

  it('counts a body that is not JSON as one skipped record', () => {
    expect(decode('message=hi level=info')).toMatchObject({ rows: [], skipped: 1 });
  });

  it('shares one resource per service and one scope per name across the records of a request', () => {
    const { rows } = decode([
      { message: 'a', service: 'web', scope: 's' },
      { message: 'b', service: 'web', scope: 's' },
      { message: 'c', service: 'api' },
    ]);
    expect(rows[0]?.resource).toBe(rows[1]?.resource);
    expect(rows[0]?.scope).toBe(rows[1]?.scope);
    expect(rows[2]?.resource).not.toBe(rows[0]?.resource);
  });

  it('flattens nested context with dotted keys', () => {
    expect({ ...flatten({ a: { b: { c: 1 } }, 'x.y': 'z', list: [{ k: 1 }] }) }).toEqual({ 'a.b.c': '1', 'x.y': 'z', list: '[{"k":1}]' });
  });
});

describe('simple JSON: levels', () => {
  it.each([
    ['trace', 1],
    ['DEBUG', 5],
    ['info', 9],
    ['Information', 9],
    ['notice', 10],
    ['warn', 13],
    ['warning', 13],
    ['error', 17],
    ['err', 17],
    ['fatal', 21],
    ['critical', 21],
    ['crit', 21],
    ['alert', 22],
    ['emergency', 23],
    ['emerg', 23],
    [' Info ', 9],
    ['verbose', 0],
    ['', 0],
  ])('%j is severity %d', (level, number) => {
    expect(severityNumber(level)).toBe(number);
  });

  it('keeps a level it does not know as severity text, with number 0', () => {
    expect(decode({ message: 'm', level: 'chatty' }).rows[0]).toMatchObject({ severityNumber: 0, severityText: 'chatty' });
    expect(decode({ message: 'm', level: 30 }).rows[0]).toMatchObject({ severityNumber: 0, severityText: '30' });
  });
});

describe('simple JSON: timestamps', () => {
  it.each([
    ['2026-11-22T06:00:00Z', 1_795_327_200_000_000_000n],
    ['2026-11-22T06:00:00.5Z', 1_795_327_200_500_000_000n],
    ['2026-11-22T06:00:00.123456789Z', 1_795_327_200_123_456_789n],
    ['2026-11-22T07:00:00+01:00', 1_795_327_200_000_000_000n],
    ['2026-11-22T01:30:00-0430', 1_795_327_200_000_000_000n],
    ['2026-11-22 06:00:00', 1_795_327_200_000_000_000n],
    ['2026-11-22T06:00:00', 1_795_327_200_000_000_000n],
    [1_795_327_200, 1_795_327_200_000_000_000n],
    [1_795_327_200.25, 1_795_327_200_250_000_000n],
    ['1795327200', 1_795_327_200_000_000_000n],
    [1_795_327_200_123, 1_795_327_200_123_000_000n],
    ['1795327200123456', 1_795_327_200_123_456_000n],
    ['1795327200123456789', 1_795_327_200_123_456_789n],
  ])('%j is %d ns', (input, ns) => {
    expect(parseTimestamp(input)).toBe(ns);
  });

  it.each(['yesterday', '2026-13-01T00:00:00Z', '2026-11-22T25:00:00Z', '', -5, 0, true, {}, null])('%j is not a time, so the record gets its arrival time', (input) => {
    expect(parseTimestamp(input)).toBeUndefined();
    expect(decode({ message: 'm', timestamp: input }).rows[0]?.timeUnixNano).toBe(ARRIVAL);
  });
});

describe('simple JSON: times out of range', () => {
  it.each(['10000000000000000000000000', '1969-12-31T23:59:59Z', '0099-01-01T00:00:00Z', '300000-01-01T00:00:00Z'])('%j is not a time', (input) => {
    expect(parseTimestamp(input)).toBeUndefined();
  });
});
