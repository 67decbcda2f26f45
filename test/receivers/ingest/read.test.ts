// The read API (GET /api/v1/query/{logs,spans,metrics}) over real HTTP against the built
// otelgate writing to the embedded store: every filter of every endpoint row by row, the exact
// nanosecond boundaries of from/to, limits, ordering, every 400, 401/404/405, project isolation,
// and the JSON form of OTLP types in the raw answer text.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, STORE_CONFIG, type Gateway } from '../../helpers/gateway.js';
import { at, iso, isoPlusOne, label, SP, str, T0, T_FAILED, T_LAT, T_USERS2, TRACE_1, TRACE_2, TRACE_3, TRACE_A } from '../../helpers/query-fixture.js';

type What = 'logs' | 'spans' | 'metrics';
type Row = Record<string, unknown>;

const TRACE_B = '0af7651916cd43dd8448eb211c80319c';
const SPAN_A = 'eee19b7ec3c1b174';

/** One attribute of every OTLP type, and the read API's JSON text for them. */
const TYPED = [
  { key: 'int', value: { intValue: '5' } },
  { key: 'double', value: { doubleValue: 5 } },
  { key: 'big', value: { intValue: '9007199254740993' } },
  { key: 'neg', value: { intValue: -3 } },
  { key: 'bytes', value: { bytesValue: '3q2+7w==' } },
  { key: 'bool', value: { boolValue: true } },
  { key: 'falsy', value: { boolValue: false } },
  { key: 'array', value: { arrayValue: { values: [{ stringValue: 'x' }, { intValue: '1' }, { doubleValue: 2.5 }, { boolValue: true }] } } },
  {
    key: 'map',
    value: {
      kvlistValue: {
        values: [str('k', 'v'), { key: 'n', value: { intValue: '2' } }, { key: 'inner', value: { kvlistValue: { values: [{ key: 'd', value: { doubleValue: 0.5 } }] } } }],
      },
    },
  },
];
const TYPED_JSON = '"int":5,"double":5.0,"big":"9007199254740993","neg":-3,"bytes":"3q2+7w==","bool":true,"falsy":false,"array":["x",1,2.5,true],"map":{"k":"v","n":2,"inner":{"d":0.5}}';
const TYPED_PARSED = {
  int: 5,
  double: 5,
  big: '9007199254740993',
  neg: -3,
  bytes: '3q2+7w==',
  bool: true,
  falsy: false,
  array: ['x', 1, 2.5, true],
  map: { k: 'v', n: 2, inner: { d: 0.5 } },
};
const RESOURCE_CLAIMING_B = [str('service.name', 'typed'), str('project.id', 'b')];

// ---- the fixture: logs ----
const SIMPLE_LOGS_A = [
  { message: 'boot sequence start', level: 'debug', timestamp: iso(at(1)), service: 'api', trace_id: 'req-abc-1', context: { user: { id: 42 } } },
  { message: 'User login ok', level: 'info', timestamp: iso(at(2)), service: 'api', trace_id: 'req-abc-1', span_id: 'span-1', scope: 'auth', event: 'login' },
  { message: 'user login failed', level: 'warn', timestamp: iso(T_FAILED), service: 'web' },
  { message: 'disk error on /dev/sda', level: 'error', timestamp: iso(at(4)), service: 'worker', trace_id: 'req-xyz-2' },
  { message: 'fatal: out of memory', level: 'fatal', timestamp: iso(at(5)), service: 'worker' },
  { message: 'no level: 100% done_ok', timestamp: iso(at(6)), service: 'web' },
  { message: 'simple with hex trace', level: 'info', timestamp: iso(at(6.5)), service: 'checkout', trace_id: TRACE_A },
];
const KV_BODY = '{"error":"card declined","code":51}';
const OTLP_LOGS_A = {
  resourceLogs: [
    {
      resource: { attributes: [str('service.name', 'checkout')] },
      scopeLogs: [
        {
          scope: { name: 'shop', version: '3.1' },
          logRecords: [
            {
              timeUnixNano: String(at(7)),
              observedTimeUnixNano: String(at(7) + 5n),
              severityNumber: 9,
              severityText: 'INFO',
              body: { stringValue: 'otlp order placed' },
              attributes: [str('order', '1001')],
              traceId: TRACE_A,
              spanId: SPAN_A,
              flags: 1,
              eventName: 'order.placed',
            },
            {
              timeUnixNano: String(at(8)),
              severityNumber: 17,
              severityText: 'ERROR',
              body: { kvlistValue: { values: [str('error', 'card declined'), { key: 'code', value: { intValue: '51' } }] } },
              traceId: TRACE_A,
            },
          ],
        },
      ],
    },
    {
      resource: { attributes: RESOURCE_CLAIMING_B },
      scopeLogs: [
        {
          logRecords: [
            { timeUnixNano: String(at(9)), severityNumber: 10, body: { stringValue: 'typed attributes' }, traceId: TRACE_B, attributes: TYPED },
            // No time: the observed time orders and filters it.
            { observedTimeUnixNano: String(at(10)), severityNumber: 1, body: { stringValue: 'observed only' } },
          ],
        },
      ],
    },
  ],
};
/** Every log of project a, newest first. */
const ALL_LOGS_A = [
  'observed only',
  'typed attributes',
  KV_BODY,
  'otlp order placed',
  'simple with hex trace',
  'no level: 100% done_ok',
  'fatal: out of memory',
  'disk error on /dev/sda',
  'user login failed',
  'User login ok',
  'boot sequence start',
];
const SIMPLE_LOGS_B = [
  { message: 'b first', level: 'info', timestamp: iso(at(1)), service: 'api', trace_id: 'req-abc-1' },
  { message: 'b second', level: 'error', timestamp: iso(at(2)), service: 'api' },
];
const OTLP_LOGS_B = {
  resourceLogs: [
    { resource: { attributes: [str('service.name', 'api')] }, scopeLogs: [{ logRecords: [{ timeUnixNano: String(at(3)), severityNumber: 9, body: { stringValue: 'b otlp' }, traceId: TRACE_A }] }] },
  ],
};

