// The read API's aggregate paths for the web viewer (GET /api/v1/query/{log_counts,
// trace_summaries, metric_names, metric_series, error_groups}) over real HTTP against the built
// otelgate writing to the embedded store: every count, summary and series exactly, each filter,
// bucket edges at the nanosecond, ordering, every 400, the 401 of a key that may only send, and
// project isolation. The defaults of from and to are read through the same handler in this
// process, from the same store file, with a clock the test holds.
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presentedKey, type Authenticator } from '../../../src/auth/authenticator.js';
import { generateKey } from '../../../src/auth/key.js';
import { writeKeysFile } from '../../../src/auth/keysfile.js';
import { ReaderThread } from '../../../src/exporters/store/reader.js';
import type { Reader } from '../../../src/query/reader.js';
import { readHandler } from '../../../src/receivers/ingest/read.js';
import { startGateway, STORE_CONFIG, type Gateway } from '../../helpers/gateway.js';
import { memoryLogger } from '../../helpers/logger.js';
import { at, str, T0, TRACE_1, TRACE_2, TRACE_3, TRACE_A } from '../../helpers/query-fixture.js';
import { waitUntil } from '../../helpers/wait.js';

type Row = Record<string, unknown>;
interface Answer {
  status: number;
  body: { rows: Row[]; step_nano?: string; from?: string; to?: string; message?: string };
  text: string;
}

const SECOND = 1_000_000_000n;
/** The window most tests read: ten minutes from T0. */
const WINDOW = { from: String(T0), to: String(at(600)) };
const TRACE_V = '0af7651916cd43dd8448eb211c80319c';
const sid = (n: number): string => n.toString(16).padStart(16, '0');

// ---- logs: [service, time, severity number, body, attributes] ----
const exception = (type: string | undefined, message: string | undefined, stack?: string) => [
  ...(type === undefined ? [] : [str('exception.type', type)]),
  ...(message === undefined ? [] : [str('exception.message', message)]),
  ...(stack === undefined ? [] : [str('exception.stacktrace', stack)]),
];
const LOGS: [string, bigint, number, string, unknown[], Row?][] = [
  ['web', at(5), 9, 'w info 1', []],
  ['web', at(30), 12, 'w info 2', []],
  ['api', at(60) - 1n, 5, 'last ns of the first minute', []],
  ['api', at(60), 13, 'first ns of the second minute', []],
  ['web', at(61), 17, 'type error 1', exception('TypeError', 'x is undefined', 'st1')],
  ['web', at(62), 18, 'type error 2', exception('TypeError', 'x is undefined', 'st2')],
  ['api', at(150), 17, 'type error 3', exception('TypeError', 'x is undefined', 'st3')],
  ['api', at(170), 21, 'oom 1', exception('OOM', undefined)],
  ['worker', at(200), 0, 'lost', exception(undefined, 'lost connection')],
  ['worker', at(201), 30, 'severity past 24', []],
  ['web', at(300), 1, 'the needle', [], { traceId: TRACE_1 }],
  ['web', at(301), 3, 'trace 2', []],
  ['api', at(400), 9, 'oom 2', exception('OOM', undefined, 'st-oom')],
  ['worker', at(450), 17, 'numeric type', [{ key: 'exception.type', value: { intValue: '42' } }]],
  ['web', at(600) - 1n, 24, 'last ns of the window', []],
  ['web', at(600), 9, 'first ns after the window', []],
  ['web', T0 - 1n, 9, 'last ns before the window', []],
  ['web', at(700), 17, 'type error after the window', exception('TypeError', 'x is undefined', 'st-late')],
];
const logsExport = (logs: typeof LOGS) => ({
  resourceLogs: logs.map(([service, time, severityNumber, body, attributes, extra]) => ({
    resource: { attributes: [str('service.name', service)] },
    scopeLogs: [{ logRecords: [{ timeUnixNano: String(time), severityNumber, body: { stringValue: body }, attributes, ...extra }] }],
  })),
});
const LOGS_B: typeof LOGS = [
  ['web', at(61), 17, 'b type error', exception('TypeError', 'x is undefined', 'b')],
  ['bsvc', at(5), 9, 'b info', []],
];

// ---- spans ----
const spans = (service: string, list: Row[]) => ({ resource: { attributes: [str('service.name', service)] }, scopeSpans: [{ spans: list }] });
const span = (traceId: string, n: number, name: string, start: bigint, end: bigint, extra: Row = {}): Row => ({
  traceId,
  spanId: sid(n),
  name,
  kind: 2,
  startTimeUnixNano: String(start),
  endTimeUnixNano: String(end),
  ...extra,
});
const ERROR = { status: { code: 2, message: 'failed' } };
const SPANS_A = {
  resourceSpans: [
    spans('web', [
      span(TRACE_1, 1, 'GET /users', at(10), at(12)),
      span(TRACE_3, 32, 'render', at(30.01), at(30.05), { parentSpanId: sid(31), ...ERROR }),
      span(TRACE_3, 33, 'render2', at(30.02), at(30.03), { parentSpanId: sid(31), ...ERROR }),
      span(TRACE_A, 41, 'POST /orders', at(40), at(40.25), { status: { code: 1 } }),
      span(TRACE_A, 42, 'late', at(700), at(701), { parentSpanId: sid(41) }),
    ]),
    spans('db', [span(TRACE_1, 2, 'SELECT users', at(10.1), at(10.5), { parentSpanId: sid(1), ...ERROR })]),
    spans('cache', [span(TRACE_1, 3, 'cache', at(10.2), at(13), { parentSpanId: sid(1) })]),
    spans('api', [
      span(TRACE_2, 21, 'child-a', at(20), at(21), { parentSpanId: sid(90) }),
      span(TRACE_2, 22, 'child-b', at(19.5), at(19.6), { parentSpanId: sid(90) }),
      span(TRACE_3, 31, 'GET /users', at(30), at(30.1)),
    ]),
    spans('worker', [span(TRACE_V, 51, 'GET /v', T0 - 1n, at(60)), span(TRACE_V, 52, 'v-child', at(50), at(50.01), { parentSpanId: sid(51) })]),
  ],
};
// Project b shares a trace id with a: none of its spans may count in a's summaries.
const SPANS_B = { resourceSpans: [spans('bsvc', [span(TRACE_1, 99, 'b-span', at(10.3), at(20), ERROR)])] };

