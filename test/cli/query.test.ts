// `otelgate query logs|spans|metrics`: the store's rows from the command line, as NDJSON, read
// from the store file of a running gateway's config. Every filter flag, the exit codes and
// messages of bad flags, project isolation, a config without a store, and that every row is
// exactly what the read API answers for the same filters.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { GATEWAY_CONFIG, startGateway, STORE_CONFIG, type Gateway } from '../helpers/gateway.js';
import { at, iso, label, SP, str, T0, T_FAILED, T_LAT, T_USERS2, TRACE_1, TRACE_2, TRACE_3, TRACE_A } from '../helpers/query-fixture.js';

type What = 'logs' | 'spans' | 'metrics';
type Row = Record<string, unknown>;

const TYPED = [
  { key: 'int', value: { intValue: '5' } },
  { key: 'double', value: { doubleValue: 5 } },
  { key: 'big', value: { intValue: '9007199254740993' } },
  { key: 'bytes', value: { bytesValue: '3q2+7w==' } },
  { key: 'bool', value: { boolValue: true } },
  { key: 'array', value: { arrayValue: { values: [{ stringValue: 'x' }, { intValue: '1' }] } } },
  { key: 'map', value: { kvlistValue: { values: [str('k', 'v')] } } },
];
const TYPED_JSON = '"int":5,"double":5.0,"big":"9007199254740993","bytes":"3q2+7w==","bool":true,"array":["x",1],"map":{"k":"v"}';
const CLAIMING_B = (service: string) => [str('service.name', service), str('project.id', 'b')];

const KV_BODY = '{"error":"card declined","code":51}';
const SIMPLE_LOGS_A = [
  { message: 'boot sequence start', level: 'debug', timestamp: iso(at(1)), service: 'api', trace_id: 'req-abc-1' },
  { message: 'User login ok', level: 'info', timestamp: iso(at(2)), service: 'api', trace_id: 'req-abc-1' },
  { message: 'user login failed', level: 'warn', timestamp: iso(T_FAILED), service: 'web' },
  { message: 'disk error', level: 'error', timestamp: iso(at(4)), service: 'worker', trace_id: 'req-xyz-2' },
  { message: 'fatal: out of memory', level: 'fatal', timestamp: iso(at(5)), service: 'worker' },
];
const OTLP_LOGS_A = {
  resourceLogs: [
    {
      resource: { attributes: CLAIMING_B('checkout') },
      scopeLogs: [
        {
          logRecords: [
            { timeUnixNano: String(at(7)), severityNumber: 9, body: { stringValue: 'otlp order placed' }, traceId: TRACE_A, attributes: TYPED },
            { timeUnixNano: String(at(8)), severityNumber: 17, body: { kvlistValue: { values: [str('error', 'card declined'), { key: 'code', value: { intValue: '51' } }] } }, traceId: TRACE_A },
          ],
        },
      ],
    },
  ],
};
const ALL_LOGS_A = [KV_BODY, 'otlp order placed', 'fatal: out of memory', 'disk error', 'user login failed', 'User login ok', 'boot sequence start'];

const span = (name: string, mark: string, traceId: string, spanId: string, start: bigint, extra: Record<string, unknown> = {}) => ({
  traceId,
  spanId,
  name,
  startTimeUnixNano: String(start),
  endTimeUnixNano: String(start + 250_000_000n),
  attributes: [label(mark)],
  ...extra,
});
const SPANS_A = {
  resourceSpans: [
    { resource: { attributes: [str('service.name', 'api')] }, scopeSpans: [{ spans: [span('GET /users', 'users-1', TRACE_1, SP(1), at(1)), span('GET /users', 'users-2', TRACE_3, SP(5), T_USERS2)] }] },
    { resource: { attributes: [str('service.name', 'db')] }, scopeSpans: [{ spans: [span('SELECT users', 'select', TRACE_1, SP(2), at(1.1), { parentSpanId: SP(1) })] }] },
    { resource: { attributes: CLAIMING_B('checkout') }, scopeSpans: [{ spans: [span('POST /orders', 'orders', TRACE_2, SP(4), at(3), { attributes: [label('orders'), ...TYPED] })] }] },
  ],
};
const ALL_SPANS_A = ['users-2', 'orders', 'select', 'users-1'];