// ---- spans ----
const span = (name: string, mark: string, traceId: string, spanId: string, start: bigint, extra: Record<string, unknown> = {}) => ({
  traceId,
  spanId,
  name,
  kind: 2,
  startTimeUnixNano: String(start),
  endTimeUnixNano: String(start + 250_000_000n),
  attributes: [label(mark)],
  ...extra,
});
const SPANS_A = {
  resourceSpans: [
    {
      resource: { attributes: [str('service.name', 'api')] },
      scopeSpans: [
        {
          scope: { name: 'http', version: '1.0' },
          spans: [span('GET /users', 'users-1', TRACE_1, SP(1), at(1)), span('GET /orders', 'orders-get', TRACE_2, SP(3), at(2)), span('GET /users', 'users-2', TRACE_3, SP(5), T_USERS2)],
        },
      ],
    },
    {
      resource: { attributes: [str('service.name', 'db')] },
      scopeSpans: [
        {
          scope: { name: 'sql' },
          spans: [
            {
              traceId: TRACE_1,
              spanId: SP(2),
              parentSpanId: SP(1),
              traceState: 'k=v',
              flags: 257,
              name: 'SELECT users',
              kind: 3,
              startTimeUnixNano: String(at(1.1)),
              endTimeUnixNano: String(at(1.1) + 80_000_000n),
              attributes: [label('select'), str('db.system', 'sqlite')],
              droppedAttributesCount: 1,
              events: [{ timeUnixNano: String(at(1.1) + 1000n), name: 'retry', attributes: [{ key: 'attempt', value: { intValue: '2' } }] }],
              droppedEventsCount: 2,
              links: [{ traceId: TRACE_2, spanId: SP(3), traceState: 'x=y', flags: 1 }],
              droppedLinksCount: 3,
              status: { code: 2, message: 'deadlock' },
            },
          ],
        },
      ],
    },
    {
      resource: { attributes: [str('service.name', 'checkout'), str('project.id', 'b')] },
      scopeSpans: [{ spans: [span('POST /orders', 'orders-post', TRACE_2, SP(4), at(3), { attributes: [label('orders-post'), ...TYPED] })] }],
    },
  ],
};
const ALL_SPANS_A = ['users-2', 'orders-post', 'orders-get', 'select', 'users-1'];
const SPANS_B = {
  resourceSpans: [{ resource: { attributes: [str('service.name', 'api')] }, scopeSpans: [{ spans: [span('GET /users', 'b-span', TRACE_1, 'b7ad6b7169203331', at(1))] }] }],
};

// ---- metrics ----
const point = (mark: string, time: bigint, value: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  timeUnixNano: String(time),
  startTimeUnixNano: String(T0),
  attributes: [label(mark)],
  ...value,
  ...extra,
});
const METRICS_A = {
  resourceMetrics: [
    {
      resource: { attributes: [str('service.name', 'api')] },
      scopeMetrics: [
        {
          scope: { name: 'meter', version: '1.2' },
          metrics: [
            { name: 'cpu.usage', description: 'CPU', unit: '1', gauge: { dataPoints: [point('cpu-1', at(1), { asDouble: 0.5 }), point('cpu-2', at(2), { asDouble: 1 })] } },
            { name: 'requests', unit: '{request}', sum: { aggregationTemporality: 2, isMonotonic: true, dataPoints: [point('req-api', at(3), { asInt: '5' })] } },
          ],
        },
      ],
    },
    {
      resource: { attributes: [str('service.name', 'web'), str('project.id', 'b')] },
      scopeMetrics: [
        {
          scope: { name: 'meter', version: '1.2' },
          metrics: [
            {
              name: 'requests',
              unit: '{request}',
              sum: { aggregationTemporality: 2, isMonotonic: true, dataPoints: [point('req-web', at(4), { asInt: '9007199254740993' }, { attributes: [label('req-web'), ...TYPED] })] },
            },
            {
              name: 'latency',
              description: 'Request latency',
              unit: 'ms',
              histogram: {
                aggregationTemporality: 1,
                dataPoints: [point('lat', T_LAT, { count: '3', sum: 30, min: 1, max: 20, bucketCounts: ['1', '2'], explicitBounds: [10] })],
              },
            },
          ],
        },
      ],
    },
  ],
};
const ALL_POINTS_A = ['lat', 'req-web', 'req-api', 'cpu-2', 'cpu-1'];
const METRICS_B = {
  resourceMetrics: [
    {
      resource: { attributes: [str('service.name', 'api')] },
      scopeMetrics: [{ metrics: [{ name: 'cpu.usage', gauge: { dataPoints: [point('b-cpu', at(1), { asDouble: 7 })] } }] }],
    },
  ],
};

// ---- project c: more rows than the default limit ----
const BULK_LOGS = 150;
const BULK_SPANS = 120;
const BULK_POINTS = 120;
const pad = (i: number): string => String(i).padStart(3, '0');
const bulkLogs = Array.from({ length: BULK_LOGS }, (_, i) => ({ message: `bulk ${pad(i)}`, timestamp: iso(T0 + BigInt(i) * 1_000_000n), service: 'bulk' }));
const BULK_SPAN_EXPORT = {
  resourceSpans: [
    {
      scopeSpans: [
        {
          spans: Array.from({ length: BULK_SPANS }, (_, i) =>
            span('bulk', `span ${pad(i)}`, (i + 1).toString(16).padStart(32, 'a'), (i + 1).toString(16).padStart(16, '0'), T0 + BigInt(i) * 1_000_000n),
          ),
        },
      ],
    },
  ],
};
const BULK_METRIC_EXPORT = {
  resourceMetrics: [
    {
      scopeMetrics: [
        { metrics: [{ name: 'bulk.gauge', gauge: { dataPoints: Array.from({ length: BULK_POINTS }, (_, i) => point(`point ${pad(i)}`, T0 + BigInt(i) * 1_000_000n, { asInt: String(i) })) } }] },
      ],
    },
  ],
};
/** The labels "<prefix> NNN" from `from` down to `to`, inclusive. */
const descending = (prefix: string, from: number, to: number): string[] => Array.from({ length: from - to + 1 }, (_, i) => `${prefix} ${pad(from - i)}`);

