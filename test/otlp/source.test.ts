// Rows decoded from protobuf keep their body as their source, and encoding them to protobuf gives
// that body back, for as long as the body says exactly what the rows say; otherwise the rows are
// encoded. src/otlp/source.ts says why.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LogRow } from '../../src/model/logs.js';
import { mapRows } from '../../src/model/rewrite.js';
import type { Signal } from '../../src/model/signal.js';
import { decodeOtlp } from '../../src/otlp/decode.js';
import { encodeOtlp } from '../../src/otlp/encode.js';
import { sourceOf } from '../../src/otlp/source.js';
import { ROOT } from '../helpers/cli.js';
import { otlpJsonToProtobuf } from '../helpers/otlp.js';

const SIGNALS: Signal[] = ['logs', 'traces', 'metrics'];
/** What the ingest receiver asks for when a pipeline behind it sends OTLP protobuf. */
const KEEP = { keepSource: true };
const golden = (signal: Signal): Buffer => readFileSync(join(ROOT, 'testdata', 'otlp', `${signal}.json`));
/**
 * The golden export's records that otelgate keeps (the golden files hold some it skips on
 * purpose), as protobuf written by protobufjs, the reference codec.
 */
function protobufBody(signal: Signal): Buffer {
  const kept = decodeOtlp(signal, 'json', golden(signal)).rows;
  return own(otlpJsonToProtobuf(signal, JSON.parse(encodeOtlp(signal, 'json', kept).toString('utf8'))));
}

/** The bytes in a buffer of their own: a small Buffer is a slice of a shared pool, which a source is a copy of. */
function own(bytes: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(copy);
  return copy;
}

/** The body with `from` (ASCII, found once) replaced by `to`, bytes of the same length. */
function patched(body: Buffer, from: string, to: Buffer): Buffer {
  const at = body.indexOf(from);
  expect(at).toBeGreaterThanOrEqual(0);
  expect(body.indexOf(from, at + 1)).toBe(-1);
  const copy = Buffer.from(body);
  to.copy(copy, at);
  return copy;
}