const summary = (traceId: string, rootName: string, rootService: string, start: bigint, end: bigint, spanCount: number, errorCount: number, services: string[]) => ({
  trace_id: traceId,
  root_name: rootName,
  root_service: rootService,
  start_time_unix_nano: String(start),
  end_time_unix_nano: String(end),
  duration_nano: String(end - start),
  span_count: spanCount,
  error_count: errorCount,
  services,
});
const X = summary(TRACE_1, 'GET /users', 'web', at(10), at(13), 3, 1, ['cache', 'db', 'web']);
// No span without a parent: the earliest stands for the root.
const Y = summary(TRACE_2, 'child-b', 'api', at(19.5), at(21), 2, 0, ['api']);
const Z = summary(TRACE_3, 'GET /users', 'api', at(30), at(30.1), 3, 2, ['api', 'web']);
const W = summary(TRACE_A, 'POST /orders', 'web', at(40), at(40.25), 1, 0, ['web']);
// Its root starts 1 ns before the window: inside it, the trace is its child.
const V = summary(TRACE_V, 'v-child', 'worker', at(50), at(50.01), 1, 0, ['worker']);
const ALL_TRACES = [V, W, Z, Y, X];

// ---- metrics ----
const metrics = (service: string, list: Row[]) => ({ resource: { attributes: [str('service.name', service)] }, scopeMetrics: [{ metrics: list }] });
const dp = (time: bigint, value: Row, attributes: unknown[] = []): Row => ({ timeUnixNano: String(time), startTimeUnixNano: String(T0), attributes, ...value });
const API = str('http.route', '/api');
const code = (n: number) => ({ key: 'code', value: { intValue: String(n) } });
const FLAG = { key: 'flag', value: { boolValue: true } };
const requests = (description: string, points: Row[]) => ({ name: 'requests', description, unit: '{request}', sum: { aggregationTemporality: 2, isMonotonic: true, dataPoints: points } });
const duration = (points: Row[]) => ({ name: 'http.server.duration', description: 'Duration', unit: 'ms', histogram: { aggregationTemporality: 2, dataPoints: points } });
const METRICS_A = {
  resourceMetrics: [
    metrics('web', [
      requests('old', [dp(at(1), { asInt: '1' }, [API]), dp(at(2), { asInt: '2' }, [API]), dp(at(3), { asInt: '3' }, [API]), dp(at(4), { asDouble: 4.5 }, [API]), dp(at(2.5), { asInt: '9' }, [API, FLAG])]),
      requests('Requests', [dp(at(5), { asInt: '5' }, [API]), dp(at(700), { asInt: '7' }, [API])]),
      duration([
        dp(at(10), { count: '2', sum: 30, min: 10, max: 20, bucketCounts: ['1', '1'], explicitBounds: [15] }, [API, code(200)]),
        dp(at(20), { count: '1', sum: 5, bucketCounts: ['1', '0'], explicitBounds: [15] }, [API, code(200)]),
        dp(at(30), { count: '0' }, [API, code(200)]),
        dp(at(15), { count: '1', sum: 1.5, bucketCounts: ['1', '0'], explicitBounds: [15] }, [str('http.route', '/home'), code(200)]),
      ]),
      // The same attributes in another service: another series.
      { name: 'cpu', description: 'CPU', unit: '1', gauge: { dataPoints: [dp(at(6), { asDouble: 0.25 })] } },
    ]),
    metrics('api', [
      duration([dp(at(25), { count: '1', sum: 99, bucketCounts: ['0', '1'], explicitBounds: [15] }, [API, code(500), { key: 'weight', value: { doubleValue: 2 } }])]),
      { name: 'cpu', description: 'CPU', unit: '1', gauge: { dataPoints: [dp(at(3), { asDouble: 0.5 })] } },
    ]),
    metrics('worker', [{ name: 'cpu', description: 'CPU total', unit: '1', sum: { aggregationTemporality: 1, isMonotonic: false, dataPoints: [dp(at(4), { asInt: '7' })] } }]),
  ],
};
const METRICS_B = { resourceMetrics: [metrics('web', [requests('b', [dp(at(2), { asInt: '100' }, [API])])])] };

// ---- the gateway, and keys: a, b, c (nothing stored) and d may send and read, "ingest" (project a) may only send ----
let gw: Gateway;
let dbPath: string;
const keys: Record<string, string> = {};

