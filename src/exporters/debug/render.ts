// Text renderings of a batch for the debug exporter, after the Collector's normal and detailed marshalers.
import type { AnyValue, Attributes } from '../../model/anyvalue.js';
import type { Batch } from '../../model/batch.js';
import { groupRows } from '../../model/group.js';
import type { LogRow } from '../../model/logs.js';
import type { DataPointRow } from '../../model/metrics.js';
import type { Resource, Scope } from '../../model/resource.js';
import type { SpanRow } from '../../model/traces.js';

type Row = LogRow | SpanRow | DataPointRow;

function plain(value: AnyValue): string {
  if (typeof value === 'string') return value;
  if (value === null) return '';
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? Buffer.from(v).toString('base64') : v));
}

function typed(value: AnyValue): string {
  if (value === null) return 'Empty()';
  if (typeof value === 'string') return `Str(${value})`;
  if (typeof value === 'boolean') return `Bool(${value})`;
  if (typeof value === 'bigint') return `Int(${value})`;
  if (typeof value === 'number') return `Double(${value})`;
  if (value instanceof Uint8Array) return `Bytes(${Buffer.from(value).toString('base64')})`;
  if (Array.isArray(value)) return `Slice(${plain(value)})`;
  return `Map(${plain(value)})`;
}

function inline(attributes: Attributes): string {
  return Object.entries(attributes)
    .map(([k, v]) => `${k}=${plain(v)}`)
    .join(' ');
}

function block(title: string, attributes: Attributes, lines: string[], indent = ''): void {
  const entries = Object.entries(attributes);
  if (entries.length === 0) return;
  lines.push(`${indent}${title}:`);
  for (const [k, v] of entries) lines.push(`${indent}     -> ${k}: ${typed(v)}`);
}

/** `2020-02-11 20:26:13.000000789 +0000 UTC`, as the Collector prints a timestamp. */
export function formatTime(ns: bigint): string {
  const seconds = ns / 1_000_000_000n;
  const fraction = (ns % 1_000_000_000n).toString().padStart(9, '0');
  const iso = new Date(Number(seconds) * 1000).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${fraction} +0000 UTC`;
}

const SEVERITY_NAMES = ['Trace', 'Debug', 'Info', 'Warn', 'Error', 'Fatal'];

function severityName(n: number): string {
  if (n < 1 || n > 24) return `Unspecified(${n})`;
  const step = (n - 1) % 4;
  return `${SEVERITY_NAMES[Math.floor((n - 1) / 4)]}${step === 0 ? '' : step + 1}(${n})`;
}

function pointValue(point: DataPointRow): string {
  switch (point.kind) {
    case 'number':
      return String(point.value);
    case 'summary':
      return `count=${point.count} sum=${point.sum} ${point.quantiles.map((q) => `q${q.quantile}=${q.value}`).join(' ')}`.trim();
    default:
      return `count=${point.count} sum=${point.sum ?? ''}`;
  }
}

function resourceHeader(title: string, index: number, resource: Resource, normal: boolean, lines: string[]): void {
  if (normal) {
    lines.push(`${title} #${index}${resource.schemaUrl ? ` [${resource.schemaUrl}]` : ''} ${inline(resource.attributes)}`.trimEnd());
    return;
  }
  lines.push(`${title} #${index}`, `Resource SchemaURL: ${resource.schemaUrl}`);
  block('Resource attributes', resource.attributes, lines);
}

function scopeHeader(title: string, index: number, scope: Scope, normal: boolean, lines: string[]): void {
  if (normal) {
    const name = scope.version ? `${scope.name}@${scope.version}` : scope.name;
    lines.push(`${title} #${index} ${name}${scope.schemaUrl ? ` [${scope.schemaUrl}]` : ''} ${inline(scope.attributes)}`.trimEnd());
    return;
  }
  lines.push(`${title} #${index}`, `${title} SchemaURL: ${scope.schemaUrl}`, `InstrumentationScope ${scope.name} ${scope.version}`.trimEnd());
  block('InstrumentationScope attributes', scope.attributes, lines);
}

function logLines(row: LogRow, index: number, normal: boolean, lines: string[]): void {
  if (normal) {
    lines.push(`${plain(row.body)} ${inline(row.attributes)}`.trimEnd());
    return;
  }
  lines.push(
    `LogRecord #${index}`,
    `ObservedTimestamp: ${formatTime(row.observedTimeUnixNano)}`,
    `Timestamp: ${formatTime(row.timeUnixNano)}`,
    `SeverityText: ${row.severityText}`,
    `SeverityNumber: ${severityName(row.severityNumber)}`,
  );
  if (row.eventName) lines.push(`EventName: ${row.eventName}`);
  lines.push(`Body: ${typed(row.body)}`);
  block('Attributes', row.attributes, lines);
  lines.push(`Trace ID: ${row.traceId}`, `Span ID: ${row.spanId}`, `Flags: ${row.flags}`);
}

const SPAN_KINDS = ['Unspecified', 'Internal', 'Server', 'Client', 'Producer', 'Consumer'];
const STATUS_CODES = ['Unset', 'Ok', 'Error'];

