// The benchmark's request bodies: realistic records (about 60-byte bodies, 3-5 attributes varying by record, trace
// and span ids, one resource with 4 attributes), built once as OTLP JSON and encoded to protobuf
// with protobufjs, the reference codec.
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

const root = protobuf.loadSync(fileURLToPath(new URL('../proto/otlp.proto', import.meta.url)));
export const REQUEST_TYPES = {
  logs: root.lookupType('opentelemetry.proto.ExportLogsServiceRequest'),
  traces: root.lookupType('opentelemetry.proto.ExportTraceServiceRequest'),
  metrics: root.lookupType('opentelemetry.proto.ExportMetricsServiceRequest'),
};

// A fixed pseudo-random sequence, so every run sends the same bytes.
let seed = 42;
const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const hex = (bytes) => Array.from({ length: bytes }, () => Math.floor(random() * 256).toString(16).padStart(2, '0')).join('');

const str = (key, value) => ({ key, value: { stringValue: value } });
const int = (key, value) => ({ key, value: { intValue: String(value) } });
const dbl = (key, value) => ({ key, value: { doubleValue: value } });
const bool = (key, value) => ({ key, value: { boolValue: value } });

const RESOURCE = { attributes: [str('service.name', 'checkout'), str('service.version', '1.4.2'), str('host.name', 'web-7f9c4d-x2kq'), str('deployment.environment', 'production')] };
const SCOPE = { name: 'com.example.checkout', version: '1.4.2' };
const MESSAGES = ['user signed in from a new device; session token issued', 'payment authorised for order, awaiting capture by provider', 'cache miss for product listing page, fetched from origin db', 'rate limit nearly reached for api key, 90 percent of quota'];
/**
 * Every time in a body lies in [T0, T0 + 2^32 ns), so the load generator can find and move them all
 * to the present for each request: a store sees times that advance, as in real traffic, instead of
 * the same thousand times again and again (which would make every index insert land mid-tree).
 */
export const T0 = 1_763_800_000_000_000_000n;
export const TIME_SPAN = 2n ** 32n;

function logRecord(i) {
  return {
    timeUnixNano: String(T0 + BigInt(i) * 1000n),
    observedTimeUnixNano: String(T0 + BigInt(i) * 1000n + 500n),
    severityNumber: 9,
    severityText: 'INFO',
    body: { stringValue: `${MESSAGES[i % 4]} #${i}` },
    // 3 to 5 attributes, as records of one service have: the optional ones vary from record to record.
    attributes: [
      str('http.request.method', 'GET'),
      str('url.path', `/api/orders/${i}`),
      int('http.response.status_code', i % 5 === 4 ? 404 : 200),
      ...(i % 3 === 0 ? [] : [dbl('duration_ms', 12.5 + (i % 7))]),
      ...(i % 5 === 4 ? [str('error.type', 'not_found')] : []),
    ],
    traceId: hex(16),
    spanId: hex(8),
    flags: 1,
  };
}

function span(i) {
  return {
    traceId: hex(16),
    spanId: hex(8),
    parentSpanId: hex(8),
    name: `GET /api/orders/{id}`,
    kind: 2,
    startTimeUnixNano: String(T0 + BigInt(i) * 1000n),
    endTimeUnixNano: String(T0 + BigInt(i) * 1000n + 12_000_000n),
    attributes: [str('http.request.method', 'GET'), str('url.path', `/api/orders/${i}`), int('http.response.status_code', 200), str('server.address', 'checkout.internal'), bool('error', false)],
    events: [{ timeUnixNano: String(T0 + BigInt(i) * 1000n + 1_000_000n), name: 'cache.miss', attributes: [str('cache.key', `order:${i}`)] }],
    status: { code: 1 },
  };
}

function metrics(points) {
  // A mix of gauges, sums and histograms, 10 points per metric, until `points` data points.
  const list = [];
  for (let m = 0; list.reduce((n, x) => n + x.points, 0) < points; m++) {
    const n = Math.min(10, points - list.reduce((k, x) => k + x.points, 0));
    const attrs = (p) => [str('http.route', `/api/r${p}`), str('http.request.method', 'GET'), int('shard', p)];
    const time = String(T0 + BigInt(m) * 1_000_000n);
    const start = String(T0);
    if (m % 3 === 0) list.push({ points: n, metric: { name: `queue.depth.${m}`, unit: '{job}', gauge: { dataPoints: Array.from({ length: n }, (_, p) => ({ timeUnixNano: time, asDouble: p * 1.5, attributes: attrs(p) })) } } });
    else if (m % 3 === 1) list.push({ points: n, metric: { name: `http.requests.${m}`, unit: '1', sum: { aggregationTemporality: 2, isMonotonic: true, dataPoints: Array.from({ length: n }, (_, p) => ({ startTimeUnixNano: start, timeUnixNano: time, asInt: String(1000 + p), attributes: attrs(p) })) } } });
    else list.push({ points: n, metric: { name: `http.duration.${m}`, unit: 'ms', histogram: { aggregationTemporality: 2, dataPoints: Array.from({ length: n }, (_, p) => ({ startTimeUnixNano: start, timeUnixNano: time, count: '10', sum: 123.5, bucketCounts: ['1', '2', '3', '4', '0'], explicitBounds: [5, 10, 25, 50], attributes: attrs(p) })) } } });
  }
  return list.map((x) => x.metric);
}

export function otlpJson(signal, records) {
  if (signal === 'logs') return { resourceLogs: [{ resource: RESOURCE, scopeLogs: [{ scope: SCOPE, logRecords: Array.from({ length: records }, (_, i) => logRecord(i)) }] }] };
  if (signal === 'traces') return { resourceSpans: [{ resource: RESOURCE, scopeSpans: [{ scope: SCOPE, spans: Array.from({ length: records }, (_, i) => span(i)) }] }] };
  return { resourceMetrics: [{ resource: RESOURCE, scopeMetrics: [{ scope: SCOPE, metrics: metrics(records) }] }] };
}

const ID_FIELDS = new Set(['traceId', 'spanId', 'parentSpanId']);
function forProtobufjs(value) {
  if (Array.isArray(value)) return value.map(forProtobufjs);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, ID_FIELDS.has(k) && typeof v === 'string' ? Buffer.from(v, 'hex') : forProtobufjs(v)]));
}

export function otlpProtobuf(signal, records) {
  const type = REQUEST_TYPES[signal];
  return Buffer.from(type.encode(type.fromObject(forProtobufjs(otlpJson(signal, records)))).finish());
}

export function simpleJson(records) {
  return Array.from({ length: records }, (_, i) => ({
    message: `${MESSAGES[i % 4]} #${i}`,
    level: 'info',
    timestamp: isoMicros(T0 + BigInt(i) * 1000n),
    service: 'checkout',
    context: { http: { method: 'GET', path: `/api/orders/${i}` }, status: 200 },
    trace_id: hex(16),
    span_id: hex(8),
  }));
}

export const gzip = (body) => gzipSync(body, { level: 1 });

/** ISO 8601 with microseconds, always 27 characters: what the load generator can rewrite in place. */
export function isoMicros(ns) {
  const ms = ns / 1_000_000n;
  return `${new Date(Number(ms)).toISOString().slice(0, 23)}${String((ns / 1000n) % 1000n).padStart(3, '0')}Z`;
}
