// The transform's `cache`, the Collector's scratch map: statements of a group write and read it on
// the row they are at; it is empty again at the next row and in the next group, and reaches a row
// only as a copy.
import { describe, expect, it } from 'vitest';
import { batchOf } from '../../../src/model/batch.js';
import type { LogRow } from '../../../src/model/logs.js';
import type { SpanRow } from '../../../src/model/traces.js';
import { processorPipeline } from '../../helpers/processors.js';
import { attrs, logRow, RECEIVED, spanBatch } from '../../helpers/rows.js';

async function transformed(settings: string, rows: LogRow[]): Promise<LogRow[]> {
  const { service, push, last } = processorPipeline('transform', settings);
  await service.start();
  await push(batchOf('logs', 'shop', RECEIVED, rows));
  await service.shutdown();
  return last()?.rows as LogRow[];
}

describe('the transform\'s cache', () => {
  it('holds what a group\'s statements put in it for the row they are at, and is empty again at the next row', async () => {
    const rows = [
      { ...logRow(0), body: 'user=ann action=login', attributes: attrs({}) },
      { ...logRow(1), body: 'no pairs here', attributes: attrs({}) },
    ];
    const out = await transformed(
      `log_statements:
  - context: log
    statements:
      - 'set(cache["parsed"], ParseKeyValue(body)) where IsMatch(body, "=")'
      - 'set(attributes["user"], cache["parsed"]["user"])'
      - 'set(log.cache["seen"], true)'
      - 'set(attributes["seen"], cache["seen"])'
      - 'set(attributes["all"], cache)'`,
      rows,
    );
    expect(out.map((r) => JSON.parse(JSON.stringify(r.attributes)))).toEqual([
      { user: 'ann', seen: true, all: { parsed: { user: 'ann', action: 'login' }, seen: true } },
      { seen: true, all: { seen: true } },
    ]);
  });

  it('is empty in the next group, and in a condition', async () => {
    const out = await transformed(
      `log_statements:
  - 'set(cache["k"], "v")'
  - 'set(attributes["left"], cache["k"])'
  - statements: ['set(attributes["empty"], true) where cache["k"] == nil']`,
      [{ ...logRow(0), attributes: attrs({}) }],
    );
    expect({ ...out[0]?.attributes }).toEqual({ empty: true });
  });

  it('is a span event\'s own, event after event', async () => {
    const { service, push, last } = processorPipeline(
      'transform',
      `trace_statements:
  - context: spanevent
    statements:
      - 'set(cache["n"], name) where name == "validated"'
      - 'set(attributes["cached"], cache["n"])'`,
    );
    await service.start();
    const span = spanBatch().rows[0] as SpanRow;
    const second = { ...(span.events[0] as SpanRow['events'][0]), name: 'second' };
    await push(batchOf('traces', 'shop', RECEIVED, [{ ...span, events: [...span.events, second] }]));
    await service.shutdown();
    expect((last()?.rows[0] as SpanRow).events.map((e) => ({ ...e.attributes }))).toEqual([{ rules: 3n, cached: 'validated' }, { rules: 3n }]);
  });
});