function spanLines(row: SpanRow, index: number, normal: boolean, lines: string[]): void {
  if (normal) {
    lines.push(`${row.name} ${row.traceId} ${row.spanId} ${inline(row.attributes)}`.trimEnd());
    return;
  }
  lines.push(
    `Span #${index}`,
    `    Trace ID       : ${row.traceId}`,
    `    Parent ID      : ${row.parentSpanId}`,
    `    ID             : ${row.spanId}`,
    `    Name           : ${row.name}`,
    `    Kind           : ${SPAN_KINDS[row.kind] ?? row.kind}`,
    `    Start time     : ${formatTime(row.startTimeUnixNano)}`,
    `    End time       : ${formatTime(row.endTimeUnixNano)}`,
    `    Status code    : ${STATUS_CODES[row.statusCode] ?? row.statusCode}`,
    `    Status message : ${row.statusMessage}`,
  );
  block('Attributes', row.attributes, lines);
  row.events.forEach((event, i) => {
    lines.push(`SpanEvent #${i}`, `     -> Name: ${event.name}`, `     -> Timestamp: ${formatTime(event.timeUnixNano)}`);
    block('-> Attributes', event.attributes, lines, '     ');
  });
  row.links.forEach((link, i) => {
    lines.push(`SpanLink #${i}`, `     -> Trace ID: ${link.traceId}`, `     -> ID: ${link.spanId}`);
    block('-> Attributes', link.attributes, lines, '     ');
  });
}

function pointLines(row: DataPointRow, index: number, normal: boolean, lines: string[]): void {
  const { metric } = row;
  if (normal) {
    const attributes = inline(row.attributes);
    lines.push(`${metric.name}${attributes ? `{${attributes.replaceAll(' ', ',')}}` : ''} ${pointValue(row)}`);
    return;
  }
  lines.push(
    `DataPoint #${index}`,
    `     -> Name: ${metric.name}`,
    `     -> Description: ${metric.description}`,
    `     -> Unit: ${metric.unit}`,
    `     -> DataType: ${metric.type}`,
  );
  if (metric.type === 'sum') lines.push(`     -> IsMonotonic: ${metric.isMonotonic}`);
  if (metric.temporality !== 0) lines.push(`     -> AggregationTemporality: ${metric.temporality === 1 ? 'Delta' : 'Cumulative'}`);
  block('Data point attributes', row.attributes, lines);
  lines.push(`StartTimestamp: ${formatTime(row.startTimeUnixNano)}`, `Timestamp: ${formatTime(row.timeUnixNano)}`);
  switch (row.kind) {
    case 'number':
      lines.push(`Value: ${row.value}`);
      break;
    case 'histogram':
      lines.push(`Count: ${row.count}`, `Sum: ${row.sum ?? ''}`);
      row.explicitBounds.forEach((bound, i) => lines.push(`ExplicitBounds #${i}: ${bound}`));
      row.bucketCounts.forEach((count, i) => lines.push(`Buckets #${i}, Count: ${count}`));
      break;
    case 'exponential_histogram':
      lines.push(`Count: ${row.count}`, `Sum: ${row.sum ?? ''}`, `Scale: ${row.scale}`, `ZeroCount: ${row.zeroCount}`);
      break;
    case 'summary':
      lines.push(`Count: ${row.count}`, `Sum: ${row.sum}`);
      row.quantiles.forEach((q, i) => lines.push(`QuantileValue #${i}: Quantile ${q.quantile}, Value ${q.value}`));
      break;
  }
}

const TITLES = {
  logs: ['ResourceLog', 'ScopeLogs'],
  traces: ['ResourceSpans', 'ScopeSpans'],
  metrics: ['ResourceMetrics', 'ScopeMetrics'],
} as const;

/** The batch as text, one line per record (normal) or every field (detailed). */
export function renderBatch(batch: Batch, verbosity: 'normal' | 'detailed'): string {
  const normal = verbosity === 'normal';
  const lines: string[] = [];
  const [resourceTitle, scopeTitle] = TITLES[batch.signal];
  let r = 0;
  for (const [resource, scopes] of groupRows<Row>(batch.rows)) {
    resourceHeader(resourceTitle, r++, resource, normal, lines);
    let s = 0;
    for (const [scope, rows] of scopes) {
      scopeHeader(scopeTitle, s++, scope, normal, lines);
      rows.forEach((row, i) => {
        if (batch.signal === 'logs') logLines(row as LogRow, i, normal, lines);
        else if (batch.signal === 'traces') spanLines(row as SpanRow, i, normal, lines);
        else pointLines(row as DataPointRow, i, normal, lines);
      });
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The counts the Collector's debug exporter logs for every batch at basic verbosity. */
export function batchCounts(batch: Batch): Record<string, number> {
  const groups = groupRows<Row>(batch.rows);
  switch (batch.signal) {
    case 'logs':
      return { 'resource logs': groups.size, 'log records': batch.rows.length };
    case 'traces':
      return { 'resource spans': groups.size, spans: batch.rows.length };
    case 'metrics': {
      const metrics = new Set(batch.rows.map((row) => row.metric));
      return { 'resource metrics': groups.size, metrics: metrics.size, 'data points': batch.rows.length };
    }
  }
}

