// The data the viewer's end-to-end tests browse (test/helpers/viewer.ts sends it): logs of every
// severity band from two services, a trace of four spans three levels deep across both services
// with one error span (its spans with attributes, events, and a link to the one-span trace beside
// it), a gauge, a monotonic cumulative sum in two series and a histogram, and three Sentry error
// events in two groups; one log in another project.
// Times are milliseconds before the moment the data is sent (`agoMs`), all within the last ten
// minutes, so that every view's default range shows them; tests assert these exact values.
import { envelope } from './sentry.js';

export const PROJECT = 'shop';
export const OTHER_PROJECT = 'other';

export const WEB = 'web';
export const CHECKOUT = 'checkout';
/** Sorted, as the read API lists services. */
export const SERVICES = [CHECKOUT, WEB] as const;

/** A time of the dataset, in nanoseconds since the epoch as the read API writes it, from the moment it was sent. */
export const nanosAt = (now: number, agoMs: number): string => String(BigInt(now - agoMs) * 1_000_000n);

// ---- the trace ----

export const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
/** When the trace starts. */
const TRACE_AGO = 240_000;

export interface DatasetSpan {
  spanId: string;
  parentSpanId: string;
  name: string;
  service: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  startAgoMs: number;
  endAgoMs: number;
  status: { code: number; message?: string };
  /** Nesting: 1 for the root. */
  depth: number;
  /** As OTLP JSON sends them: strings, and integers as numbers. */
  attributes?: Record<string, string | number>;
  events?: readonly DatasetSpanEvent[];
  links?: readonly DatasetSpanLink[];
}

export interface DatasetSpanEvent {
  name: string;
  agoMs: number;
  attributes?: Record<string, string | number>;
}

export interface DatasetSpanLink {
  traceId: string;
  spanId: string;
  traceState?: string;
  attributes?: Record<string, string | number>;
}

/** A second trace, of one span, with no error: quick and ok. */
export const HEALTH_TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
export const HEALTH_SPAN: DatasetSpan = { spanId: 'e457b5a2e4d86bd1', parentSpanId: '', name: 'GET /health', service: WEB, kind: 2, startAgoMs: 90_000, endAgoMs: 89_995, status: { code: 1 }, depth: 1 };

export const ROOT_SPAN: DatasetSpan = {
  spanId: 'b7ad6b7169203331',
  parentSpanId: '',
  name: 'GET /checkout',
  service: WEB,
  kind: 2,
  startAgoMs: TRACE_AGO,
  endAgoMs: TRACE_AGO - 400,
  status: { code: 0 },
  depth: 1,
  attributes: { 'http.request.method': 'GET', 'http.route': '/checkout', 'http.response.status_code': 402 },
};
export const CLIENT_SPAN: DatasetSpan = {
  spanId: '00f067aa0ba902b7',
  parentSpanId: ROOT_SPAN.spanId,
  name: 'POST /charge',
  service: WEB,
  kind: 3,
  startAgoMs: TRACE_AGO - 50,
  endAgoMs: TRACE_AGO - 350,
  status: { code: 0 },
  depth: 2,
};
export const ERROR_SPAN: DatasetSpan = {
  spanId: '53995c3f42cd8ad8',
  parentSpanId: CLIENT_SPAN.spanId,
  name: 'charge card',
  service: CHECKOUT,
  kind: 2,
  startAgoMs: TRACE_AGO - 60,
  endAgoMs: TRACE_AGO - 340,
  status: { code: 2, message: 'card declined' },
  depth: 3,
  attributes: { 'payment.method': 'card', 'payment.amount_cents': 4999 },
  events: [
    { name: 'card.authorize', agoMs: TRACE_AGO - 70, attributes: { attempt: 1 } },
    { name: 'card.declined', agoMs: TRACE_AGO - 250, attributes: { 'decline.code': 'insufficient_funds', attempt: 1 } },
  ],
};
export const RENDER_SPAN: DatasetSpan = {
  spanId: '8a3c60f7d188f8fa',
  parentSpanId: ROOT_SPAN.spanId,
  name: 'render receipt',
  service: WEB,
  kind: 1,
  startAgoMs: TRACE_AGO - 360,
  endAgoMs: TRACE_AGO - 395,
  status: { code: 0 },
  depth: 2,
  // To the other trace, so that a link leads somewhere stored.
  links: [{ traceId: HEALTH_TRACE_ID, spanId: HEALTH_SPAN.spanId, traceState: 'shop=1', attributes: { 'link.reason': 'template warmed by' } }],
};
/** The trace's spans, parents before children. */
export const TRACE_SPANS = [ROOT_SPAN, CLIENT_SPAN, ERROR_SPAN, RENDER_SPAN] as const;

