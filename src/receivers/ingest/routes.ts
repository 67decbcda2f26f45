// Paths of the ingest interface → what each one receives.
import type { BodyFormat } from '../helper/intake.js';

export function routeTable(standardPaths: boolean): Map<string, BodyFormat> {
  const table = new Map<string, BodyFormat>([
    ['/api/v1/logs', { format: 'otlp', signal: 'logs' }],
    ['/api/v1/traces', { format: 'otlp', signal: 'traces' }],
    ['/api/v1/metrics', { format: 'otlp', signal: 'metrics' }],
    ['/api/v1/ingest', { format: 'simple', signal: 'logs' }],
  ]);
  if (standardPaths) {
    table.set('/v1/logs', { format: 'otlp', signal: 'logs' });
    table.set('/v1/traces', { format: 'otlp', signal: 'traces' });
    table.set('/v1/metrics', { format: 'otlp', signal: 'metrics' });
  }
  return table;
}
