import { describe, expect, it } from 'vitest';
import { batchCounts, formatTime, renderBatch } from '../../../src/exporters/debug/render.js';
import type { Batch } from '../../../src/model/batch.js';
import { expectGolden } from '../../helpers/golden.js';
import { RECEIVED, logBatch, logRow, metricBatch, resource, scope, spanBatch } from '../../helpers/rows.js';

const batches: [string, Batch][] = [
  ['logs', logBatch(2)],
  ['traces', spanBatch()],
  ['metrics', metricBatch()],
];

describe('debug exporter rendering', () => {
  it.each(batches)('%s at normal and detailed verbosity match the golden files', (name, batch) => {
    expectGolden(`debug/${name}_normal.txt`, renderBatch(batch, 'normal'));
    expectGolden(`debug/${name}_detailed.txt`, renderBatch(batch, 'detailed'));
  });

  it('groups rows by their shared resource and scope, in order of first appearance', () => {
    const [web, worker] = [resource('web'), resource('worker')];
    const [a, b] = [scope('a'), scope('b')];
    const rows = [logRow(0, web, a), logRow(1, worker, a), logRow(2, web, b), logRow(3, web, a)];
    const text = renderBatch({ signal: 'logs', project: 'p', receivedUnixNano: RECEIVED, exclusive: false, rows }, 'normal');
    expect(text.split('\n').filter((l) => /^(ResourceLog|ScopeLogs|order)/.test(l))).toEqual([
      'ResourceLog #0 service.name=web host.name=web-1',
      'ScopeLogs #0 a@1.2.0',
      'order 0 placed order.id=1000 amount=12.5 paid=true',
      'order 3 placed order.id=1003 amount=12.5 paid=true',
      'ScopeLogs #1 b@1.2.0',
      'order 2 placed order.id=1002 amount=12.5 paid=true',
      'ResourceLog #1 service.name=worker host.name=web-1',
      'ScopeLogs #0 a@1.2.0',
      'order 1 placed order.id=1001 amount=12.5 paid=true',
    ]);
    expect(batchCounts({ signal: 'logs', project: 'p', receivedUnixNano: RECEIVED, exclusive: false, rows })).toEqual({ 'resource logs': 2, 'log records': 4 });
  });

  it('counts as the Collector does at basic verbosity', () => {
    expect(batchCounts(spanBatch())).toEqual({ 'resource spans': 1, spans: 1 });
    expect(batchCounts(metricBatch())).toEqual({ 'resource metrics': 1, metrics: 2, 'data points': 2 });
  });

  it('prints nanosecond timestamps as the Collector does', () => {
    expect(formatTime(1_700_000_000_123_456_789n)).toBe('2023-11-14 22:13:20.123456789 +0000 UTC');
    expect(formatTime(0n)).toBe('1970-01-01 00:00:00.000000000 +0000 UTC');
    expect(formatTime(18446744073709551615n)).toBe('2554-07-21 23:34:33.709551615 +0000 UTC');
  });
});
