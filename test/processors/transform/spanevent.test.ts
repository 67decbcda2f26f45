// The transform processor's statements in the span event context: run on each event of each span,
// with the event's paths, its span's under `span.`, and the resource's and scope's; an event that
// changes is a new one in a new list on a new span row, the batch that came stays as it was.
import { describe, expect, it } from 'vitest';
import { batchOf } from '../../../src/model/batch.js';
import type { SpanEvent, SpanRow } from '../../../src/model/traces.js';
import { processorPipeline } from '../../helpers/processors.js';
import { attrs, RECEIVED, spanBatch, T0 } from '../../helpers/rows.js';

function spanWithEvents(): SpanRow {
  const span = spanBatch().rows[0] as SpanRow;
  const event = (name: string, at: bigint, values: Record<string, string>): SpanEvent => ({ name, timeUnixNano: T0 + at, attributes: attrs(values), droppedAttributesCount: 0 });
  return { ...span, events: [event('validated', 1_000_000n, { rule: 'a' }), event('exception', 2_000_000n, { 'exception.message': 'card 4111111111111111 declined' }), event('done', 3_000_000n, {})] };
}

async function transformed(settings: string, span: SpanRow): Promise<SpanRow> {
  const { service, push, last } = processorPipeline('transform', settings);
  await service.start();
  await push(batchOf('traces', 'shop', RECEIVED, [span]));
  await service.shutdown();
  return last()?.rows[0] as SpanRow;
}

describe('transform statements in the span event context', () => {
  it('run on every event; only the events that change are new, the span that came stays as it was', async () => {
    const span = spanWithEvents();
    const out = await transformed(
      `trace_statements:
  - 'replace_pattern(spanevent.attributes["exception.message"], "[0-9]{16}", "****")'
  - 'set(spanevent.attributes["late"], true) where spanevent.time - span.start_time > Duration("2500us")'`,
      span,
    );
    expect(out.events.map((e) => [e.name, { ...e.attributes }])).toEqual([
      ['validated', { rule: 'a' }],
      ['exception', { 'exception.message': 'card **** declined' }],
      ['done', { late: true }],
    ]);
    expect(out.events[0]).toBe(span.events[0]);
    expect(out).not.toBe(span);
    expect(span.events.map((e) => ({ ...e.attributes }))).toEqual([{ rule: 'a' }, { 'exception.message': 'card 4111111111111111 declined' }, {}]);
  });

  it('a group in the spanevent context: the event\'s own paths plain, its span\'s under span., which they may set too', async () => {
    const out = await transformed(
      `trace_statements:
  - context: spanevent
    conditions: ['name == "exception"']
    statements:
      - 'set(name, "error")'
      - 'set(time, span.start_time)'
      - 'set(span.attributes["had_exception"], true)'
      - 'set(span.status.code, STATUS_CODE_ERROR)'`,
      spanWithEvents(),
    );
    expect(out.events.map((e) => [e.name, e.timeUnixNano])).toEqual([
      ['validated', T0 + 1_000_000n],
      ['error', T0],
      ['done', T0 + 3_000_000n],
    ]);
    expect({ ...out.attributes }).toEqual({ 'http.response.status_code': 201n, had_exception: true });
    expect(out.statusCode).toBe(2);
  });

  it('hands on a span none of whose events change as it came', async () => {
    const span = spanWithEvents();
    expect(await transformed(`trace_statements: ['set(spanevent.name, "x") where spanevent.name == "nothing"']`, span)).toBe(span);
  });
});
