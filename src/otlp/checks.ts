// The rules that decide whether a decoded record is stored or skipped. Both encodings run the same
// checks on the same rows, so JSON and protobuf skip exactly the same records.
import type { DataPointRow } from '../model/metrics.js';
import type { SpanRow } from '../model/traces.js';

const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/**
 * A log record's ids are optional: one of the wrong length is treated as absent, and the record
 * kept as not associated with a trace (logs.proto), by both readers.
 */
export function logTraceId(hex: string): string {
  return hex.length === 32 ? hex : '';
}

export function logSpanId(hex: string): string {
  return hex.length === 16 ? hex : '';
}

/** A span is found by its ids: without a valid trace id and span id it cannot be stored. */
export function spanProblem(row: SpanRow): string | undefined {
  if (row.traceId.length !== 32 || row.traceId === ZERO_TRACE) return 'trace id is missing or not 16 bytes';
  if (row.spanId.length !== 16 || row.spanId === ZERO_SPAN) return 'span id is missing or not 8 bytes';
  if (row.parentSpanId !== '' && row.parentSpanId.length !== 16) return 'parent span id is not 8 bytes';
  return undefined;
}

const finite = (n: number | undefined): boolean => n === undefined || Number.isFinite(n);
// Counts are uint64 on the wire but kept as numbers: one past 2^53 could not be kept exactly.
const countable = (n: number): boolean => Number.isSafeInteger(n);

/** The spec's rules: no storable time, a NaN or infinite value, or histogram buckets that do not fit their bounds. */
export function pointProblem(row: DataPointRow): string | undefined {
  if (row.timeUnixNano === 0n) return 'no time';
  switch (row.kind) {
    case 'number':
      return typeof row.value === 'number' && !Number.isFinite(row.value) ? 'value is NaN or infinite' : undefined;
    case 'histogram':
      if (!finite(row.sum)) return 'sum is NaN or infinite';
      if (!countable(row.count) || !row.bucketCounts.every(countable)) return 'a count is beyond 2^53';
      // A histogram may carry no buckets at all (count and sum only); with buckets there is one more than bounds.
      if ((row.bucketCounts.length > 0 || row.explicitBounds.length > 0) && row.bucketCounts.length !== row.explicitBounds.length + 1) {
        return 'bucket counts do not match bounds';
      }
      return undefined;
    case 'exponential_histogram':
      if (!finite(row.sum)) return 'sum is NaN or infinite';
      if (!Number.isFinite(row.zeroThreshold)) return 'zero threshold is NaN or infinite';
      if (![row.count, row.zeroCount, ...row.positive.bucketCounts, ...row.negative.bucketCounts].every(countable)) return 'a count is beyond 2^53';
      return undefined;
    case 'summary':
      if (!Number.isFinite(row.sum)) return 'sum is NaN or infinite';
      if (!countable(row.count)) return 'count is beyond 2^53';
      return row.quantiles.every((q) => Number.isFinite(q.value) && Number.isFinite(q.quantile)) ? undefined : 'quantile value is NaN or infinite';
  }
}