/** What the read API's trace_summaries says of the trace. */
export const TRACE = {
  id: TRACE_ID,
  rootName: ROOT_SPAN.name,
  rootService: WEB,
  spanCount: 4,
  errorCount: 1,
  services: [CHECKOUT, WEB],
  durationMs: 400,
  depth: 3,
} as const;

// ---- logs ----

export interface DatasetLog {
  body: string;
  severityNumber: number;
  severityText: string;
  service: string;
  agoMs: number;
  traceId?: string;
  spanId?: string;
  /** As OTLP JSON sends them: strings, and user.id an integer. */
  attributes?: Record<string, string | number>;
}

/** The OTLP logs of the project, oldest first. */
export const LOGS: readonly DatasetLog[] = [
  { body: 'cache warmed: 120 entries', severityNumber: 5, severityText: 'DEBUG', service: WEB, agoMs: 480_000 },
  { body: 'user 42 signed in', severityNumber: 9, severityText: 'INFO', service: WEB, agoMs: 420_000, attributes: { 'user.id': 42 } },
  { body: 'charge(): entering', severityNumber: 1, severityText: 'TRACE', service: CHECKOUT, agoMs: 360_000 },
  {
    body: 'GET /checkout started',
    severityNumber: 9,
    severityText: 'INFO',
    service: WEB,
    agoMs: TRACE_AGO,
    traceId: TRACE_ID,
    spanId: ROOT_SPAN.spanId,
    attributes: { 'http.route': '/checkout', 'http.request.method': 'GET' },
  },
  { body: 'card declined by the issuer', severityNumber: 17, severityText: 'ERROR', service: CHECKOUT, agoMs: TRACE_AGO - 250, traceId: TRACE_ID, spanId: ERROR_SPAN.spanId },
  { body: 'payment failed: card declined', severityNumber: 17, severityText: 'ERROR', service: WEB, agoMs: TRACE_AGO - 300, traceId: TRACE_ID, spanId: CLIENT_SPAN.spanId },
  { body: 'checkout is slow to answer', severityNumber: 13, severityText: 'WARN', service: WEB, agoMs: TRACE_AGO - 350, traceId: TRACE_ID, spanId: CLIENT_SPAN.spanId },
  { body: 'order 1001 created', severityNumber: 9, severityText: 'INFO', service: CHECKOUT, agoMs: 180_000 },
  { body: 'worker crashed: out of memory', severityNumber: 21, severityText: 'FATAL', service: CHECKOUT, agoMs: 120_000 },
];

// ---- Sentry error events (log rows with exception.* attributes) ----

export interface DatasetError {
  type: string;
  message: string;
  /** The function of the stack's one frame. */
  frame: string;
  agoMs: number;
}

export const ERROR_EVENTS: readonly DatasetError[] = [
  { type: 'TypeError', message: 'x is undefined', frame: 'renderCart', agoMs: 360_000 },
  { type: 'RangeError', message: 'Invalid array length', frame: 'paginate', agoMs: 300_000 },
  { type: 'TypeError', message: 'x is undefined', frame: 'renderCart', agoMs: 150_000 },
];

/** The read API's error_groups, most first: (type, message), count, the events' indexes in ERROR_EVENTS. */
export const ERROR_GROUPS = [
  { type: 'TypeError', message: 'x is undefined', count: 2, services: [WEB], events: [0, 2] },
  { type: 'RangeError', message: 'Invalid array length', count: 1, services: [WEB], events: [1] },
] as const;

