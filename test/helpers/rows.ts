// Small, fully specified batches for tests.
import { newAttributes, withAttributes, type AnyValue, type Attributes } from '../../src/model/anyvalue.js';
import { batchOf, type Batch, type RowOf } from '../../src/model/batch.js';
import type { Signal } from '../../src/model/signal.js';
import type { LogRow } from '../../src/model/logs.js';
import type { DataPointRow, Metric } from '../../src/model/metrics.js';
import type { Resource, Scope } from '../../src/model/resource.js';
import type { SpanRow } from '../../src/model/traces.js';

export function attrs(values: Record<string, AnyValue>): Attributes {
  return Object.assign(newAttributes(), values);
}

export const T0 = 1_700_000_000_123_456_789n;
/** When the test batches were received: 5 ms after T0. */
export const RECEIVED = T0 + 5_000_000n;

export function resource(service = 'checkout'): Resource {
  return { attributes: attrs({ 'service.name': service, 'host.name': 'web-1' }), droppedAttributesCount: 0, schemaUrl: '' };
}

export function scope(name = 'app.logger'): Scope {
  return { name, version: '1.2.0', attributes: attrs({}), droppedAttributesCount: 0, schemaUrl: '' };
}

export function logRow(i: number, res = resource(), sc = scope()): LogRow {
  return {
    resource: res,
    scope: sc,
    timeUnixNano: T0 + BigInt(i),
    observedTimeUnixNano: T0 + 1_000n,
    severityNumber: 9,
    severityText: 'INFO',
    body: `order ${i} placed`,
    attributes: attrs({ 'order.id': BigInt(1000 + i), amount: 12.5, paid: true }),
    droppedAttributesCount: 0,
    flags: 1,
    traceId: '5b8efff798038103d269b633813fc60c',
    spanId: 'eee19b7ec3c1b174',
    eventName: '',
  };
}

/**
 * `batch` as a receiver hands on what it decoded: exclusive, with rows and attribute maps of its
 * own (a copy of each), for a processor to change in place.
 */
export function exclusiveCopy<S extends Signal>(batch: Batch<S>): Batch<S> {
  const rows = (batch.rows as readonly RowOf<S>[]).map((row) => ({ ...row, attributes: withAttributes(row.attributes) }));
  return batchOf(batch.signal as S, batch.project, batch.receivedUnixNano, rows, true);
}

export function logBatch(count: number, project = 'default'): Batch<'logs'> {
  const res = resource();
  const sc = scope();
  return { signal: 'logs', project, receivedUnixNano: RECEIVED, exclusive: false, rows: Array.from({ length: count }, (_, i) => logRow(i, res, sc)) };
}

export function spanBatch(project = 'default'): Batch<'traces'> {
  const row: SpanRow = {
    resource: resource(),
    scope: scope('app.tracer'),
    traceId: '5b8efff798038103d269b633813fc60c',
    spanId: 'eee19b7ec3c1b174',
    parentSpanId: '',
    traceState: '',
    flags: 1,
    name: 'POST /orders',
    kind: 2,
    startTimeUnixNano: T0,
    endTimeUnixNano: T0 + 2_500_000n,
    attributes: attrs({ 'http.response.status_code': 201n }),
    droppedAttributesCount: 0,
    events: [{ timeUnixNano: T0 + 1_000_000n, name: 'validated', attributes: attrs({ rules: 3n }), droppedAttributesCount: 0 }],
    droppedEventsCount: 0,
    links: [],
    droppedLinksCount: 0,
    statusCode: 1,
    statusMessage: '',
  };
  return { signal: 'traces', project, receivedUnixNano: RECEIVED, exclusive: false, rows: [row] };
}

export function metricBatch(project = 'default'): Batch<'metrics'> {
  const res = resource();
  const sc = scope('app.meter');
  const counter: Metric = { name: 'orders', description: 'Orders placed', unit: '1', type: 'sum', temporality: 2, isMonotonic: true, metadata: attrs({}) };
  const latency: Metric = { name: 'latency', description: 'Request latency', unit: 'ms', type: 'histogram', temporality: 2, isMonotonic: false, metadata: attrs({}) };
  const base = { resource: res, scope: sc, startTimeUnixNano: T0, timeUnixNano: T0 + 60_000_000_000n, flags: 0, exemplars: [] };
  const rows: DataPointRow[] = [
    { ...base, metric: counter, kind: 'number', attributes: attrs({ region: 'eu' }), value: 42n },
    {
      ...base,
      metric: latency,
      kind: 'histogram',
      attributes: attrs({}),
      count: 6,
      sum: 301.5,
      min: 1,
      max: 200,
      bucketCounts: [1, 3, 2],
      explicitBounds: [10, 100],
    },
  ];
  return { signal: 'metrics', project, receivedUnixNano: RECEIVED, exclusive: false, rows };
}

/**
 * One metric of every kind, in one resource and scope: `orders` (a monotonic cumulative int sum,
 * points in eu and us), `cpu` (a double gauge), `latency` (a histogram), `sizes` (an exponential
 * histogram) and `rpc` (a summary), each Metric shared by its points as a decoder shares it.
 */
export function metricKindsBatch(project = 'default'): Batch<'metrics'> {
  const res = resource();
  const sc = scope('app.meter');
  const metric = (name: string, type: Metric['type'], temporality: number, isMonotonic = false): Metric => ({ name, description: `${name} of the app`, unit: name === 'latency' ? 'ms' : '1', type, temporality, isMonotonic, metadata: attrs({}) });
  const base = { resource: res, scope: sc, startTimeUnixNano: T0, timeUnixNano: T0 + 60_000_000_000n, flags: 0, exemplars: [] };
  const orders = metric('orders', 'sum', 2, true);
  const exemplar = { timeUnixNano: T0 + 1n, value: 3n, filteredAttributes: attrs({}), traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b174' };
  const rows: DataPointRow[] = [
    { ...base, metric: orders, kind: 'number', attributes: attrs({ region: 'eu' }), value: 42n, exemplars: [exemplar] },
    { ...base, metric: orders, kind: 'number', attributes: attrs({ region: 'us', tier: 2n }), value: 7n },
    { ...base, metric: metric('cpu', 'gauge', 0), kind: 'number', attributes: attrs({ core: 0n }), value: 0.25 },
    { ...base, metric: metric('latency', 'histogram', 1), kind: 'histogram', attributes: attrs({ route: '/cart' }), count: 6, sum: 301.5, min: 1, max: 200, bucketCounts: [1, 3, 2], explicitBounds: [10, 100] },
    {
      ...base,
      metric: metric('sizes', 'exponential_histogram', 2),
      kind: 'exponential_histogram',
      attributes: attrs({}),
      count: 5,
      sum: undefined,
      min: undefined,
      max: undefined,
      scale: 3,
      zeroCount: 1,
      zeroThreshold: 0,
      positive: { offset: -2, bucketCounts: [1, 2] },
      negative: { offset: 0, bucketCounts: [1] },
    },
    { ...base, metric: metric('rpc', 'summary', 0), kind: 'summary', attributes: attrs({}), count: 4, sum: 10, quantiles: [{ quantile: 0.5, value: 2 }, { quantile: 0.99, value: 4 }] },
  ];
  return { signal: 'metrics', project, receivedUnixNano: RECEIVED, exclusive: false, rows };
}
