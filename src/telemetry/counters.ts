// One counter per signal under the Collector's naming: <prefix>_log_records, _spans, _metric_points.
import type { Attributes as MetricAttributes, Counter, Meter } from '@opentelemetry/api';
import type { Batch } from '../model/batch.js';
import type { Signal } from '../model/signal.js';

const UNITS: Record<Signal, string> = { logs: 'log_records', traces: 'spans', metrics: 'metric_points' };

export type SignalCounters = Record<Signal, Counter>;

export function signalCounters(meter: Meter, prefix: string, description: string): SignalCounters {
  const make = (signal: Signal): Counter => meter.createCounter(`${prefix}_${UNITS[signal]}`, { description: `${description} (${UNITS[signal].replace('_', ' ')})` });
  return { logs: make('logs'), traces: make('traces'), metrics: make('metrics') };
}

export function countBatch(counters: SignalCounters, batch: Batch, attributes: MetricAttributes): void {
  counters[batch.signal].add(batch.rows.length, attributes);
}