beforeAll(async () => {
  dbPath = join(mkdtempSync(join(tmpdir(), 'otelgate-views-')), 'store.db');
  gw = await startGateway({ config: STORE_CONFIG(dbPath) });
  const entries = [
    ['a', 'a', undefined],
    ['b', 'b', undefined],
    ['c', 'c', undefined],
    ['d', 'd', undefined],
    ['ingest', 'a', ['ingest' as const]],
  ].map(([name, project, scopes]) => {
    const key = generateKey();
    keys[name as string] = key.key;
    return { id: key.id, project: project as string, sha256: key.sha256, ...(scopes === undefined ? {} : { scopes: scopes as 'ingest'[] }) };
  });
  writeKeysFile(gw.keysFile, entries);
  expect(await waitUntil(() => gw.run.lines.some((l) => l.msg === 'Reloaded API keys' && l['keys'] === entries.length))).toBe(true);
  const posts: [string, string, unknown][] = [
    ['/v1/logs', 'a', logsExport(LOGS)],
    ['/v1/logs', 'b', logsExport(LOGS_B)],
    ['/v1/traces', 'a', SPANS_A],
    ['/v1/traces', 'b', SPANS_B],
    ['/v1/metrics', 'a', METRICS_A],
    ['/v1/metrics', 'b', METRICS_B],
  ];
  for (const [path, key, body] of posts) {
    const response = await fetch(`${gw.url}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${keys[key] as string}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect([path, key, response.status, await response.text()]).toEqual([path, key, 200, '{}']);
  }
});

afterAll(async () => {
  expect(await gw.stop()).toBe(0);
});

/** GET /api/v1/query/`path` with `key` (null: none). */
async function get(path: string, params: Record<string, string> = {}, key: string | null = keys['a'] as string): Promise<Answer> {
  const response = await fetch(`${gw.url}/api/v1/query/${path}?${new URLSearchParams(params).toString()}`, { headers: key === null ? {} : { Authorization: `Bearer ${key}` } });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Answer['body'], text };
}

async function rows(path: string, params: Record<string, string> = {}, key = keys['a'] as string): Promise<Row[]> {
  const answer = await get(path, params, key);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.rows;
}

const count = (time: bigint, severity: string, n: number) => ({ time_unix_nano: String(time), severity, count: n });

describe('GET /api/v1/query/log_counts', () => {
  it('counts each bucket and severity band exactly, buckets ascending, bands in order, none for empty buckets; a bucket ends 1 ns before the next', async () => {
    const answer = await get('log_counts', { ...WINDOW, step: '1m' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      step_nano: '60000000000',
      from: String(T0),
      to: String(at(600)),
      rows: [
        count(T0, 'debug', 1),
        count(T0, 'info', 2),
        count(at(60), 'warn', 1),
        count(at(60), 'error', 2),
        count(at(120), 'error', 1),
        count(at(120), 'fatal', 1),
        // Severity 0, and one past 24 (no band of the data model), are unspecified.
        count(at(180), 'unspecified', 2),
        count(at(300), 'trace', 2),
        count(at(360), 'info', 1),
        count(at(420), 'error', 1),
        count(at(540), 'fatal', 1),
      ],
    });
  });

  it('writes the answer as documented: step, from, to, then the rows', async () => {
    const answer = await get('log_counts', { from: String(at(60)), to: String(at(120)), step: '30s' });
    expect(answer.text).toBe(
      `{"step_nano":"30000000000","from":"${at(60)}","to":"${at(120)}","rows":[{"time_unix_nano":"${at(60)}","severity":"warn","count":1},{"time_unix_nano":"${at(60)}","severity":"error","count":2}]}`,
    );
  });

  it('starts buckets at from, whatever the step: 5m buckets of the same logs', async () => {
    expect(await rows('log_counts', { ...WINDOW, step: '5m' })).toEqual([
      count(T0, 'unspecified', 2),
      count(T0, 'debug', 1),
      count(T0, 'info', 2),
      count(T0, 'warn', 1),
      count(T0, 'error', 3),
      count(T0, 'fatal', 1),
      count(at(300), 'trace', 2),
      count(at(300), 'info', 1),
      count(at(300), 'error', 1),
      count(at(300), 'fatal', 1),
    ]);
    const shifted = await get('log_counts', { from: String(at(1)), to: String(at(601)), step: '300s' });
    expect(shifted.body.rows).toEqual([
      count(at(1), 'unspecified', 2),
      count(at(1), 'trace', 1),
      count(at(1), 'debug', 1),
      count(at(1), 'info', 2),
      count(at(1), 'warn', 1),
      count(at(1), 'error', 3),
      count(at(1), 'fatal', 1),
      count(at(301), 'trace', 1),
      count(at(301), 'info', 2),
      count(at(301), 'error', 1),
      count(at(301), 'fatal', 1),
    ]);
  });

  it.each([
    ['digits: nanoseconds', '60000000000', '60000000000'],
    ['1.5s', '1.5s', '1500000000'],
    ['1m30s', '1m30s', '90000000000'],
    ['250ms', '250ms', '250000000'],
  ])('step as %s', async (_name, step, nano) => {
    const answer = await get('log_counts', { from: String(T0), to: String(at(60)), step });
    expect([answer.status, answer.body.step_nano]).toEqual([200, nano]);
  });

  it('defaults step to the range / 60, rounded up to a whole second', async () => {
    expect((await get('log_counts', WINDOW)).body.step_nano).toBe('10000000000');
    expect((await get('log_counts', { from: String(T0), to: String(at(61)) })).body.step_nano).toBe('2000000000');
    expect((await get('log_counts', { from: String(T0), to: String(T0 + 1n) })).body.step_nano).toBe('1000000000');
  });

  it('takes up to 1000 buckets: 10 minutes in 600 ms steps', async () => {
    const answer = await get('log_counts', { ...WINDOW, step: '600ms' });
    expect([answer.status, answer.body.step_nano, answer.body.rows.length]).toEqual([200, '600000000', 15]);
  });

  it.each([
    ['service', { service: 'web' }, [count(T0, 'info', 2), count(at(60), 'error', 2), count(at(300), 'trace', 2), count(at(540), 'fatal', 1)]],
    [
      'severity_min (a number past 24 is at least any)',
      { severity_min: 'error' },
      [count(at(60), 'error', 2), count(at(120), 'error', 1), count(at(120), 'fatal', 1), count(at(180), 'unspecified', 1), count(at(420), 'error', 1), count(at(540), 'fatal', 1)],
    ],
    ['q', { q: 'needle' }, [count(at(300), 'trace', 1)]],
    ['trace_id', { trace_id: TRACE_1.toUpperCase() }, [count(at(300), 'trace', 1)]],
    ['service and severity_min', { service: 'api', severity_min: '13' }, [count(at(60), 'warn', 1), count(at(120), 'error', 1), count(at(120), 'fatal', 1)]],
  ])('filters by %s as /logs does', async (_name, filters, expected) => {
    expect(await rows('log_counts', { ...WINDOW, step: '1m', ...filters })).toEqual(expected);
  });
});

describe('GET /api/v1/query/trace_summaries', () => {
  it('summarises each trace: root name and service, start, end, duration, span and error counts, services; newest first', async () => {
    const answer = await get('trace_summaries', WINDOW);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ rows: ALL_TRACES });
    expect(answer.text.startsWith(
      `{"rows":[{"trace_id":"${TRACE_V}","root_name":"v-child","root_service":"worker","start_time_unix_nano":"${at(50)}","end_time_unix_nano":"${at(50.01)}","duration_nano":"10000000","span_count":1,"error_count":0,"services":["worker"]},`,
    )).toBe(true);
  });

  it.each([
    ['service: a trace with a span of it, all its services listed', { service: 'db' }, [X]],
    ['service (another)', { service: 'api' }, [Z, Y]],
    ['service (of another project)', { service: 'bsvc' }, []],
    ['name: the root span name', { name: 'GET /users' }, [Z, X]],
    ['name: the earliest span when no root is stored', { name: 'child-b' }, [Y]],
    ['name: not a root', { name: 'SELECT users' }, []],
    ['name: a root before from', { name: 'GET /v' }, []],
    ['min_duration, inclusive', { min_duration: '1.5s' }, [Y, X]],
    ['min_duration in ns, 1 ns over', { min_duration: '1500000001' }, [X]],
    ['min_duration in ms', { min_duration: '250ms' }, [W, Y, X]],
    ['min_duration 0', { min_duration: '0' }, ALL_TRACES],
    ['errors=true', { errors: 'true' }, [Z, X]],
    ['errors=false', { errors: 'false' }, ALL_TRACES],
    ['limit', { limit: '2' }, [V, W]],
    ['service, errors and min_duration together', { service: 'web', errors: 'true', min_duration: '1s' }, [X]],
    ['name, errors and limit', { name: 'GET /users', errors: 'true', limit: '1' }, [Z]],
    ['from: only spans starting in the range are grouped', { from: String(at(10.2)), to: String(at(600)) }, [V, W, Z, Y, summary(TRACE_1, 'cache', 'cache', at(10.2), at(13), 1, 0, ['cache'])]],
  ])('%s', async (_name, filters, expected) => {
    expect(await rows('trace_summaries', { ...WINDOW, ...filters })).toEqual(expected);
  });

  it('a span that ends before it starts makes a duration of 0, not a negative one', async () => {
    const backwards = { resourceSpans: [spans('clock', [span('1'.repeat(32), 1, 'skewed', at(100), at(99))])] };
    const response = await fetch(`${gw.url}/v1/traces`, { method: 'POST', headers: { Authorization: `Bearer ${keys['d'] as string}`, 'Content-Type': 'application/json' }, body: JSON.stringify(backwards) });
    expect(response.status).toBe(200);
    expect(await rows('trace_summaries', WINDOW, keys['d'])).toEqual([{ ...summary('1'.repeat(32), 'skewed', 'clock', at(100), at(99), 1, 0, ['clock']), duration_nano: '0' }]);
  });
});

const metricName = (name: string, type: string, unit: string, description: string, temporality: number, monotonic: boolean, series: number, points: number) => ({
  metric_name: name,
  type,
  unit,
  description,
  temporality,
  is_monotonic: monotonic,
  series_count: series,
  point_count: points,
});
const CPU_GAUGE = metricName('cpu', 'gauge', '1', 'CPU', 0, false, 2, 2);
const CPU_SUM = metricName('cpu', 'sum', '1', 'CPU total', 1, false, 1, 1);
const DURATION = metricName('http.server.duration', 'histogram', 'ms', 'Duration', 2, false, 3, 5);
// Its description is its newest point's.
const REQUESTS = metricName('requests', 'sum', '{request}', 'Requests', 2, true, 2, 6);

describe('GET /api/v1/query/metric_names', () => {
  it('lists each name and type once, by name, with its series and points in the range and its newest point\'s unit and description', async () => {
    const answer = await get('metric_names', WINDOW);
    expect(answer.body).toEqual({ rows: [CPU_GAUGE, CPU_SUM, DURATION, REQUESTS] });
    expect(answer.text).toContain(
      '{"metric_name":"requests","type":"sum","unit":"{request}","description":"Requests","temporality":2,"is_monotonic":true,"series_count":2,"point_count":6}',
    );
  });

  it.each([
    ['service', { service: 'web' }, [{ ...CPU_GAUGE, series_count: 1, point_count: 1 }, { ...DURATION, series_count: 2, point_count: 4 }, REQUESTS]],
    ['service (another)', { service: 'worker' }, [CPU_SUM]],
    ['limit', { limit: '2' }, [CPU_GAUGE, CPU_SUM]],
    ['from and to', { from: String(at(3)), to: String(at(4)) }, [{ ...CPU_GAUGE, series_count: 1, point_count: 1 }, { ...REQUESTS, description: 'old', series_count: 1, point_count: 1 }]],
  ])('filters by %s', async (_name, filters, expected) => {
    expect(await rows('metric_names', { ...WINDOW, ...filters })).toEqual(expected);
  });
});

const sumPoint = (time: bigint, value: number | string) => ({ time_unix_nano: String(time), start_time_unix_nano: String(T0), value });
const REQUESTS_FIELDS = { metric_name: 'requests', type: 'sum', unit: '{request}', temporality: 2, is_monotonic: true, service_name: 'web' };
const REQUESTS_FLAG = { ...REQUESTS_FIELDS, description: 'old', attributes: { 'http.route': '/api', flag: true }, points: [sumPoint(at(2.5), 9)], truncated: false };
const REQUESTS_API = {
  ...REQUESTS_FIELDS,
  description: 'Requests',
  attributes: { 'http.route': '/api' },
  points: [sumPoint(at(1), 1), sumPoint(at(2), 2), sumPoint(at(3), 3), sumPoint(at(4), 4.5), sumPoint(at(5), 5)],
  truncated: false,
};
const DURATION_FIELDS = { metric_name: 'http.server.duration', type: 'histogram', unit: 'ms', description: 'Duration', temporality: 2, is_monotonic: false };
const histogram = (time: bigint, fields: Row) => ({ time_unix_nano: String(time), start_time_unix_nano: String(T0), ...fields });
const DURATION_API_500 = {
  ...DURATION_FIELDS,
  service_name: 'api',
  attributes: { 'http.route': '/api', code: 500, weight: 2 },
  points: [histogram(at(25), { count: 1, sum: 99, bucket_counts: [0, 1], explicit_bounds: [15] })],
  truncated: false,
};
const DURATION_API_200 = {
  ...DURATION_FIELDS,
  service_name: 'web',
  attributes: { 'http.route': '/api', code: 200 },
  points: [
    histogram(at(10), { count: 2, sum: 30, min: 10, max: 20, bucket_counts: [1, 1], explicit_bounds: [15] }),
    histogram(at(20), { count: 1, sum: 5, bucket_counts: [1, 0], explicit_bounds: [15] }),
    histogram(at(30), { count: 0, bucket_counts: [], explicit_bounds: [] }),
  ],
  truncated: false,
};
const DURATION_HOME = {
  ...DURATION_FIELDS,
  service_name: 'web',
  attributes: { 'http.route': '/home', code: 200 },
  points: [histogram(at(15), { count: 1, sum: 1.5, bucket_counts: [1, 0], explicit_bounds: [15] })],
  truncated: false,
};

describe('GET /api/v1/query/metric_series', () => {
  it('answers one series per service, type and attributes, by service then attributes text, points oldest first, as the /metrics rows write them', async () => {
    const answer = await get('metric_series', { ...WINDOW, name: 'requests' });
    expect(answer.body).toEqual({ rows: [REQUESTS_FLAG, REQUESTS_API] });
    expect(answer.text).toBe(
      '{"rows":[{"metric_name":"requests","type":"sum","unit":"{request}","description":"old","temporality":2,"is_monotonic":true,"service_name":"web","attributes":{"http.route":"/api","flag":true},' +
        `"points":[{"time_unix_nano":"${at(2.5)}","start_time_unix_nano":"${T0}","value":9}],"truncated":false},` +
        '{"metric_name":"requests","type":"sum","unit":"{request}","description":"Requests","temporality":2,"is_monotonic":true,"service_name":"web","attributes":{"http.route":"/api"},' +
        `"points":[${[1, 2, 3, 4, 5].map((s) => `{"time_unix_nano":"${at(s)}","start_time_unix_nano":"${T0}","value":${s === 4 ? '4.5' : s}}`).join(',')}],"truncated":false}]}`,
    );
  });

  it('writes histogram points with count, sum, min, max when the point had them, and buckets', async () => {
    expect(await rows('metric_series', { ...WINDOW, name: 'http.server.duration' })).toEqual([DURATION_API_500, DURATION_API_200, DURATION_HOME]);
  });

  it('gives a name stored with two types a series of each, with its own fields', async () => {
    expect(await rows('metric_series', { ...WINDOW, name: 'cpu' })).toEqual([
      { metric_name: 'cpu', type: 'gauge', unit: '1', description: 'CPU', temporality: 0, is_monotonic: false, service_name: 'api', attributes: {}, points: [sumPoint(at(3), 0.5)], truncated: false },
      { metric_name: 'cpu', type: 'gauge', unit: '1', description: 'CPU', temporality: 0, is_monotonic: false, service_name: 'web', attributes: {}, points: [sumPoint(at(6), 0.25)], truncated: false },
      { metric_name: 'cpu', type: 'sum', unit: '1', description: 'CPU total', temporality: 1, is_monotonic: false, service_name: 'worker', attributes: {}, points: [sumPoint(at(4), 7)], truncated: false },
    ]);
  });

  it('keeps the newest max_points of a series, oldest first, and says it was truncated', async () => {
    expect(await rows('metric_series', { ...WINDOW, name: 'requests', max_points: '2' })).toEqual([
      REQUESTS_FLAG,
      { ...REQUESTS_API, points: [sumPoint(at(4), 4.5), sumPoint(at(5), 5)], truncated: true },
    ]);
    expect(await rows('metric_series', { ...WINDOW, name: 'requests', max_points: '5' })).toEqual([REQUESTS_FLAG, REQUESTS_API]);
  });

  it.each([
    ['a string', '{"http.route":"/api"}', [DURATION_API_500, DURATION_API_200]],
    ['a number', '{"code":200}', [DURATION_API_200, DURATION_HOME]],
    ['a number written as a double', '{"code":200.0}', [DURATION_API_200, DURATION_HOME]],
    ['a double written as an integer', '{"weight":2}', [DURATION_API_500]],
    ['two keys', '{"http.route":"/api","code":500}', [DURATION_API_500]],
    ['a string is not the number it spells', '{"code":"200"}', []],
    ['a key no series has', '{"region":"eu"}', []],
    ['nothing', '{}', [DURATION_API_500, DURATION_API_200, DURATION_HOME]],
  ])('attributes: %s', async (_name, attributes, expected) => {
    expect(await rows('metric_series', { ...WINDOW, name: 'http.server.duration', attributes })).toEqual(expected);
  });

  it.each([
    ['a boolean', '{"flag":true}', [REQUESTS_FLAG]],
    ['not the string of a boolean', '{"flag":"true"}', []],
    ['not 1 for true', '{"flag":1}', []],
  ])('attributes: %s', async (_name, attributes, expected) => {
    expect(await rows('metric_series', { ...WINDOW, name: 'requests', attributes })).toEqual(expected);
  });

  it.each([
    ['service', { service: 'api' }, [DURATION_API_500]],
    ['limit (series)', { limit: '2' }, [DURATION_API_500, DURATION_API_200]],
    ['limit (series), the first by service', { limit: '1' }, [DURATION_API_500]],
    ['from and to', { from: String(at(20)), to: String(at(30)) }, [DURATION_API_500, { ...DURATION_API_200, points: [DURATION_API_200.points[1]] }]],
  ])('filters by %s', async (_name, filters, expected) => {
    expect(await rows('metric_series', { ...WINDOW, name: 'http.server.duration', ...filters })).toEqual(expected);
  });

  it('answers no rows for a name not stored', async () => {
    expect(await get('metric_series', { ...WINDOW, name: 'nope' })).toMatchObject({ status: 200, text: '{"rows":[]}' });
  });

  it('runs a filter of the most attributes allowed, 32', async () => {
    const attributes = JSON.stringify({ 'http.route': '/api', ...Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`k${i}`, i])) });
    expect(await get('metric_series', { ...WINDOW, name: 'http.server.duration', attributes })).toMatchObject({ status: 200, text: '{"rows":[]}' });
  });
});

describe('GET /api/v1/query/error_groups', () => {
  /** The /logs row of the one log at `time`. */
  const logAt = async (time: bigint): Promise<Row> => {
    const found = await rows('logs', { from: String(time), to: String(time + 1n) });
    expect(found).toHaveLength(1);
    return found[0] as Row;
  };

  it('groups logs with exception attributes by type and message: counts per bucket, first and last, services, the newest log; by count, then last', async () => {
    const answer = await get('error_groups', { ...WINDOW, step: '1m' });
    expect(answer.status).toBe(200);
    const latest = answer.body.rows.map((row) => row['latest'] as Row);
    expect(answer.body).toEqual({
      step_nano: '60000000000',
      from: String(T0),
      to: String(at(600)),
      rows: [
        {
          exception_type: 'TypeError',
          exception_message: 'x is undefined',
          count: 3,
          first_time_unix_nano: String(at(61)),
          last_time_unix_nano: String(at(150)),
          services: ['api', 'web'],
          counts: [
            { time_unix_nano: String(at(60)), count: 2 },
            { time_unix_nano: String(at(120)), count: 1 },
          ],
          latest: await logAt(at(150)),
        },
        {
          exception_type: 'OOM',
          exception_message: '',
          count: 2,
          first_time_unix_nano: String(at(170)),
          last_time_unix_nano: String(at(400)),
          services: ['api'],
          counts: [
            { time_unix_nano: String(at(120)), count: 1 },
            { time_unix_nano: String(at(360)), count: 1 },
          ],
          latest: await logAt(at(400)),
        },
        // Counts alike: the later last first. A type that is not a string is its JSON text.
        {
          exception_type: '42',
          exception_message: '',
          count: 1,
          first_time_unix_nano: String(at(450)),
          last_time_unix_nano: String(at(450)),
          services: ['worker'],
          counts: [{ time_unix_nano: String(at(420)), count: 1 }],
          latest: await logAt(at(450)),
        },
        {
          exception_type: '',
          exception_message: 'lost connection',
          count: 1,
          first_time_unix_nano: String(at(200)),
          last_time_unix_nano: String(at(200)),
          services: ['worker'],
          counts: [{ time_unix_nano: String(at(180)), count: 1 }],
          latest: await logAt(at(200)),
        },
      ],
    });
    expect((latest[0] as { attributes: Row }).attributes).toEqual({ 'exception.type': 'TypeError', 'exception.message': 'x is undefined', 'exception.stacktrace': 'st3' });
    expect(answer.text).toContain(
      `"counts":[{"time_unix_nano":"${at(60)}","count":2},{"time_unix_nano":"${at(120)}","count":1}],"latest":{"time_unix_nano":"${at(150)}","observed_time_unix_nano":"0",`,
    );
  });

  it('keeps the first `limit` groups: by count, then the later last', async () => {
    expect((await rows('error_groups', { ...WINDOW, limit: '3' })).map((row) => row['exception_type'])).toEqual(['TypeError', 'OOM', '42']);
  });

  it('counts in buckets of the default step (the range / 60) from from', async () => {
    const answer = await get('error_groups', { ...WINDOW, limit: '1' });
    expect([answer.body.step_nano, answer.body.rows.map((row) => row['counts'])]).toEqual([
      '10000000000',
      [
        [
          { time_unix_nano: String(at(60)), count: 2 },
          { time_unix_nano: String(at(150)), count: 1 },
        ],
      ],
    ]);
  });

  it('filters by service: counts, services and the newest log are of that service alone', async () => {
    const found = await rows('error_groups', { ...WINDOW, service: 'web' });
    expect(found.map((row) => [row['exception_type'], row['count'], row['services'], (row['latest'] as Row)['body']])).toEqual([['TypeError', 2, ['web'], 'type error 2']]);
    const api = await rows('error_groups', { ...WINDOW, service: 'api', step: '1m' });
    expect(api.map((row) => [row['exception_type'], row['count'], row['last_time_unix_nano'], (row['latest'] as Row)['body']])).toEqual([
      ['OOM', 2, String(at(400)), 'oom 2'],
      ['TypeError', 1, String(at(150)), 'type error 3'],
    ]);
  });

  it('takes as the newest of logs at the same time the one stored last', async () => {
    const twins: typeof LOGS = [
      ['web', at(500), 17, 'range 1', exception('RangeError', 'too far')],
      ['web', at(500), 17, 'range 2', exception('RangeError', 'too far')],
      ['web', at(499), 17, 'range 0', exception('RangeError', 'too far')],
      ['api', at(500), 17, 'range api', exception('RangeError', 'too far')],
    ];
    const response = await fetch(`${gw.url}/v1/logs`, { method: 'POST', headers: { Authorization: `Bearer ${keys['d'] as string}`, 'Content-Type': 'application/json' }, body: JSON.stringify(logsExport(twins)) });
    expect(response.status).toBe(200);
    const brief = (found: Row[]) => found.map((row) => [row['count'], row['first_time_unix_nano'], (row['latest'] as Row)['body']]);
    expect(brief(await rows('error_groups', WINDOW, keys['d']))).toEqual([[4, String(at(499)), 'range api']]);
    // Of one service, the newest of its own.
    expect(brief(await rows('error_groups', { ...WINDOW, service: 'web' }, keys['d']))).toEqual([[3, String(at(499)), 'range 2']]);
  });

  it('takes the logs of [from, to) alone, and limit groups', async () => {
    const late = await rows('error_groups', { from: String(at(150)), to: String(at(701)), limit: '2' });
    expect(late.map((row) => [row['exception_type'], row['count'], row['first_time_unix_nano'], row['last_time_unix_nano']])).toEqual([
      ['TypeError', 2, String(at(150)), String(at(700))],
      ['OOM', 2, String(at(170)), String(at(400))],
    ]);
  });
});

describe('400 for a bad parameter, naming it', () => {
  const at31Days = String(T0 + 31n * 24n * 3600n * SECOND);
  it.each([
    ['log_counts', { ...WINDOW, step: '500ms' }, 'step 500ms makes 1200 buckets of the range from from to to, more than 1000: give a step of at least 600000000 ns, or a shorter range'],
    ['error_groups', { from: String(T0), to: String(at(3600)), step: '1s' }, 'step 1s makes 3600 buckets of the range from from to to, more than 1000: give a step of at least 3600000000 ns, or a shorter range'],
    ['log_counts', { step: '0' }, 'step must be a duration of more than 0 (30s, 1m, 1h) or nanoseconds; got "0"'],
    ['log_counts', { step: 'fast' }, 'step must be a duration of more than 0 (30s, 1m, 1h) or nanoseconds; got "fast"'],
    ['log_counts', { step: '-1s' }, 'step must be a duration of more than 0 (30s, 1m, 1h) or nanoseconds; got "-1s"'],
    ['error_groups', { step: '1e3s' }, 'step must be a duration of more than 0 (30s, 1m, 1h) or nanoseconds; got "1e3s"'],
    ['log_counts', { from: String(T0), to: String(BigInt(at31Days) + 1n) }, 'from must be at most 31 days before to'],
    ['metric_names', { from: '0' }, 'from must be at most 31 days before to (now, when not given)'],
    ['trace_summaries', { from: '9000000000000000000' }, 'from must be before now (the default to)'],
    ['metric_series', { name: 'cpu', from: String(at(2)), to: String(at(1)) }, 'to must be after from'],
    ['log_counts', { from: 'yesterday' }, 'from must be an ISO 8601 date-time (2026-11-22T08:00:00Z) or nanoseconds since the epoch; got "yesterday"'],
    ['metric_series', { name: 'cpu', attributes: 'nope' }, 'attributes must be a JSON object of attribute values, like {"http.route":"/api"}; got "nope"'],
    ['metric_series', { name: 'cpu', attributes: '[1]' }, 'attributes must be a JSON object of attribute values, like {"http.route":"/api"}; got "[1]"'],
    ['metric_series', { name: 'cpu', attributes: 'null' }, 'attributes must be a JSON object of attribute values, like {"http.route":"/api"}; got "null"'],
    ['metric_series', { name: 'cpu', attributes: '{"a":' }, 'attributes must be a JSON object of attribute values, like {"http.route":"/api"}; got "{"a":"'],
    ['metric_series', {}, 'name is required here: the exact name of the metric whose series to read'],
    ['metric_series', { name: 'cpu', max_points: '0' }, 'max_points must be an integer from 1 to 10000; got "0"'],
    ['metric_series', { name: 'cpu', max_points: '10001' }, 'max_points must be an integer from 1 to 10000; got "10001"'],
    ['metric_series', { name: 'cpu', limit: '1001' }, 'limit must be an integer from 1 to 1000; got "1001"'],
    ['trace_summaries', { limit: '1001' }, 'limit must be an integer from 1 to 1000; got "1001"'],
    ['trace_summaries', { limit: '0' }, 'limit must be an integer from 1 to 1000; got "0"'],
    ['error_groups', { limit: '1001' }, 'limit must be an integer from 1 to 1000; got "1001"'],
    ['metric_names', { limit: '10001' }, 'limit must be an integer from 1 to 10000; got "10001"'],
    ['trace_summaries', { errors: 'yes' }, 'errors must be true or false; got "yes"'],
    ['trace_summaries', { min_duration: 'soon' }, 'min_duration must be a duration (250ms, 1.5s) or nanoseconds; got "soon"'],
    ['trace_summaries', { min_duration: '9223372036854775808' }, 'min_duration must be a duration (250ms, 1.5s) or nanoseconds; got "9223372036854775808"'],
    ['log_counts', { limit: '5' }, 'unknown parameter limit; known here: from, to, service, step, severity_min, trace_id, q'],
    ['trace_summaries', { q: 'x' }, 'unknown parameter q; known here: from, to, service, limit, name, min_duration, errors'],
    ['metric_names', { name: 'cpu' }, 'unknown parameter name; known here: from, to, service, limit'],
    ['metric_series', { step: '1m' }, 'unknown parameter step; known here: from, to, service, limit, name, attributes, max_points'],
    ['error_groups', { severity_min: 'error' }, 'unknown parameter severity_min; known here: from, to, service, limit, step'],
    ['log_counts', { severity_min: '25' }, 'severity_min must be an integer from 1 to 24; got "25"'],
    ['metric_series', { name: '' }, 'name is empty'],
  ])('%s?%o', async (path, params, message) => {
    const answer = await get(path, params);
    expect([answer.status, answer.body]).toEqual([400, { message }]);
  });

  it('names a repeated parameter', async () => {
    const response = await fetch(`${gw.url}/api/v1/query/log_counts?step=1m&step=1m`, { headers: { Authorization: `Bearer ${keys['a'] as string}` } });
    expect([response.status, await response.json()]).toEqual([400, { message: 'step is given more than once' }]);
  });

  it('takes a range of exactly 31 days', async () => {
    expect((await get('metric_names', { from: String(T0), to: at31Days })).status).toBe(200);
  });
});

const PATHS = ['log_counts', 'trace_summaries', 'metric_names', 'metric_series', 'error_groups'];
/** What each path needs besides the window. */
const required = (path: string): Record<string, string> => (path === 'metric_series' ? { name: 'requests' } : {});

describe('keys and projects', () => {
  it.each(PATHS)('%s: 401 for a key that may only send, for none, and for a wrong one', async (path) => {
    for (const key of [keys['ingest'] as string, null, 'otg_aaaaaaaaaa_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']) {
      const answer = await get(path, { ...WINDOW, ...required(path) }, key);
      expect([answer.status, answer.text]).toEqual([401, '{"message":"API key invalid."}']);
    }
  });

  it.each(['POST', 'DELETE'])('%s: 405 with Allow: GET on every aggregate path', async (method) => {
    for (const path of PATHS) {
      const response = await fetch(`${gw.url}/api/v1/query/${path}`, { method, headers: { Authorization: `Bearer ${keys['a'] as string}` } });
      expect([response.status, response.headers.get('allow')]).toEqual([405, 'GET']);
      await response.arrayBuffer();
    }
  });

  it("another project's key sees its own data alone", async () => {
    expect(await rows('log_counts', { ...WINDOW, step: '1m' }, keys['b'])).toEqual([count(T0, 'info', 1), count(at(60), 'error', 1)]);
    expect(await rows('trace_summaries', WINDOW, keys['b'])).toEqual([summary(TRACE_1, 'b-span', 'bsvc', at(10.3), at(20), 1, 1, ['bsvc'])]);
    expect(await rows('metric_names', WINDOW, keys['b'])).toEqual([{ ...REQUESTS, description: 'b', series_count: 1, point_count: 1 }]);
    expect((await rows('metric_series', { ...WINDOW, name: 'requests' }, keys['b'])).map((row) => row['points'])).toEqual([[sumPoint(at(2), 100)]]);
    expect((await rows('error_groups', WINDOW, keys['b'])).map((row) => [row['count'], row['services'], (row['latest'] as Row)['body']])).toEqual([[1, ['web'], 'b type error']]);
  });

  it.each(PATHS)('%s: a project with nothing stored answers no rows', async (path) => {
    const answer = await get(path, { ...WINDOW, ...required(path) }, keys['c']);
    expect([answer.status, answer.body.rows]).toEqual([200, []]);
  });
});

describe('the default range, by a clock the test holds', () => {
  const NOW = at(600);
  const KEY = 'otg_heldclock_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
  let server: Server;
  let thread: ReaderThread;
  let url: string;

  beforeAll(async () => {
    thread = new ReaderThread(dbPath, { timeoutMs: 10_000, maxQueued: 8, maxBytes: 32 << 20 });
    const reader: Reader = { start: async () => {}, shutdown: () => thread.close(), read: (project, query) => thread.read(project, query) };
    const authenticator: Authenticator = {
      start: async () => {},
      shutdown: async () => {},
      authenticate: (headers) => (presentedKey(headers) === KEY ? { project: 'a', keyId: 'held' } : undefined),
      authenticateKey: () => undefined,
    };
    const handle = readHandler({ reader: () => reader, authenticator: () => authenticator, logger: memoryLogger().logger, now: () => NOW });
    server = createServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/query/`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await thread.close();
  });

  const held = async (path: string, params: Record<string, string> = {}): Promise<Answer['body']> => {
    const response = await fetch(`${url}${path}?${new URLSearchParams(params).toString()}`, { headers: { Authorization: `Bearer ${KEY}` } });
    expect(response.status).toBe(200);
    return (await response.json()) as Answer['body'];
  };

  it('reads the hour before now when neither from nor to is given, in 1-minute buckets from now - 1 h', async () => {
    const answer = await held('log_counts');
    expect(answer).toMatchObject({ step_nano: '60000000000', from: String(NOW - 3600n * SECOND), to: String(NOW) });
    // The log 1 ns before T0 is in the bucket of the minute before it; the ones at now and after are not.
    expect(answer.rows.slice(0, 3)).toEqual([count(at(-60), 'info', 1), count(T0, 'debug', 1), count(T0, 'info', 2)]);
    expect(answer.rows.at(-1)).toEqual(count(at(540), 'fatal', 1));
    expect(answer.rows).toHaveLength(12);
  });

  it('reads the hour before `to` when only to is given, and from `from` to now when only from is', async () => {
    expect(await held('error_groups', { to: String(at(100)) })).toMatchObject({ from: String(at(100) - 3600n * SECOND), to: String(at(100)), step_nano: '60000000000' });
    const since = await held('error_groups', { from: String(at(150)) });
    expect([since.from, since.to, since.step_nano, since.rows.map((row) => row['exception_type'])]).toEqual([String(at(150)), String(NOW), '8000000000', ['OOM', '42', '', 'TypeError']]);
  });

  it('summarises traces of the last hour: a root 1 ns before T0 is in it', async () => {
    expect((await held('trace_summaries')).rows).toEqual([W, Z, Y, X, summary(TRACE_V, 'GET /v', 'worker', T0 - 1n, at(60), 2, 0, ['worker'])]);
  });

  it('counts metrics and series of the last hour', async () => {
    expect((await held('metric_names')).rows).toEqual([CPU_GAUGE, CPU_SUM, DURATION, REQUESTS]);
    expect((await held('metric_series', { name: 'requests' })).rows).toEqual([REQUESTS_FLAG, REQUESTS_API]);
  });
});
