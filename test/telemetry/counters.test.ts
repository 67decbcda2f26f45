// The hot path's counters: each bound to its attributes when made, a sum read by the SDK when it
// collects, served as the SDK's own counters are (a monotonic sum, `_total` in Prometheus).
import { describe, expect, it } from 'vitest';
import { signalCounters, tally } from '../../src/telemetry/counters.js';
import { SelfMetrics } from '../../src/telemetry/metrics.js';
import { memoryLogger } from '../helpers/logger.js';

const reader = { pull: { exporter: { prometheus: { host: '127.0.0.1', port: 0 } } } };

/** Metric lines of the exposition that start with `prefix`, sorted. */
async function samples(metrics: SelfMetrics, prefix: string): Promise<string[]> {
  return (await metrics.exposition())
    .split('\n')
    .filter((line) => line.startsWith(prefix))
    .sort();
}

describe('tally', () => {
  it('sums its adds and serves the sum as a counter, cumulative; tallies of one name each under their own attributes', async () => {
    const metrics = new SelfMetrics({ level: 'basic', readers: [reader] }, memoryLogger().logger);
    const meter = metrics.meter('test');
    const http = tally(meter, 'otelgate_test_items', 'Items counted by the test', { receiver: 'ingest', transport: 'http' });
    const grpc = tally(meter, 'otelgate_test_items', 'Items counted by the test', { receiver: 'otlp', transport: 'grpc' });
    // Nothing is shown before the first add.
    expect(await samples(metrics, 'otelgate_test_items')).toEqual([]);
    http.add(3);
    http.add(4);
    expect(await samples(metrics, 'otelgate_test_items')).toEqual(['otelgate_test_items_total{receiver="ingest",transport="http",otel_scope_name="test"} 7']);
    grpc.add(5);
    http.add(1);
    expect(await samples(metrics, 'otelgate_test_items')).toEqual([
      'otelgate_test_items_total{receiver="ingest",transport="http",otel_scope_name="test"} 8',
      'otelgate_test_items_total{receiver="otlp",transport="grpc",otel_scope_name="test"} 5',
    ]);
    const exposition = await metrics.exposition();
    expect(exposition).toContain('# TYPE otelgate_test_items_total counter');
    expect(exposition).toContain('# HELP otelgate_test_items_total Items counted by the test');
  });

  it('keeps one counter per signal under the Collector\'s names', async () => {
    const metrics = new SelfMetrics({ level: 'basic', readers: [reader] }, memoryLogger().logger);
    const counters = signalCounters(metrics.meter('test'), 'otelcol_receiver_accepted', 'Records handed to the pipelines', { receiver: 'ingest' });
    counters.logs.add(10);
    counters.traces.add(2);
    counters.metrics.add(30);
    counters.logs.add(1);
    expect(await samples(metrics, 'otelcol_receiver_accepted')).toEqual([
      'otelcol_receiver_accepted_log_records_total{receiver="ingest",otel_scope_name="test"} 11',
      'otelcol_receiver_accepted_metric_points_total{receiver="ingest",otel_scope_name="test"} 30',
      'otelcol_receiver_accepted_spans_total{receiver="ingest",otel_scope_name="test"} 2',
    ]);
  });
});
