// The time paths (`time`, `observed_time`, `start_time`, `end_time`): a row's nanoseconds read as
// a time, compared and subtracted as times, set from a time, and never stored anywhere else.
import { describe, expect, it } from 'vitest';
import { batchOf } from '../../src/model/batch.js';
import type { DataPointRow } from '../../src/model/metrics.js';
import type { SpanRow } from '../../src/model/traces.js';
import { OttlRuntimeError } from '../../src/ottl/errors.js';
import { processorPipeline } from '../helpers/processors.js';
import { metricBatch, RECEIVED, spanBatch, T0 } from '../helpers/rows.js';
import { baseRow, run } from './run.js';

/** 2024-01-02T03:04:05Z. */
const JAN_2 = 1_704_164_645_000_000_000n;
const PARSED = 'Time("2024-01-02 03:04:05", "%Y-%m-%d %H:%M:%S", "UTC")';

describe('the time paths of the log context', () => {
  it('read the record\'s times as times', () => {
    const out = run(['set(attributes["t"], UnixNano(time))', 'set(attributes["o"], UnixMilli(observed_time))', 'set(attributes["later"], true) where observed_time > time']);
    expect({ ...out.attributes }).toEqual({ t: T0, o: (T0 + 1_000n) / 1_000_000n, later: true });
  });

  it('set the record\'s times from a time; anything else is ignored, as the Collector\'s setters ignore it', () => {
    const row = baseRow();
    const out = run([`set(time, ${PARSED})`, 'set(observed_time, time)', 'set(observed_time, "yesterday")', 'set(time, 5)'], row);
    expect([out.timeUnixNano, out.observedTimeUnixNano]).toEqual([JAN_2, JAN_2]);
    expect([row.timeUnixNano, row.observedTimeUnixNano]).toEqual([T0, T0 + 1_000n]);
    expect(run(['set(log.time, Unix(-5))']).timeUnixNano).toBe(0n);
  });

  it('take part in conditions as times', () => {
    expect(run([`set(attributes["old"], true) where time < ${PARSED}`]).attributes['old']).toBe(true);
    expect(run([`set(attributes["old"], true) where time > ${PARSED}`]).attributes['old']).toBeUndefined();
  });

  it('are refused where a row would hold a time', () => {
    for (const statement of ['set(attributes["t"], time)', 'set(body, Now())', 'set(attributes["m"]["k"], observed_time)']) {
      expect(() => run([statement])).toThrow(OttlRuntimeError);
      expect(() => run([statement])).toThrow('cannot be stored; convert it first');
    }
  });
});

describe('the time paths of spans, span events and data points', () => {
  it('start_time and end_time of a span', async () => {
    const { service, push, last } = processorPipeline(
      'transform',
      `trace_statements:
  - 'set(span.attributes["slow"], true) where span.end_time - span.start_time > Duration("2ms")'
  - 'set(span.attributes["fast"], true) where span.end_time - span.start_time < Duration("2ms")'
  - 'set(span.end_time, span.start_time + Duration("1s"))'`,
    );
    await service.start();
    await push(spanBatch());
    await service.shutdown();
    const span = last()?.rows[0] as SpanRow;
    expect({ ...span.attributes }).toEqual({ 'http.response.status_code': 201n, slow: true });
    expect([span.startTimeUnixNano, span.endTimeUnixNano]).toEqual([T0, T0 + 1_000_000_000n]);
  });

  it('time of a span event, in the filter\'s conditions', async () => {
    const { service, push, last } = processorPipeline('filter', `traces: {spanevent: ['spanevent.time - span.start_time >= Duration("1ms")']}`);
    await service.start();
    const batch = spanBatch();
    const span = batch.rows[0] as SpanRow;
    const early = { ...(span.events[0] as SpanRow['events'][0]), name: 'early', timeUnixNano: T0 + 999_999n };
    await push(batchOf('traces', 'shop', RECEIVED, [{ ...span, events: [early, ...span.events] }]));
    await service.shutdown();
    expect((last()?.rows[0] as SpanRow).events.map((e) => e.name)).toEqual(['early']);
  });

  it('time and start_time of a data point', async () => {
    const { service, push, last } = processorPipeline('transform', `metric_statements: ['set(datapoint.time, datapoint.start_time + Duration("1m")) where metric.name == "orders"']`, ['metrics']);
    await service.start();
    await push(batchOf('metrics', 'shop', RECEIVED, metricBatch().rows));
    await service.shutdown();
    const points = last()?.rows as DataPointRow[];
    expect(points.map((p) => [p.metric.name, p.startTimeUnixNano, p.timeUnixNano])).toEqual([
      ['orders', T0, T0 + 60_000_000_000n],
      ['latency', T0, T0 + 60_000_000_000n],
    ]);
  });
});