/** What the Sentry path makes the body of an error event's log row: "Type: message". */
export const errorBody = (error: DatasetError): string => `${error.type}: ${error.message}`;

// ---- metrics ----

export interface DatasetPoint {
  agoMs: number;
  value: number;
}

export const GAUGE = {
  name: 'process.memory.usage',
  unit: 'By',
  description: 'Memory in use',
  service: WEB,
  points: [
    { agoMs: 300_000, value: 52_428_800 },
    { agoMs: 240_000, value: 57_671_680 },
    { agoMs: 180_000, value: 55_574_528 },
  ] satisfies DatasetPoint[],
};

const SUM_TIMES = [300_000, 240_000, 180_000, 120_000, 60_000];
export const SUM = {
  name: 'http.server.requests',
  unit: '{request}',
  description: 'Requests served',
  service: WEB,
  /** Cumulative, counted from this moment. */
  startAgoMs: 360_000,
  /** By the series' http.route, in the read API's order of series (the attributes' JSON text). */
  series: [
    { attributes: { 'http.route': '/cart' }, points: [5, 7, 12, 20, 21].map((value, i) => ({ agoMs: SUM_TIMES[i] as number, value })) },
    { attributes: { 'http.route': '/checkout' }, points: [10, 25, 40, 60, 85].map((value, i) => ({ agoMs: SUM_TIMES[i] as number, value })) },
  ],
};

export const HISTOGRAM = {
  name: 'http.server.request.duration',
  unit: 'ms',
  description: 'Time to answer a request',
  service: CHECKOUT,
  startAgoMs: 360_000,
  bounds: [10, 50, 100, 500],
  points: [
    { agoMs: 240_000, count: 10, sum: 1234.5, min: 3, max: 420, bucketCounts: [2, 3, 3, 1, 1] },
    { agoMs: 120_000, count: 25, sum: 3010, min: 3, max: 610, bucketCounts: [5, 8, 7, 3, 2] },
  ],
};

/** Sorted by name, as metric_names lists them. */
export const METRIC_NAMES = [SUM.name, HISTOGRAM.name, GAUGE.name].sort();

// ---- the other project ----

export const OTHER_LOG = { body: 'invoice 7 sent', severityNumber: 9, severityText: 'INFO', service: 'billing', agoMs: 200_000 } as const;

/** The rows the read API answers for the project (and for the other one). */
export const COUNTS = {
  logs: LOGS.length + ERROR_EVENTS.length,
  spans: [...TRACE_SPANS, HEALTH_SPAN].length,
  metricPoints: GAUGE.points.length + SUM.series.reduce((n, series) => n + series.points.length, 0) + HISTOGRAM.points.length,
  otherLogs: 1,
} as const;

/** Log rows by severity band, Sentry's error events (level error, 17) included. */
export const SEVERITY_COUNTS = { unspecified: 0, trace: 1, debug: 1, info: 3, warn: 1, error: 2 + ERROR_EVENTS.length, fatal: 1 } as const;

// ---- as sent ----

const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
const attributesOf = (attributes: Record<string, string | number> = {}) =>
  Object.entries(attributes).map(([key, value]) => (typeof value === 'number' ? { key, value: { intValue: String(value) } } : str(key, value)));
const resourceOf = (service: string) => ({ attributes: [str('service.name', service)] });

function logRecord(now: number, log: DatasetLog) {
  return {
    timeUnixNano: nanosAt(now, log.agoMs),
    severityNumber: log.severityNumber,
    severityText: log.severityText,
    body: { stringValue: log.body },
    attributes: attributesOf(log.attributes),
    ...(log.traceId === undefined ? {} : { traceId: log.traceId, spanId: log.spanId }),
  };
}

/** An OTLP JSON logs export of `logs`, one resource per service. */
export function logsExport(now: number, logs: readonly DatasetLog[]) {
  const services = [...new Set(logs.map((log) => log.service))];
  return {
    resourceLogs: services.map((service) => ({
      resource: resourceOf(service),
      scopeLogs: [{ scope: { name: `shop.${service}` }, logRecords: logs.filter((log) => log.service === service).map((log) => logRecord(now, log)) }],
    })),
  };
}

