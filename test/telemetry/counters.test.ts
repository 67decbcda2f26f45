// The hot path's counters: sums kept by attributes object and read by the SDK when it collects,
// served as the SDK's own counters are (a monotonic sum, `_total` in Prometheus).
import { describe, expect, it } from 'vitest';
import { signalCounters, tally } from '../../src/telemetry/counters.js';
import { SelfMetrics } from '../../src/telemetry/metrics.js';
import { memoryLogger } from '../helpers/logger.js';

const reader = { pull: { exporter: { prometheus: { host: '127.0.0.1', port: 0 } } } };

/** Metric lines of the exposition, without comments. */
async function samples(metrics: SelfMetrics): Promise<string[]> {
  return (await metrics.exposition()).split('\n').filter((line) => line !== '' && !line.startsWith('#'));
}

describe('tally', () => {
  it('sums the adds of each attributes object and serves each sum as a counter', async () => {
    const metrics = new SelfMetrics({ level: 'basic', readers: [reader] }, memoryLogger().logger);
    const counter = tally(metrics.meter('test'), 'otelgate_test_items', 'Items counted by the test');
    const http = { receiver: 'ingest', transport: 'http' };
    const grpc = { receiver: 'otlp', transport: 'grpc' };
    expect((await samples(metrics)).filter((line) => line.startsWith('otelgate_test_items'))).toEqual([]);
    counter.add(3, http);
    counter.add(4, http);
    counter.add(5, grpc);
    expect((await samples(metrics)).filter((line) => line.startsWith('otelgate_test_items')).sort()).toEqual([
      'otelgate_test_items_total{receiver="ingest",transport="http",otel_scope_name="test"} 7',
      'otelgate_test_items_total{receiver="otlp",transport="grpc",otel_scope_name="test"} 5',
    ]);
    counter.add(1, http);
    // Cumulative, as the SDK's counters: each collection has everything counted so far.
    expect((await samples(metrics)).filter((line) => line.startsWith('otelgate_test_items')).sort()).toEqual([
      'otelgate_test_items_total{receiver="ingest",transport="http",otel_scope_name="test"} 8',
      'otelgate_test_items_total{receiver="otlp",transport="grpc",otel_scope_name="test"} 5',
    ]);
    const exposition = await metrics.exposition();
    expect(exposition).toContain('# TYPE otelgate_test_items_total counter');
    expect(exposition).toContain('# HELP otelgate_test_items_total Items counted by the test');
  });

  it('keeps one counter per signal under the Collector\'s names', async () => {
    const metrics = new SelfMetrics({ level: 'basic', readers: [reader] }, memoryLogger().logger);
    const counters = signalCounters(metrics.meter('test'), 'otelcol_receiver_accepted', 'Records handed to the pipelines');
    const attributes = { receiver: 'ingest' };
    counters.logs.add(10, attributes);
    counters.traces.add(2, attributes);
    counters.metrics.add(30, attributes);
    counters.logs.add(1, attributes);
    expect((await samples(metrics)).filter((line) => line.startsWith('otelcol_receiver_accepted')).sort()).toEqual([
      'otelcol_receiver_accepted_log_records_total{receiver="ingest",otel_scope_name="test"} 11',
      'otelcol_receiver_accepted_metric_points_total{receiver="ingest",otel_scope_name="test"} 30',
      'otelcol_receiver_accepted_spans_total{receiver="ingest",otel_scope_name="test"} 2',
    ]);
  });
});