const point = (mark: string, time: bigint, value: Record<string, unknown>) => ({ timeUnixNano: String(time), attributes: [label(mark)], ...value });
const METRICS_A = {
  resourceMetrics: [
    {
      resource: { attributes: [str('service.name', 'api')] },
      scopeMetrics: [{ metrics: [{ name: 'cpu.usage', gauge: { dataPoints: [point('cpu-1', at(1), { asDouble: 0.5 }), point('cpu-2', at(2), { asDouble: 1 })] } }] }],
    },
    {
      resource: { attributes: CLAIMING_B('web') },
      scopeMetrics: [
        {
          metrics: [
            { name: 'requests', sum: { aggregationTemporality: 2, isMonotonic: true, dataPoints: [point('req', at(3), { asInt: '9007199254740993' })] } },
            { name: 'latency', histogram: { aggregationTemporality: 1, dataPoints: [point('lat', T_LAT, { count: '3', sum: 30, bucketCounts: ['1', '2'], explicitBounds: [10] })] } },
          ],
        },
      ],
    },
  ],
};
const ALL_POINTS_A = ['lat', 'req', 'cpu-2', 'cpu-1'];

// Project c has a row of each signal of its own; project b has none; project d has more than 100 logs.
const LOGS_C = [{ message: 'c only', level: 'error', timestamp: iso(at(1)), service: 'api', trace_id: TRACE_A }];
const SPANS_C = { resourceSpans: [{ resource: { attributes: [str('service.name', 'api')] }, scopeSpans: [{ spans: [span('GET /users', 'c-span', TRACE_1, SP(9), at(1))] }] }] };
const METRICS_C = { resourceMetrics: [{ scopeMetrics: [{ metrics: [{ name: 'cpu.usage', gauge: { dataPoints: [point('c-cpu', at(1), { asInt: '3' })] } }] }] }] };
const BULK = 105;
const LOGS_D = Array.from({ length: BULK }, (_, i) => ({ message: `bulk ${String(i).padStart(3, '0')}`, timestamp: iso(T0 + BigInt(i)) }));

let gw: Gateway;
let config: string;