describe('the source of decoded rows', () => {
  it.each(SIGNALS)('%s: a protobuf body read whole is what its rows encode to, the same buffer', (signal) => {
    const body = protobufBody(signal);
    const decoded = decodeOtlp(signal, 'protobuf', body, undefined, KEEP);
    expect(decoded.skipped).toBe(0);
    expect(decoded.rows.length).toBeGreaterThan(0);
    expect(encodeOtlp(signal, 'protobuf', decoded.rows)).toBe(body);
    // Grouped by value, the rows are encoded: a new buffer that reads back as the same rows.
    const regrouped = encodeOtlp(signal, 'protobuf', decoded.rows, { group: 'value' });
    expect(regrouped).not.toBe(body);
    expect(decodeOtlp(signal, 'protobuf', regrouped).rows).toEqual(decoded.rows);
  });

  it.each(SIGNALS)('%s: none unless asked for', (signal) => {
    expect(sourceOf(decodeOtlp(signal, 'protobuf', protobufBody(signal)).rows)).toBeUndefined();
  });

  it('does not look at strings unless asked for', () => {
    const notUtf8 = decodeOtlp('logs', 'protobuf', patched(protobufBody('logs'), 'order placed', Buffer.from('order\xffplaced', 'latin1')));
    expect((notUtf8.rows[0] as LogRow).body).toBe('order\ufffdplaced');
    expect(notUtf8.inexact).toBeUndefined();
  });

  it('keeps a field otelgate does not know in the bytes it sends on', () => {
    // Field 99, varint 1, after the request's resources: a newer OTLP's field, unknown here.
    const body = own(Buffer.concat([protobufBody('logs'), Buffer.from([0x98, 0x06, 0x01])]));
    const decoded = decodeOtlp('logs', 'protobuf', body, undefined, KEEP);
    expect(decoded.skipped).toBe(0);
    expect(encodeOtlp('logs', 'protobuf', decoded.rows)).toBe(body);
  });

  it('has none for rows of a JSON body, or of a body with a record skipped', () => {
    const json = decodeOtlp('logs', 'json', golden('logs'));
    expect(sourceOf(json.rows)).toBeUndefined();
    // A span id of 9 bytes: that log record is skipped, and the rows are not the body any more.
    const body = protobufBody('logs');
    const spanId = Buffer.from('eee19b7ec3c1b174', 'hex');
    const at = body.indexOf(spanId);
    const broken = Buffer.concat([body.subarray(0, at - 1), Buffer.from([9]), spanId, Buffer.from([0]), body.subarray(at + 8)]);
    const decoded = decodeOtlp('logs', 'protobuf', broken, undefined, KEEP);
    expect(decoded.skipped).toBeGreaterThan(0);
    expect(sourceOf(decoded.rows)).toBeUndefined();
  });

  it('has none once a string was not UTF-8: the rows hold U+FFFD, and so do the bytes they encode to', () => {
    const body = patched(protobufBody('logs'), 'order placed', Buffer.from('order\xffplaced', 'latin1'));
    const decoded = decodeOtlp('logs', 'protobuf', body, undefined, KEEP);
    expect(decoded).toMatchObject({ skipped: 0, inexact: true });
    expect((decoded.rows[0] as LogRow).body).toBe('order\ufffdplaced');
    expect(sourceOf(decoded.rows)).toBeUndefined();
    const encoded = encodeOtlp('logs', 'protobuf', decoded.rows);
    expect(encoded.includes(Buffer.from('order\ufffdplaced'))).toBe(true);
    // A U+FFFD sent as such counts too: those rows are encoded again, which costs only time.
    expect(decodeOtlp('logs', 'protobuf', encoded, undefined, KEEP)).toEqual({ rows: decoded.rows, skipped: 0, inexact: true });
  });

  it('has none when a resource could not be read, even one without records', () => {
    // Last, a ResourceLogs whose Resource holds an attribute 5 bytes long with 3 left in the body:
    // no record is lost, but the bytes hold what the rows do not, and a strict backend would refuse
    // them whole. (Last, so that nothing is read past it: read as text, the next message's bytes
    // would make the rows inexact for another reason.)
    const broken = Buffer.from([0x0a, 0x07, 0x0a, 0x05, 0x0a, 0x05, 0x0a, 0x01, 0x6b]);
    const body = Buffer.concat([protobufBody('logs'), broken]);
    const decoded = decodeOtlp('logs', 'protobuf', body, undefined, KEEP);
    expect(decoded).toMatchObject({ skipped: 0, inexact: true });
    expect(decoded.rows).toEqual(decodeOtlp('logs', 'protobuf', protobufBody('logs')).rows);
    expect(sourceOf(decoded.rows)).toBeUndefined();
  });

  it('keeps a copy of a body that is a slice of a larger buffer, so as not to keep all of that alive', () => {
    const exact = protobufBody('logs');
    const slab = Buffer.alloc(64 * 1024);
    exact.copy(slab, 100);
    const slice = slab.subarray(100, 100 + exact.length);
    const source = sourceOf(decodeOtlp('logs', 'protobuf', slice, undefined, KEEP).rows);
    expect(source?.equals(exact)).toBe(true);
    expect(source?.buffer.byteLength).toBe(exact.length);
    const whole = own(exact);
    expect(sourceOf(decodeOtlp('logs', 'protobuf', whole, undefined, KEEP).rows)).toBe(whole);
  });

  it('has none once an attribute key is not UTF-8', () => {
    const body = patched(protobufBody('logs'), 'order.id', Buffer.from('order\xfeid', 'latin1'));
    const decoded = decodeOtlp('logs', 'protobuf', body, undefined, KEEP);
    expect(decoded).toMatchObject({ skipped: 0, inexact: true });
    expect(sourceOf(decoded.rows)).toBeUndefined();
  });

  it('has none for rows a processor changed, which are a new array', () => {
    const decoded = decodeOtlp('logs', 'protobuf', protobufBody('logs'), undefined, KEEP);
    const changed = mapRows(decoded.rows, (row) => ({ ...row, severityText: 'WARN' }));
    expect(sourceOf(changed)).toBeUndefined();
    expect((decodeOtlp('logs', 'protobuf', encodeOtlp('logs', 'protobuf', changed)).rows as LogRow[]).map((r) => r.severityText)).toEqual(decoded.rows.map(() => 'WARN'));
    expect(sourceOf(decoded.rows.filter(() => true))).toBeUndefined();
  });
});
