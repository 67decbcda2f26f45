// Queued PushRequests merged into one push as Loki wants it, and read back for the JSON form.
import { describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import type { LogRow } from '../../../src/model/logs.js';
import { snappyBlock } from '../../../src/exporters/helper/snappy.js';
import { lokiSchema, type LokiConfig } from '../../../src/exporters/loki/config.js';
import { jsonPush, pushRequest } from '../../../src/exporters/loki/push.js';
import { mergePushes, readPushes } from '../../../src/exporters/loki/queued.js';
import { StreamBuilder } from '../../../src/exporters/loki/streams.js';
import { lokiWire, type LokiRecord } from '../../helpers/loki.js';
import { logRow, RECEIVED, resource, T0 } from '../../helpers/rows.js';

const builder = new StreamBuilder(Value.Default(lokiSchema, { endpoint: 'http://loki:3100' }) as LokiConfig);
const queued = (rows: readonly LogRow[]): Buffer => pushRequest(builder.streams(rows, RECEIVED));
const read = (body: Buffer, json = false): LokiRecord[] => lokiWire.read('/loki/api/v1/push', { 'content-type': json ? 'application/json' : 'application/x-protobuf' }, body).rows as LokiRecord[];
const row = (service: string, at: bigint, body: string): LogRow => ({ ...logRow(0, resource(service)), timeUnixNano: T0 + at, body });

describe('queued Loki pushes', () => {
  const first = queued([row('a', 5n, 'a5'), row('b', 1n, 'b1'), row('a', 7n, 'a7')]);
  const second = queued([row('a', 6n, 'a6'), row('a', 5n, 'a5 again'), row('c', 0n, 'c0')]);

  it('merge into one stream per label set, each in time order, equal times in the order they came', () => {
    const merged = mergePushes([first, second]);
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
    const alone = [...read(snappyBlock(first)), ...read(snappyBlock(second))];
    const key = (r: LokiRecord): string => `${r.line}@${r.timeUnixNano}`;
    expect(new Map(records.map((r) => [key(r), r]))).toEqual(new Map(alone.map((r) => [key(r), r])));
  });

  it('read back whole for the JSON form: the same records as the protobuf push', () => {
    expect(read(jsonPush(readPushes([first, second])), true)).toEqual(read(snappyBlock(mergePushes([first, second]))));
    expect(read(jsonPush(readPushes([first])), true)).toEqual(read(snappyBlock(first)));
  });
});