async function post(path: string, project: string, body: unknown): Promise<number> {
  const response = await fetch(`${gw.url}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${gw.keys[project] as string}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.text();
  return response.status;
}

const marker: Record<What, (row: Row) => unknown> = {
  logs: (row) => row['body'],
  spans: (row) => (row['attributes'] as Row)['label'],
  metrics: (row) => (row['attributes'] as Row)['label'],
};

/** --severity-min X etc. from {severity_min: X}. */
const flags = (params: Record<string, string>): string[] => Object.entries(params).flatMap(([name, value]) => [`--${name.replaceAll('_', '-')}`, value]);

function query(what: string, project: string | undefined, params: Record<string, string> = {}, extra: string[] = []): CliResult {
  return runCli(['query', what, ...(project === undefined ? [] : ['--project', project]), ...flags(params), '--config', config, ...extra]);
}

/** Runs the query, requires exit 0 and well-formed NDJSON, and returns its lines. */
function ndjson(what: What, project: string, params: Record<string, string> = {}): string[] {
  const result = query(what, project, params);
  expect([result.status, result.stderr]).toEqual([0, '']);
  if (result.stdout === '') return [];
  expect(result.stdout.endsWith('\n')).toBe(true);
  const lines = result.stdout.slice(0, -1).split('\n');
  for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
  return lines;
}

beforeAll(async () => {
  const dbPath = join(mkdtempSync(join(tmpdir(), 'otelgate-query-')), 'store.db');
  gw = await startGateway({ config: STORE_CONFIG(dbPath), projects: ['a', 'b', 'c', 'd'] });
  config = join(gw.dir, 'config.yaml');
  expect([
    await post('/api/v1/ingest', 'a', SIMPLE_LOGS_A),
    await post('/v1/logs', 'a', OTLP_LOGS_A),
    await post('/v1/traces', 'a', SPANS_A),
    await post('/v1/metrics', 'a', METRICS_A),
    await post('/api/v1/ingest', 'c', LOGS_C),
    await post('/v1/traces', 'c', SPANS_C),
    await post('/v1/metrics', 'c', METRICS_C),
    await post('/api/v1/ingest', 'd', LOGS_D),
  ]).toEqual([202, 200, 200, 200, 202, 200, 200, 202]);
});

afterAll(async () => {
  expect(await gw.stop()).toBe(0);
});

describe('every filter flag, and the same rows as the read API', () => {
  it.each([
    ['logs', {}, ALL_LOGS_A],
    ['logs', { from: String(T_FAILED) }, ALL_LOGS_A.slice(0, 5)],
    ['logs', { from: String(T_FAILED + 1n) }, ALL_LOGS_A.slice(0, 4)],
    ['logs', { from: iso(T_FAILED) }, ALL_LOGS_A.slice(0, 5)],
    ['logs', { to: String(T_FAILED) }, ['User login ok', 'boot sequence start']],
    ['logs', { to: iso(T_FAILED + 1n) }, ['user login failed', 'User login ok', 'boot sequence start']],
    ['logs', { from: iso(T_FAILED), to: String(T_FAILED + 1n) }, ['user login failed']],
    ['logs', { service: 'worker' }, ['fatal: out of memory', 'disk error']],
    ['logs', { service: 'checkout' }, [KV_BODY, 'otlp order placed']],
    ['logs', { limit: '1' }, [KV_BODY]],
    ['logs', { limit: '3' }, [KV_BODY, 'otlp order placed', 'fatal: out of memory']],
    ['logs', { limit: '10000' }, ALL_LOGS_A],
    ['logs', { severity_min: '13' }, [KV_BODY, 'fatal: out of memory', 'disk error', 'user login failed']],
    ['logs', { severity_min: 'warn' }, [KV_BODY, 'fatal: out of memory', 'disk error', 'user login failed']],
    ['logs', { severity_min: 'fatal' }, ['fatal: out of memory']],
    ['logs', { severity_min: '24' }, []],
    ['logs', { trace_id: TRACE_A }, [KV_BODY, 'otlp order placed']],
    ['logs', { trace_id: 'req-abc-1' }, ['User login ok', 'boot sequence start']],
    ['logs', { trace_id: 'req-abc' }, []],
    ['logs', { q: 'login' }, ['user login failed', 'User login ok']],
    ['logs', { q: 'User' }, ['User login ok']],
    ['logs', { q: 'card declined' }, [KV_BODY]],
    ['logs', { service: 'api', severity_min: 'info', q: 'o', from: iso(at(1)), to: iso(at(3)), trace_id: 'req-abc-1', limit: '5' }, ['User login ok']],
    ['spans', {}, ALL_SPANS_A],
    ['spans', { from: String(T_USERS2) }, ['users-2']],
    ['spans', { to: iso(T_USERS2) }, ALL_SPANS_A.slice(1)],
    ['spans', { to: String(T_USERS2 + 1n) }, ALL_SPANS_A],
    ['spans', { service: 'api' }, ['users-2', 'users-1']],
    ['spans', { name: 'GET /users' }, ['users-2', 'users-1']],
    ['spans', { name: 'get /users' }, []],
    ['spans', { trace_id: TRACE_1 }, ['select', 'users-1']],
    ['spans', { trace_id: TRACE_2.toUpperCase() }, ['orders']],
    ['spans', { limit: '2' }, ['users-2', 'orders']],
    ['spans', { name: 'GET /users', service: 'api', to: String(at(4)) }, ['users-1']],
    ['metrics', {}, ALL_POINTS_A],
    ['metrics', { from: String(T_LAT) }, ['lat']],
    ['metrics', { from: iso(T_LAT + 1n) }, []],
    ['metrics', { to: String(T_LAT) }, ALL_POINTS_A.slice(1)],
    ['metrics', { name: 'cpu.usage' }, ['cpu-2', 'cpu-1']],
    ['metrics', { name: 'latency' }, ['lat']],
    ['metrics', { service: 'web' }, ['lat', 'req']],
    ['metrics', { limit: '1' }, ['lat']],
    ['metrics', { name: 'cpu.usage', from: String(at(2)), limit: '10000' }, ['cpu-2']],
  ] as const)('%s %o', async (what, params, expected) => {
    const lines = ndjson(what, 'a', params);
    expect(lines.length).toBe(expected.length);
    const found = lines.map((line) => JSON.parse(line) as Row);
    expect(found.map(marker[what])).toEqual(expected);
    // The read API with the same filters: the same objects, and the very same JSON text.
    const api = await gw.read(what, gw.keys['a'], params);
    expect(api.status).toBe(200);
    expect(found).toEqual(api.body.rows);
    expect(`{"rows":[${lines.join(',')}]}`).toBe(api.text);
  });

  it('prints exactly 100 rows by default when more are stored, the newest first', () => {
    const lines = ndjson('logs', 'd');
    expect(lines.length).toBe(100);
    expect(lines.map((line) => (JSON.parse(line) as Row)['body'])).toEqual(Array.from({ length: 100 }, (_, i) => `bulk ${String(BULK - 1 - i).padStart(3, '0')}`));
    expect(ndjson('logs', 'd', { limit: '10000' }).length).toBe(BULK);
  });

  it('keeps the OTLP types of the JSON text: int 5, double 5.0, a big int as a string, bytes as base64, kvlist body as a string', () => {
    const [typed] = ndjson('logs', 'a', { q: 'otlp order placed' });
    expect(typed).toContain(`"attributes":{${TYPED_JSON}},`);
    const [kv] = ndjson('logs', 'a', { q: 'card declined' });
    expect(kv).toContain(`"body":${JSON.stringify(KV_BODY)},`);
    expect(ndjson('spans', 'a', { name: 'POST /orders' })[0]).toContain(`"attributes":{"label":"orders",${TYPED_JSON}},`);
    expect(ndjson('metrics', 'a', { name: 'requests' })[0]).toContain('"value":"9007199254740993",');
    expect(ndjson('metrics', 'a', { name: 'cpu.usage' }).map((line) => /"value":([^,]*),/.exec(line)?.[1])).toEqual(['1.0', '0.5']);
  });

  it('reads the store named by --exporter', () => {
    const result = query('spans', 'a', { limit: '1' }, ['--exporter', 'store']);
    expect([result.status, result.stderr, result.stdout.split('\n').length]).toEqual([0, '', 2]);
  });
});

describe('project isolation', () => {
  it.each([
    ['logs', {}],
    ['logs', { trace_id: TRACE_A }],
    ['logs', { service: 'checkout' }],
    ['spans', {}],
    ['spans', { trace_id: TRACE_1 }],
    ['metrics', {}],
    ['metrics', { name: 'requests' }],
  ] as const)("--project b reads nothing of project a's %s %o, though a's payloads say project.id: b", (what, params) => {
    const result = query(what, 'b', params);
    expect([result.status, result.stdout, result.stderr]).toEqual([0, '', '']);
  });

  it('--project c reads its own rows only', () => {
    expect(ndjson('logs', 'c').map((line) => (JSON.parse(line) as Row)['body'])).toEqual(['c only']);
    expect(ndjson('logs', 'c', { trace_id: TRACE_A }).map((line) => (JSON.parse(line) as Row)['body'])).toEqual(['c only']);
    expect(ndjson('spans', 'c', { trace_id: TRACE_1 }).map((line) => marker.spans(JSON.parse(line) as Row))).toEqual(['c-span']);
    expect(ndjson('metrics', 'c', { name: 'cpu.usage' }).map((line) => marker.metrics(JSON.parse(line) as Row))).toEqual(['c-cpu']);
  });

  it("shows a's project.id attribute as an ordinary resource attribute", () => {
    expect(ndjson('logs', 'a', { service: 'checkout' }).map((line) => (JSON.parse(line) as Row)['resource'])).toEqual([
      { 'service.name': 'checkout', 'project.id': 'b' },
      { 'service.name': 'checkout', 'project.id': 'b' },
    ]);
  });

  it('an unknown project reads nothing', () => {
    const result = query('logs', 'nobody');
    expect([result.status, result.stdout, result.stderr]).toEqual([0, '', '']);
  });
});

const LOG_FLAGS = '--from, --to, --service, --limit, --severity-min, --trace-id, --q';
const SPAN_FLAGS = '--from, --to, --service, --limit, --trace-id, --name';
const METRIC_FLAGS = '--from, --to, --service, --limit, --name';
const timeMessage = (flag: string, value: string) => `${flag} must be an ISO 8601 date-time (2026-11-22T08:00:00Z) or nanoseconds since the epoch; got "${value}"`;

describe('bad flags exit 2 naming the flag', () => {
  it.each([
    ['logs', { limit: '0' }, '--limit must be an integer from 1 to 10000; got "0"'],
    ['logs', { limit: 'x' }, '--limit must be an integer from 1 to 10000; got "x"'],
    ['spans', { limit: '10001' }, '--limit must be an integer from 1 to 10000; got "10001"'],
    ['logs', { from: 'yesterday' }, timeMessage('--from', 'yesterday')],
    ['metrics', { from: '2027-01-15' }, timeMessage('--from', '2027-01-15')],
    ['logs', { to: 'later' }, timeMessage('--to', 'later')],
    ['logs', { from: String(at(2)), to: String(at(2)) }, '--to must be after --from'],
    ['logs', { severity_min: '0' }, '--severity-min must be an integer from 1 to 24; got "0"'],
    ['logs', { severity_min: '25' }, '--severity-min must be an integer from 1 to 24; got "25"'],
    ['logs', { severity_min: 'nonsense' }, '--severity-min must be a severity number from 1 to 24 or a level name (debug, info, warn, error, fatal, ...); got "nonsense"'],
    ['logs', { service: '' }, '--service is empty'],
    ['spans', { q: 'x' }, `unknown parameter --q; known here: ${SPAN_FLAGS}`],
    ['metrics', { q: 'x' }, `unknown parameter --q; known here: ${METRIC_FLAGS}`],
    ['metrics', { severity_min: '9' }, `unknown parameter --severity-min; known here: ${METRIC_FLAGS}`],
    ['metrics', { trace_id: TRACE_1 }, `unknown parameter --trace-id; known here: ${METRIC_FLAGS}`],
    ['logs', { name: 'x' }, `unknown parameter --name; known here: ${LOG_FLAGS}`],
  ] as const)('%s %o', (what, params, message) => {
    const result = query(what, 'a', params);
    expect([result.status, result.stdout, result.stderr]).toEqual([2, '', `otelgate query: ${message}\n`]);
  });

  it('exits 2 for a filter given twice, as the read API answers 400', () => {
    const result = query('logs', 'a', {}, ['--limit', '1', '--limit', '2']);
    expect([result.status, result.stdout, result.stderr]).toEqual([2, '', 'otelgate query: --limit is given more than once\n']);
  });

  it('exits 2 without --project, or with an empty one', () => {
    for (const project of [undefined, '', '  ']) {
      const result = query('logs', project);
      expect([result.status, result.stdout, result.stderr]).toEqual([2, '', 'otelgate query: --project NAME is required: rows are read one project at a time\n']);
    }
  });

  it('exits 2 without what to read, or with something else', () => {
    const none = runCli(['query', '--project', 'a', '--config', config]);
    expect([none.status, none.stdout, none.stderr]).toEqual([2, '', 'otelgate query: say what to read: logs, spans or metrics (got nothing)\n']);
    const traces = query('traces', 'a');
    expect([traces.status, traces.stdout, traces.stderr]).toEqual([2, '', 'otelgate query: say what to read: logs, spans or metrics (got "traces")\n']);
  });

  // An Object.prototype member name is not a signal (it once was, and failed inside the reader).
  it('exits 2 for "query constructor" as for any other unknown thing to read', () => {
    const result = query('constructor', 'a');
    expect([result.status, result.stdout, result.stderr]).toEqual([2, '', 'otelgate query: say what to read: logs, spans or metrics (got "constructor")\n']);
  });
});

describe('configs that cannot be queried exit 1', () => {
  it('a config with no store exporter', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'otelgate-query-')), 'config.yaml');
    writeFileSync(file, GATEWAY_CONFIG(gw.keysFile));
    const result = runCli(['query', 'logs', '--project', 'a', '--config', file]);
    expect([result.status, result.stdout, result.stderr]).toEqual([
      1,
      '',
      'otelgate query: the config has no store exporter, so there is nothing to query; give the --config of the otelgate that stores the data\n',
    ]);
  });

  it('an --exporter the config does not have', () => {
    const result = query('logs', 'a', {}, ['--exporter', 'store/other']);
    expect([result.status, result.stdout, result.stderr]).toEqual([1, '', 'otelgate query: no store exporter "store/other" in the config (found: store)\n']);
  });

  it('a store file that does not exist yet', () => {
    const dir = mkdtempSync(join(tmpdir(), 'otelgate-query-'));
    const file = join(dir, 'config.yaml');
    writeFileSync(file, STORE_CONFIG(join(dir, 'missing.db'))(gw.keysFile));
    const result = runCli(['query', 'logs', '--project', 'a', '--config', file]);
    expect([result.status, result.stdout, result.stderr]).toEqual([
      1,
      '',
      `otelgate query: no store at ${join(dir, 'missing.db')}: nothing has been stored yet, or the config names another path\n`,
    ]);
  });
});