function span(now: number, traceId: string, s: DatasetSpan) {
  return {
    traceId,
    spanId: s.spanId,
    ...(s.parentSpanId === '' ? {} : { parentSpanId: s.parentSpanId }),
    name: s.name,
    kind: s.kind,
    startTimeUnixNano: nanosAt(now, s.startAgoMs),
    endTimeUnixNano: nanosAt(now, s.endAgoMs),
    status: s.status,
    attributes: attributesOf(s.attributes),
    events: (s.events ?? []).map((e) => ({ timeUnixNano: nanosAt(now, e.agoMs), name: e.name, attributes: attributesOf(e.attributes) })),
    links: (s.links ?? []).map((l) => ({ traceId: l.traceId, spanId: l.spanId, ...(l.traceState === undefined ? {} : { traceState: l.traceState }), attributes: attributesOf(l.attributes) })),
  };
}

export function tracesExport(now: number) {
  const spans = [...TRACE_SPANS.map((s) => ({ traceId: TRACE_ID, s })), { traceId: HEALTH_TRACE_ID, s: HEALTH_SPAN }];
  return {
    resourceSpans: [WEB, CHECKOUT].map((service) => ({
      resource: resourceOf(service),
      scopeSpans: [{ scope: { name: `shop.${service}` }, spans: spans.filter(({ s }) => s.service === service).map(({ traceId, s }) => span(now, traceId, s)) }],
    })),
  };
}

export function metricsExport(now: number) {
  const gauge = {
    name: GAUGE.name,
    unit: GAUGE.unit,
    description: GAUGE.description,
    gauge: { dataPoints: GAUGE.points.map((p) => ({ timeUnixNano: nanosAt(now, p.agoMs), asInt: String(p.value) })) },
  };
  const sum = {
    name: SUM.name,
    unit: SUM.unit,
    description: SUM.description,
    sum: {
      aggregationTemporality: 2,
      isMonotonic: true,
      dataPoints: SUM.series.flatMap((series) =>
        series.points.map((p) => ({ attributes: attributesOf(series.attributes), startTimeUnixNano: nanosAt(now, SUM.startAgoMs), timeUnixNano: nanosAt(now, p.agoMs), asInt: String(p.value) })),
      ),
    },
  };
  const histogram = {
    name: HISTOGRAM.name,
    unit: HISTOGRAM.unit,
    description: HISTOGRAM.description,
    histogram: {
      aggregationTemporality: 2,
      dataPoints: HISTOGRAM.points.map((p) => ({
        startTimeUnixNano: nanosAt(now, HISTOGRAM.startAgoMs),
        timeUnixNano: nanosAt(now, p.agoMs),
        count: String(p.count),
        sum: p.sum,
        min: p.min,
        max: p.max,
        bucketCounts: p.bucketCounts.map(String),
        explicitBounds: HISTOGRAM.bounds,
      })),
    },
  };
  return {
    resourceMetrics: [
      { resource: resourceOf(WEB), scopeMetrics: [{ scope: { name: 'shop.web' }, metrics: [gauge, sum] }] },
      { resource: resourceOf(CHECKOUT), scopeMetrics: [{ scope: { name: 'shop.checkout' }, metrics: [histogram] }] },
    ],
  };
}

/** One error event as a browser SDK sends it: an envelope of one event item. */
export function errorEnvelope(now: number, error: DatasetError): Buffer {
  const eventId = crypto.randomUUID().replaceAll('-', '');
  const event = {
    event_id: eventId,
    timestamp: (now - error.agoMs) / 1000,
    platform: 'javascript',
    level: 'error',
    tags: { 'service.name': WEB },
    exception: { values: [{ type: error.type, value: error.message, stacktrace: { frames: [{ function: error.frame, filename: '/app.js', lineno: 12, colno: 5 }] } }] },
  };
  return envelope({ event_id: eventId, sent_at: new Date(now).toISOString() }, { header: { type: 'event' }, payload: event });
}
