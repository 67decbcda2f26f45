// Wraps an exporter so that what it accepts and what it fails are counted per exporter id,
// once for every exporter instead of in each one.
import type { SelfMetrics } from '../telemetry/metrics.js';
import { countBatch, signalCounters } from '../telemetry/counters.js';
import type { Exporter } from './component.js';

export function countedExporter(exporter: Exporter, id: string, telemetry: SelfMetrics): Exporter {
  if (!telemetry.enabled('basic')) return exporter;
  const meter = telemetry.meter('otelgate/exporter');
  const attributes = { exporter: id };
  const sent = signalCounters(meter, 'otelcol_exporter_sent', 'Records an exporter accepted', attributes);
  const failed = signalCounters(meter, 'otelcol_exporter_send_failed', 'Records an exporter refused', attributes);
  return {
    sendsProtobuf: exporter.sendsProtobuf,
    start: () => exporter.start(),
    shutdown: () => exporter.shutdown(),
    async consume(batch, ctx) {
      try {
        await exporter.consume(batch, ctx);
      } catch (error) {
        countBatch(failed, batch);
        throw error;
      }
      countBatch(sent, batch);
    },
  };
}