// ---- the gateway ----
let gw: Gateway;

async function post(path: string, project: string, body: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(`${gw.url}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${gw.keys[project] as string}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

/** A request as given (repeated parameters, other methods, other headers). */
async function raw(pathAndQuery: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(`${gw.url}${pathAndQuery}`, init);
  return { status: response.status, headers: response.headers, text: await response.text() };
}
const bearer = (project = 'a'): Record<string, string> => ({ Authorization: `Bearer ${gw.keys[project] as string}` });

const marker: Record<What, (row: Row) => unknown> = {
  logs: (row) => row['body'],
  spans: (row) => (row['attributes'] as Row)['label'],
  metrics: (row) => (row['attributes'] as Row)['label'],
};

/** The marker of each row answered, in order. */
async function markers(what: What, params: Record<string, string> = {}, project = 'a'): Promise<unknown[]> {
  const result = await gw.read(what, gw.keys[project], params);
  expect(result.status, result.text).toBe(200);
  return (result.body.rows ?? []).map(marker[what]);
}

async function rows(what: What, params: Record<string, string> = {}, project = 'a'): Promise<{ rows: Row[]; text: string }> {
  const result = await gw.read(what, gw.keys[project], params);
  expect(result.status, result.text).toBe(200);
  return { rows: result.body.rows ?? [], text: result.text };
}

/** The raw JSON text of the one row whose marker is `mark` (rows are spliced as text, so a row is a balanced {...}). */
function rowText(text: string, what: What, mark: string): string {
  const parsed = JSON.parse(text) as { rows: Row[] };
  const index = parsed.rows.findIndex((row) => marker[what](row) === mark);
  expect(index).toBeGreaterThanOrEqual(0);
  // Split the top-level rows by depth.
  const out: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  const body = text.slice('{"rows":['.length, -2);
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (depth === 0) start = i;
      depth++;
    } else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) out.push(body.slice(start, i + 1));
    }
  }
  expect(out.length).toBe(parsed.rows.length);
  return out[index] as string;
}

beforeAll(async () => {
  const dbPath = join(mkdtempSync(join(tmpdir(), 'otelgate-read-')), 'store.db');
  gw = await startGateway({ config: STORE_CONFIG(dbPath), projects: ['a', 'b', 'c'] });
  const answers = [
    await post('/api/v1/ingest', 'a', SIMPLE_LOGS_A),
    await post('/v1/logs', 'a', OTLP_LOGS_A),
    await post('/api/v1/ingest', 'b', SIMPLE_LOGS_B),
    await post('/v1/logs', 'b', OTLP_LOGS_B),
    await post('/v1/traces', 'a', SPANS_A),
    await post('/v1/traces', 'b', SPANS_B),
    await post('/v1/metrics', 'a', METRICS_A),
    await post('/v1/metrics', 'b', METRICS_B),
    await post('/api/v1/ingest', 'c', bulkLogs),
    await post('/v1/traces', 'c', BULK_SPAN_EXPORT),
    await post('/v1/metrics', 'c', BULK_METRIC_EXPORT),
  ];
  expect(answers).toEqual([
    { status: 202, text: '{"accepted":7,"skipped":0}' },
    { status: 200, text: '{}' },
    { status: 202, text: '{"accepted":2,"skipped":0}' },
    { status: 200, text: '{}' },
    { status: 200, text: '{}' },
    { status: 200, text: '{}' },
    { status: 200, text: '{}' },
    { status: 200, text: '{}' },
    { status: 202, text: `{"accepted":${BULK_LOGS},"skipped":0}` },
    { status: 200, text: '{}' },
    { status: 200, text: '{}' },
  ]);
});

afterAll(async () => {
  expect(await gw.stop()).toBe(0);
});

describe('GET /api/v1/query/logs', () => {
  it('answers every row of the project, newest first by the log time (the observed time when it has none), as application/json', async () => {
    const response = await raw('/api/v1/query/logs', { headers: bearer() });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect((JSON.parse(response.text) as { rows: Row[] }).rows.map(marker.logs)).toEqual(ALL_LOGS_A);
  });

  it('accepts the key as X-Service-Key too', async () => {
    const response = await raw('/api/v1/query/logs?limit=2', { headers: { 'X-Service-Key': gw.keys['a'] as string } });
    expect(response.status).toBe(200);
    expect((JSON.parse(response.text) as { rows: Row[] }).rows.map(marker.logs)).toEqual(['observed only', 'typed attributes']);
  });

  it.each([
    // from is inclusive, to exclusive, at the exact nanosecond, as epoch ns and as ISO 8601
    ['from = the time (ns)', { from: String(T_FAILED) }, ALL_LOGS_A.slice(0, 9)],
    ['from = the time + 1 ns (ns)', { from: String(T_FAILED + 1n) }, ALL_LOGS_A.slice(0, 8)],
    ['from = the time - 1 ns (ns)', { from: String(T_FAILED - 1n) }, ALL_LOGS_A.slice(0, 9)],
    ['to = the time (ns)', { to: String(T_FAILED) }, ['User login ok', 'boot sequence start']],
    ['to = the time + 1 ns (ns)', { to: String(T_FAILED + 1n) }, ['user login failed', 'User login ok', 'boot sequence start']],
    ['from = the time, to = + 1 ns (ns)', { from: String(T_FAILED), to: String(T_FAILED + 1n) }, ['user login failed']],
    ['from = the time (ISO)', { from: iso(T_FAILED) }, ALL_LOGS_A.slice(0, 9)],
    ['from = the time + 1 ns (ISO)', { from: iso(T_FAILED + 1n) }, ALL_LOGS_A.slice(0, 8)],
    ['to = the time (ISO)', { to: iso(T_FAILED) }, ['User login ok', 'boot sequence start']],
    ['to = the time + 1 ns (ISO)', { to: iso(T_FAILED + 1n) }, ['user login failed', 'User login ok', 'boot sequence start']],
    ['from, to (ISO with +01:00)', { from: isoPlusOne(T_FAILED), to: isoPlusOne(T_FAILED + 1n) }, ['user login failed']],
    ['from ISO, to ns', { from: '2027-01-15T08:00:04Z', to: String(at(6)) }, ['fatal: out of memory', 'disk error on /dev/sda']],
    ['from = 0', { from: '0' }, ALL_LOGS_A],
    ['from = observed time of a log without time', { from: String(at(10)) }, ['observed only']],
    ['to = observed time of a log without time', { to: String(at(10)), from: String(at(9)) }, ['typed attributes']],
    ['from after everything', { from: String(at(11)) }, []],
    // service
    ['service=api', { service: 'api' }, ['User login ok', 'boot sequence start']],
    ['service=checkout (OTLP resource and simple JSON)', { service: 'checkout' }, [KV_BODY, 'otlp order placed', 'simple with hex trace']],
    ['service=typed', { service: 'typed' }, ['observed only', 'typed attributes']],
    ['service=web', { service: 'web' }, ['no level: 100% done_ok', 'user login failed']],
    ['service=Api (exact)', { service: 'Api' }, []],
    ['service=nope', { service: 'nope' }, []],
    // severity_min, numeric and by name
    ['severity_min=1', { severity_min: '1' }, ALL_LOGS_A.filter((b) => b !== 'no level: 100% done_ok')],
    ['severity_min=9', { severity_min: '9' }, ['typed attributes', KV_BODY, 'otlp order placed', 'simple with hex trace', 'fatal: out of memory', 'disk error on /dev/sda', 'user login failed', 'User login ok']],
    ['severity_min=info', { severity_min: 'info' }, ['typed attributes', KV_BODY, 'otlp order placed', 'simple with hex trace', 'fatal: out of memory', 'disk error on /dev/sda', 'user login failed', 'User login ok']],
    ['severity_min=10', { severity_min: '10' }, ['typed attributes', KV_BODY, 'fatal: out of memory', 'disk error on /dev/sda', 'user login failed']],
    ['severity_min=13', { severity_min: '13' }, [KV_BODY, 'fatal: out of memory', 'disk error on /dev/sda', 'user login failed']],
    ['severity_min=warn', { severity_min: 'warn' }, [KV_BODY, 'fatal: out of memory', 'disk error on /dev/sda', 'user login failed']],
    ['severity_min=WARNING', { severity_min: 'WARNING' }, [KV_BODY, 'fatal: out of memory', 'disk error on /dev/sda', 'user login failed']],
    ['severity_min=17', { severity_min: '17' }, [KV_BODY, 'fatal: out of memory', 'disk error on /dev/sda']],
    ['severity_min=error', { severity_min: 'error' }, [KV_BODY, 'fatal: out of memory', 'disk error on /dev/sda']],
    ['severity_min=fatal', { severity_min: 'fatal' }, ['fatal: out of memory']],
    ['severity_min=21', { severity_min: '21' }, ['fatal: out of memory']],
    ['severity_min=24', { severity_min: '24' }, []],
    ['severity_min=debug', { severity_min: 'debug' }, ['typed attributes', KV_BODY, 'otlp order placed', 'simple with hex trace', 'fatal: out of memory', 'disk error on /dev/sda', 'user login failed', 'User login ok', 'boot sequence start']],
    // trace_id: hex ids (OTLP, and a hex simple JSON id, both stored as bytes), non-hex simple JSON ids as given (in attributes)
    ['trace_id=hex', { trace_id: TRACE_A }, [KV_BODY, 'otlp order placed', 'simple with hex trace']],
    ['trace_id=HEX (upper case)', { trace_id: TRACE_A.toUpperCase() }, [KV_BODY, 'otlp order placed', 'simple with hex trace']],
    ['trace_id=another hex', { trace_id: TRACE_B }, ['typed attributes']],
    ['trace_id=unknown hex', { trace_id: TRACE_1 }, []],
    ['trace_id=req-abc-1 (non-hex, as given)', { trace_id: 'req-abc-1' }, ['User login ok', 'boot sequence start']],
    ['trace_id=req-xyz-2', { trace_id: 'req-xyz-2' }, ['disk error on /dev/sda']],
    ['trace_id=REQ-ABC-1 (exact)', { trace_id: 'REQ-ABC-1' }, []],
    ['trace_id=req-abc (not a prefix match)', { trace_id: 'req-abc' }, []],
    // q: a case-sensitive substring of the body, no wildcards
    ['q=login', { q: 'login' }, ['user login failed', 'User login ok']],
    ['q=User', { q: 'User' }, ['User login ok']],
    ['q=user', { q: 'user' }, ['user login failed']],
    ['q=LOGIN', { q: 'LOGIN' }, []],
    ['q=card declined (in a kvlist body)', { q: 'card declined' }, [KV_BODY]],
    ['q="code":51 (the body JSON text)', { q: '"code":51' }, [KV_BODY]],
    ['q=% (not a wildcard)', { q: '%' }, ['no level: 100% done_ok']],
    ['q=_ (not a wildcard)', { q: '_' }, ['no level: 100% done_ok']],
    ['q=whole body', { q: 'observed only' }, ['observed only']],
    // combined
    ['service + severity_min', { service: 'worker', severity_min: 'fatal' }, ['fatal: out of memory']],
    ['service + q', { service: 'api', q: 'login' }, ['User login ok']],
    ['trace_id + severity_min', { trace_id: TRACE_A, severity_min: 'error' }, [KV_BODY]],
    ['from + to + service', { from: String(at(2)), to: String(at(5)), service: 'web' }, ['user login failed']],
    ['q + severity_min + limit', { q: 'login', severity_min: '9', limit: '1' }, ['user login failed']],
    ['service + limit', { service: 'checkout', limit: '2' }, [KV_BODY, 'otlp order placed']],
    ['every filter', { from: iso(at(1)), to: iso(at(3)), service: 'api', severity_min: '9', trace_id: 'req-abc-1', q: 'ok', limit: '5' }, ['User login ok']],
    // limit
    ['limit=1', { limit: '1' }, ['observed only']],
    ['limit=3', { limit: '3' }, ['observed only', 'typed attributes', KV_BODY]],
    ['limit=10000', { limit: '10000' }, ALL_LOGS_A],
  ])('%s', async (_title, params: Record<string, string>, expected: string[]) => {
    expect(await markers('logs', params)).toEqual(expected);
  });

  it('answers the documented fields of a simple JSON log', async () => {
    const { rows: found } = await rows('logs', { q: 'User login ok' });
    expect(found).toEqual([
      {
        time_unix_nano: String(at(2)),
        observed_time_unix_nano: expect.stringMatching(/^\d{19}$/),
        severity_number: 9,
        severity_text: 'info',
        body: 'User login ok',
        attributes: { trace_id: 'req-abc-1', span_id: 'span-1' },
        dropped_attributes_count: 0,
        resource: { 'service.name': 'api' },
        scope_name: 'auth',
        scope_version: '',
        service_name: 'api',
        trace_id: '',
        span_id: '',
        flags: 0,
        event_name: 'login',
      },
    ]);
    // The simple endpoint's context is flattened to string attributes; an id that is not hex is kept there as sent.
    expect((await rows('logs', { q: 'boot' })).rows.map((r) => r['attributes'])).toEqual([{ 'user.id': '42', trace_id: 'req-abc-1' }]);
  });

  it('answers the documented fields of an OTLP log, with hex ids lower-case', async () => {
    const { rows: found } = await rows('logs', { q: 'otlp order placed' });
    expect(found).toEqual([
      {
        time_unix_nano: String(at(7)),
        observed_time_unix_nano: String(at(7) + 5n),
        severity_number: 9,
        severity_text: 'INFO',
        body: 'otlp order placed',
        attributes: { order: '1001' },
        dropped_attributes_count: 0,
        resource: { 'service.name': 'checkout' },
        scope_name: 'shop',
        scope_version: '3.1',
        service_name: 'checkout',
        trace_id: TRACE_A,
        span_id: SPAN_A,
        flags: 1,
        event_name: 'order.placed',
      },
    ]);
    // A hex simple JSON id reads back as the hex it was.
    expect((await rows('logs', { q: 'simple with hex trace' })).rows.map((r) => r['trace_id'])).toEqual([TRACE_A]);
    // A log without a time keeps time_unix_nano 0 and is placed by its observed time.
    expect((await rows('logs', { q: 'observed only' })).rows.map((r) => [r['time_unix_nano'], r['observed_time_unix_nano']])).toEqual([['0', String(at(10))]]);
  });

  it('writes a kvlist body as a string holding its JSON', async () => {
    const { rows: found, text } = await rows('logs', { q: 'card declined' });
    expect(found.map((r) => r['body'])).toEqual([KV_BODY]);
    expect(typeof found[0]?.['body']).toBe('string');
    expect(text).toContain(`"body":${JSON.stringify(KV_BODY)},`);
    expect(text).toContain('"body":"{\\"error\\":\\"card declined\\",\\"code\\":51}"');
  });
});

describe('GET /api/v1/query/spans', () => {
  it('answers every span of the project, newest first by start time', async () => {
    expect(await markers('spans')).toEqual(ALL_SPANS_A);
  });

  it.each([
    ['from = start (ns)', { from: String(T_USERS2) }, ['users-2']],
    ['from = start + 1 ns (ns)', { from: String(T_USERS2 + 1n) }, []],
    ['to = start (ns)', { to: String(T_USERS2) }, ALL_SPANS_A.slice(1)],
    ['to = start + 1 ns (ns)', { to: String(T_USERS2 + 1n) }, ALL_SPANS_A],
    ['from = start (ISO)', { from: iso(T_USERS2) }, ['users-2']],
    ['from = start + 1 ns (ISO)', { from: iso(T_USERS2 + 1n) }, []],
    ['to = start (ISO)', { to: iso(T_USERS2) }, ALL_SPANS_A.slice(1)],
    ['from, to = an exact window (ISO with +01:00)', { from: isoPlusOne(at(1.1)), to: isoPlusOne(at(3)) }, ['orders-get', 'select']],
    ['from, to = an exact window (ns)', { from: String(at(1)), to: String(at(1.1)) }, ['users-1']],
    ['name', { name: 'GET /users' }, ['users-2', 'users-1']],
    ['name (exact, case-sensitive)', { name: 'get /users' }, []],
    ['name (no substring match)', { name: 'GET' }, []],
    ['name=SELECT users', { name: 'SELECT users' }, ['select']],
    ['trace_id', { trace_id: TRACE_1 }, ['select', 'users-1']],
    ['trace_id (upper case)', { trace_id: TRACE_2.toUpperCase() }, ['orders-post', 'orders-get']],
    ['trace_id of one span', { trace_id: TRACE_3 }, ['users-2']],
    ['trace_id not hex', { trace_id: 'req-abc-1' }, []],
    ['trace_id unknown', { trace_id: TRACE_A }, []],
    ['service=api', { service: 'api' }, ['users-2', 'orders-get', 'users-1']],
    ['service=db', { service: 'db' }, ['select']],
    ['service=checkout', { service: 'checkout' }, ['orders-post']],
    ['service=nope', { service: 'nope' }, []],
    ['limit=1', { limit: '1' }, ['users-2']],
    ['limit=2', { limit: '2' }, ['users-2', 'orders-post']],
    ['limit=10000', { limit: '10000' }, ALL_SPANS_A],
    ['service + name + to', { service: 'api', name: 'GET /users', to: String(at(4)) }, ['users-1']],
    ['trace_id + service', { trace_id: TRACE_2, service: 'checkout' }, ['orders-post']],
    ['trace_id + from', { trace_id: TRACE_1, from: String(at(1) + 1n) }, ['select']],
  ])('%s', async (_title, params: Record<string, string>, expected: string[]) => {
    expect(await markers('spans', params)).toEqual(expected);
  });

  it('answers the documented fields of a span', async () => {
    const { rows: found } = await rows('spans', { name: 'SELECT users' });
    expect(found).toEqual([
      {
        trace_id: TRACE_1,
        span_id: SP(2),
        parent_span_id: SP(1),
        trace_state: 'k=v',
        flags: 257,
        name: 'SELECT users',
        kind: 3,
        start_time_unix_nano: String(at(1.1)),
        end_time_unix_nano: String(at(1.1) + 80_000_000n),
        duration_nano: '80000000',
        status_code: 2,
        status_message: 'deadlock',
        attributes: { label: 'select', 'db.system': 'sqlite' },
        dropped_attributes_count: 1,
        events: [{ time_unix_nano: String(at(1.1) + 1000n), name: 'retry', attributes: { attempt: 2 }, dropped_attributes_count: 0 }],
        dropped_events_count: 2,
        links: [{ trace_id: TRACE_2, span_id: SP(3), trace_state: 'x=y', attributes: {}, dropped_attributes_count: 0, flags: 1 }],
        dropped_links_count: 3,
        resource: { 'service.name': 'db' },
        scope_name: 'sql',
        scope_version: '',
        service_name: 'db',
      },
    ]);
    // A root span's parent is "".
    expect((await rows('spans', { trace_id: TRACE_3 })).rows.map((r) => [r['parent_span_id'], r['duration_nano'], r['scope_name'], r['scope_version']])).toEqual([
      ['', '250000000', 'http', '1.0'],
    ]);
  });
});

describe('GET /api/v1/query/metrics', () => {
  it('answers every data point of the project, newest first by point time', async () => {
    expect(await markers('metrics')).toEqual(ALL_POINTS_A);
  });

  it.each([
    ['from = time (ns)', { from: String(T_LAT) }, ['lat']],
    ['from = time + 1 ns (ns)', { from: String(T_LAT + 1n) }, []],
    ['to = time (ns)', { to: String(T_LAT) }, ALL_POINTS_A.slice(1)],
    ['to = time + 1 ns (ns)', { to: String(T_LAT + 1n) }, ALL_POINTS_A],
    ['from = time (ISO)', { from: iso(T_LAT) }, ['lat']],
    ['to = time (ISO)', { to: iso(T_LAT) }, ALL_POINTS_A.slice(1)],
    ['to = time + 1 ns (ISO)', { to: iso(T_LAT + 1n) }, ALL_POINTS_A],
    ['from, to (ISO with +01:00)', { from: isoPlusOne(at(2)), to: isoPlusOne(at(4)) }, ['req-api', 'cpu-2']],
    ['name=cpu.usage', { name: 'cpu.usage' }, ['cpu-2', 'cpu-1']],
    ['name=requests', { name: 'requests' }, ['req-web', 'req-api']],
    ['name=latency', { name: 'latency' }, ['lat']],
    ['name=cpu (exact)', { name: 'cpu' }, []],
    ['service=web', { service: 'web' }, ['lat', 'req-web']],
    ['service=api', { service: 'api' }, ['req-api', 'cpu-2', 'cpu-1']],
    ['service=nope', { service: 'nope' }, []],
    ['limit=1', { limit: '1' }, ['lat']],
    ['limit=10000', { limit: '10000' }, ALL_POINTS_A],
    ['name + service', { name: 'requests', service: 'api' }, ['req-api']],
    ['name + from', { name: 'cpu.usage', from: String(at(2)) }, ['cpu-2']],
    ['name + to + limit', { name: 'cpu.usage', to: String(at(3)), limit: '1' }, ['cpu-2']],
  ])('%s', async (_title, params: Record<string, string>, expected: string[]) => {
    expect(await markers('metrics', params)).toEqual(expected);
  });

  it('answers the documented fields of a gauge, a sum and a histogram point', async () => {
    const { rows: found, text } = await rows('metrics', { name: 'latency' });
    expect(found).toEqual([
      {
        metric_name: 'latency',
        description: 'Request latency',
        unit: 'ms',
        type: 'histogram',
        temporality: 1,
        is_monotonic: false,
        time_unix_nano: String(T_LAT),
        start_time_unix_nano: String(T0),
        count: 3,
        sum: 30,
        min: 1,
        max: 20,
        bucket_counts: [1, 2],
        explicit_bounds: [10],
        attributes: { label: 'lat' },
        flags: 0,
        exemplars: [],
        resource: { 'service.name': 'web', 'project.id': 'b' },
        scope_name: 'meter',
        scope_version: '1.2',
        service_name: 'web',
      },
    ]);
    expect(text).toContain('"count":3,"sum":30.0,"min":1.0,"max":20.0,"bucket_counts":[1,2],"explicit_bounds":[10.0],');
    const gauge = await rows('metrics', { name: 'cpu.usage', limit: '1' });
    expect(gauge.rows).toEqual([
      {
        metric_name: 'cpu.usage',
        description: 'CPU',
        unit: '1',
        type: 'gauge',
        temporality: 0,
        is_monotonic: false,
        time_unix_nano: String(at(2)),
        start_time_unix_nano: String(T0),
        value: 1,
        attributes: { label: 'cpu-2' },
        flags: 0,
        exemplars: [],
        resource: { 'service.name': 'api' },
        scope_name: 'meter',
        scope_version: '1.2',
        service_name: 'api',
      },
    ]);
    const sum = await rows('metrics', { name: 'requests', service: 'api' });
    expect(sum.rows.map((r) => [r['type'], r['temporality'], r['is_monotonic'], r['unit'], r['value']])).toEqual([['sum', 2, true, '{request}', 5]]);
  });

  it('keeps int and double values apart in the text: 5, 1.0, 0.5 and a 64-bit int as a string', async () => {
    const { text } = await rows('metrics');
    expect(rowText(text, 'metrics', 'req-api')).toContain('"value":5,');
    expect(rowText(text, 'metrics', 'cpu-2')).toContain('"value":1.0,');
    expect(rowText(text, 'metrics', 'cpu-1')).toContain('"value":0.5,');
    expect(rowText(text, 'metrics', 'req-web')).toContain('"value":"9007199254740993",');
  });
});

describe('limits over more than 100 rows', () => {
  it.each([
    ['logs', BULK_LOGS, 'bulk'],
    ['spans', BULK_SPANS, 'span'],
    ['metrics', BULK_POINTS, 'point'],
  ] as const)('%s: the default is exactly 100, the newest; 10000 gives all; 1 gives the newest', async (what, total, prefix) => {
    expect(await markers(what, {}, 'c')).toEqual(descending(prefix, total - 1, total - 100));
    expect(await markers(what, { limit: '100' }, 'c')).toEqual(descending(prefix, total - 1, total - 100));
    expect(await markers(what, { limit: '10000' }, 'c')).toEqual(descending(prefix, total - 1, 0));
    expect(await markers(what, { limit: '101' }, 'c')).toEqual(descending(prefix, total - 1, total - 101));
    expect(await markers(what, { limit: '1' }, 'c')).toEqual([`${prefix} ${pad(total - 1)}`]);
    // A window and a limit: the newest of the window.
    expect(await markers(what, { from: String(T0 + 10_000_000n), to: String(T0 + 20_000_000n), limit: '3' }, 'c')).toEqual(descending(prefix, 19, 17));
  });
});

describe('OTLP type fidelity in the answer text', () => {
  it('logs: int 5 as 5, double 5 as 5.0, a big int as a string, bytes as base64, bool, array and kvlist map', async () => {
    const { rows: found, text } = await rows('logs', { trace_id: TRACE_B });
    expect(found.map((r) => r['attributes'])).toEqual([TYPED_PARSED]);
    expect(text).toContain(`"attributes":{${TYPED_JSON}},`);
  });

  it('spans: the same attribute types', async () => {
    const { rows: found, text } = await rows('spans');
    expect(found.find((r) => marker.spans(r) === 'orders-post')?.['attributes']).toEqual({ label: 'orders-post', ...TYPED_PARSED });
    expect(rowText(text, 'spans', 'orders-post')).toContain(`"attributes":{"label":"orders-post",${TYPED_JSON}},`);
    // Event attribute ints stay ints.
    expect(rowText(text, 'spans', 'select')).toContain('"attributes":{"attempt":2},');
  });

  it('metrics: the same attribute types on a data point', async () => {
    const { rows: found, text } = await rows('metrics');
    expect(found.find((r) => marker.metrics(r) === 'req-web')?.['attributes']).toEqual({ label: 'req-web', ...TYPED_PARSED });
    expect(rowText(text, 'metrics', 'req-web')).toContain(`"attributes":{"label":"req-web",${TYPED_JSON}},`);
  });
});

describe('project isolation', () => {
  it.each([
    ['logs', {}, ['b otlp', 'b second', 'b first']],
    ['logs', { trace_id: TRACE_A }, ['b otlp']],
    ['logs', { trace_id: 'req-abc-1' }, ['b first']],
    ['logs', { service: 'checkout' }, []],
    ['logs', { service: 'typed' }, []],
    ['logs', { q: 'login' }, []],
    ['logs', { limit: '10000' }, ['b otlp', 'b second', 'b first']],
    ['spans', {}, ['b-span']],
    ['spans', { trace_id: TRACE_1 }, ['b-span']],
    ['spans', { name: 'GET /users' }, ['b-span']],
    ['spans', { service: 'checkout' }, []],
    ['metrics', {}, ['b-cpu']],
    ['metrics', { name: 'cpu.usage' }, ['b-cpu']],
    ['metrics', { name: 'requests' }, []],
    ['metrics', { service: 'web' }, []],
  ] as const)("project b's key reads only b's %s (%o)", async (what, params, expected) => {
    expect(await markers(what, params, 'b')).toEqual(expected);
  });

  it("a payload of project a with resource attribute project.id: b stays in a, the attribute an ordinary one of a's resource", async () => {
    const claimed = { 'service.name': 'typed', 'project.id': 'b' };
    expect((await rows('logs', { service: 'typed' })).rows.map((r) => [r['body'], r['resource']])).toEqual([
      ['observed only', claimed],
      ['typed attributes', claimed],
    ]);
    expect((await rows('spans', { service: 'checkout' })).rows.map((r) => [marker.spans(r), r['resource']])).toEqual([['orders-post', { 'service.name': 'checkout', 'project.id': 'b' }]]);
    expect((await rows('metrics', { service: 'web' })).rows.map((r) => [marker.metrics(r), r['resource']])).toEqual([
      ['lat', { 'service.name': 'web', 'project.id': 'b' }],
      ['req-web', { 'service.name': 'web', 'project.id': 'b' }],
    ]);
    const { text } = await rows('logs', { service: 'typed' });
    expect(text).toContain('"resource":{"service.name":"typed","project.id":"b"},');
  });

  it('a project with nothing stored answers no rows on every endpoint', async () => {
    // Project c has rows, but none of a's or b's; with a filter matching only a's rows, c reads nothing.
    expect(await markers('logs', { service: 'api' }, 'c')).toEqual([]);
    expect(await markers('spans', { service: 'api' }, 'c')).toEqual([]);
    expect(await markers('metrics', { name: 'cpu.usage' }, 'c')).toEqual([]);
  });
});

const LOG_PARAMS = 'from, to, service, limit, severity_min, trace_id, q';
const SPAN_PARAMS = 'from, to, service, limit, trace_id, name';
const METRIC_PARAMS = 'from, to, service, limit, name';
const timeMessage = (name: string, value: string) => `${name} must be an ISO 8601 date-time (2026-11-22T08:00:00Z) or nanoseconds since the epoch; got "${value}"`;
const limitMessage = (value: string) => `limit must be an integer from 1 to 10000; got "${value}"`;

describe('400 for a bad parameter, naming it', () => {
  it.each([
    ['logs', 'from=yesterday', timeMessage('from', 'yesterday')],
    ['logs', 'from=2027-01-15', timeMessage('from', '2027-01-15')],
    ['logs', 'from=-5', timeMessage('from', '-5')],
    ['logs', 'from=1.5', timeMessage('from', '1.5')],
    ['logs', 'from=9223372036854775808', timeMessage('from', '9223372036854775808')],
    ['spans', 'to=2027-13-01T00:00:00Z', timeMessage('to', '2027-13-01T00:00:00Z')],
    ['metrics', 'to=soon', timeMessage('to', 'soon')],
    ['logs', `from=${at(2)}&to=${at(2)}`, 'to must be after from'],
    ['spans', `from=${at(3)}&to=${at(2)}`, 'to must be after from'],
    ['metrics', `from=${encodeURIComponent(iso(at(2)))}&to=${at(2)}`, 'to must be after from'],
    ['logs', 'limit=0', limitMessage('0')],
    ['logs', 'limit=x', limitMessage('x')],
    ['logs', 'limit=10001', limitMessage('10001')],
    ['spans', 'limit=-1', limitMessage('-1')],
    ['metrics', 'limit=1.5', limitMessage('1.5')],
    ['metrics', 'limit=10001', limitMessage('10001')],
    ['logs', 'severity_min=0', 'severity_min must be an integer from 1 to 24; got "0"'],
    ['logs', 'severity_min=25', 'severity_min must be an integer from 1 to 24; got "25"'],
    ['logs', 'severity_min=nonsense', 'severity_min must be a severity number from 1 to 24 or a level name (debug, info, warn, error, fatal, ...); got "nonsense"'],
    ['logs', 'foo=1', `unknown parameter foo; known here: ${LOG_PARAMS}`],
    ['logs', 'Limit=5', `unknown parameter Limit; known here: ${LOG_PARAMS}`],
    ['logs', 'name=x', `unknown parameter name; known here: ${LOG_PARAMS}`],
    ['spans', 'q=x', `unknown parameter q; known here: ${SPAN_PARAMS}`],
    ['spans', 'severity_min=9', `unknown parameter severity_min; known here: ${SPAN_PARAMS}`],
    ['metrics', 'q=x', `unknown parameter q; known here: ${METRIC_PARAMS}`],
    ['metrics', 'trace_id=x', `unknown parameter trace_id; known here: ${METRIC_PARAMS}`],
    ['logs', 'service=api&service=web', 'service is given more than once'],
    ['logs', 'limit=1&limit=1', 'limit is given more than once'],
    ['spans', 'name=a&name=b', 'name is given more than once'],
    ['logs', 'service=', 'service is empty'],
    ['logs', 'q=', 'q is empty'],
    ['logs', 'from=', 'from is empty'],
    ['spans', 'trace_id=', 'trace_id is empty'],
    ['metrics', 'name=', 'name is empty'],
    ['metrics', 'limit', 'limit is empty'],
  ])('%s?%s', async (what, query, message) => {
    const response = await raw(`/api/v1/query/${what}?${query}`, { headers: bearer() });
    expect([response.status, response.headers.get('content-type'), JSON.parse(response.text)]).toEqual([400, 'application/json', { message }]);
  });
});

const NOT_FOUND =
  'Not found. The read API serves GET /api/v1/query/logs, /api/v1/query/spans, /api/v1/query/metrics, /api/v1/query/log_counts, /api/v1/query/trace_summaries, ' +
  '/api/v1/query/metric_names, /api/v1/query/metric_series, /api/v1/query/error_groups.';

describe('401, 404, 405', () => {
  it.each(['logs', 'spans', 'metrics'])('%s: 401 {"message":"API key invalid."} without a key, with a wrong key, and before any parameter check', async (what) => {
    const wrongSecret = `${(gw.keys['a'] as string).slice(0, -4)}XXXX`;
    for (const headers of [{}, { Authorization: 'Bearer otg_aaaaaaaaaa_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }, { Authorization: `Bearer ${wrongSecret}` }, { 'X-Service-Key': 'nope' }]) {
      for (const query of ['', '?limit=0']) {
        const response = await raw(`/api/v1/query/${what}${query}`, { headers });
        expect([response.status, response.text]).toEqual([401, '{"message":"API key invalid."}']);
      }
    }
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('%s: 405 with Allow: GET on all three endpoints', async (method) => {
    for (const what of ['logs', 'spans', 'metrics']) {
      const response = await raw(`/api/v1/query/${what}`, { method, headers: bearer() });
      expect([response.status, response.headers.get('allow'), JSON.parse(response.text)]).toEqual([405, 'GET', { message: `Method ${method} is not allowed here; use GET.` }]);
    }
  });

  it.each(['/api/v1/query/other', '/api/v1/query/traces', '/api/v1/query/', '/api/v1/query/logs/', '/api/v1/query/logs/x', '/api/v1/query/Logs'])('404 for %s', async (path) => {
    const response = await raw(path, { headers: bearer() });
    expect([response.status, JSON.parse(response.text)]).toEqual([
      404,
      { message: NOT_FOUND },
    ]);
  });

  // The names of Object.prototype's members are not signals (they once were, and answered 503).
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('404 for /api/v1/query/%s (an Object.prototype member name)', async (name) => {
    const response = await raw(`/api/v1/query/${name}`, { headers: bearer() });
    expect([response.status, JSON.parse(response.text)]).toEqual([
      404,
      { message: NOT_FOUND },
    ]);
  });
});
