// Queued pushes merged into one push as Loki wants it, read back for the JSON form, and queued by
// an otelgate before this one (PushRequests uncompressed) sent as they were.
import { describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import type { LogRow } from '../../../src/model/logs.js';
import { snappyBlock } from '../../../src/exporters/helper/snappy.js';
import { lokiSchema, type LokiConfig } from '../../../src/exporters/loki/config.js';
import { PushEncoder } from '../../../src/exporters/loki/encode.js';
import { jsonPush } from '../../../src/exporters/loki/push.js';
import { mergePushes, protobufBody, pushRequestOf, readPushes } from '../../../src/exporters/loki/queued.js';
import { lokiWire, type LokiRecord } from '../../helpers/loki.js';
import { snappyDecodeStrict } from '../../helpers/snappy-decode.js';
import { logRow, RECEIVED, resource, T0 } from '../../helpers/rows.js';

const encoder = new PushEncoder(Value.Default(lokiSchema, { endpoint: 'http://loki:3100' }) as LokiConfig);
const queued = (rows: readonly LogRow[]): Buffer => encoder.encode(rows, RECEIVED);
const read = (body: Buffer, json = false): LokiRecord[] => lokiWire.read('/loki/api/v1/push', { 'content-type': json ? 'application/json' : 'application/x-protobuf' }, body).rows as LokiRecord[];
const row = (service: string, at: bigint, body: string): LogRow => ({ ...logRow(0, resource(service)), timeUnixNano: T0 + at, body });

describe('queued Loki pushes', () => {
  const first = queued([row('a', 5n, 'a5'), row('b', 1n, 'b1'), row('a', 7n, 'a7')]);
  const second = queued([row('a', 6n, 'a6'), row('a', 5n, 'a5 again'), row('c', 0n, 'c0')]);

  it('are the Snappy block Loki is sent, in a frame', () => {
    expect(first[0]).toBe(0x00);
    const block = protobufBody(first);
    expect(first.subarray(first.length - block.length)).toEqual(block);
    expect(read(block).map((r) => r.line)).toEqual(['a5', 'a7', 'b1']);
    expect(Buffer.from(pushRequestOf(first))).toEqual(snappyDecodeStrict(block));
  });

  it('merge into one stream per label set, each in time order, equal times in the order they came', () => {
    const merged = mergePushes([first, second].map(pushRequestOf));
    const records = read(snappyBlock(merged));
    expect(records.map((r) => [r.labels['service_name'], r.line])).toEqual([
      ['a', 'a5'],
      ['a', 'a5 again'],
      ['a', 'a6'],
      ['a', 'a7'],
      ['b', 'b1'],
      ['c', 'c0'],
    ]);
    // Entries are copied whole: their metadata and times arrive as written.
    const alone = [...read(protobufBody(first)), ...read(protobufBody(second))];
    const key = (r: LokiRecord): string => `${r.line}@${r.timeUnixNano}`;
    expect(new Map(records.map((r) => [key(r), r]))).toEqual(new Map(alone.map((r) => [key(r), r])));
  });

  it('read back whole for the JSON form: the same records as the protobuf push', () => {
    const both = [first, second].map(pushRequestOf);
    expect(read(jsonPush(readPushes(both)), true)).toEqual(read(snappyBlock(mergePushes(both))));
    expect(read(jsonPush(readPushes([pushRequestOf(first)])), true)).toEqual(read(protobufBody(first)));
  });

  it('queued by an otelgate before this one, as PushRequests, are sent as they were', () => {
    const legacy = Buffer.from(pushRequestOf(first));
    expect(legacy[0]).toBe(0x0a);
    expect(pushRequestOf(legacy)).toBe(legacy);
    expect(read(protobufBody(legacy))).toEqual(read(protobufBody(first)));
  });
});
