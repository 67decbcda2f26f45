// The filter processor in a pipeline of the built otelgate, over real HTTP, with a store behind it,
// and a second pipeline fed by the same receiver without it: the first store holds exactly what
// the conditions leave, the second exactly what was sent. The client is answered as if nothing
// had been dropped, and the drops are counted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sample } from '../../helpers/forwarder.js';
import { startGateway, type Gateway } from '../../helpers/gateway.js';
import { ALL, postJson, processedAndRaw, storedRaw } from '../../helpers/processed.js';

const config = processedAndRaw(
  `filter/noise:
  error_mode: ignore
  logs:
    log_record:
      - 'attributes["http.route"] == "/health"'
      - 'severity_number < SEVERITY_NUMBER_INFO and severity_number != SEVERITY_NUMBER_UNSPECIFIED'
      - 'project == "blog" and IsMatch(body, "^debug:")'
      - 'attributes["user"] != nil and ToLowerCase(attributes["user"]) == "bot"'
  traces:
    span: ['attributes["http.route"] == "/health"']
    spanevent: ['name == "cache lookup"']`,
  ['filter/noise'],
  ['logs', 'traces'],
  'telemetry: {metrics: {readers: [{pull: {exporter: {prometheus: {host: 127.0.0.1, port: 0}}}}]}}',
);

type Log = { body: string; severityNumber?: number; attributes?: Record<string, string | number> };

const SHOP: Log[] = [
  { body: 'GET /health', severityNumber: 9, attributes: { 'http.route': '/health' } },
  { body: 'GET /cart', severityNumber: 9, attributes: { 'http.route': '/cart' } },
  { body: 'cache miss', severityNumber: 5 },
  { body: 'no severity' },
  { body: 'debug: shop keeps this', severityNumber: 9 },
  { body: 'a user id that is a number', severityNumber: 9, attributes: { user: 5 } },
  { body: 'a bot', severityNumber: 9, attributes: { user: 'BOT' } },
];
const BLOG: Log[] = [
  { body: 'debug: blog drops this', severityNumber: 9 },
  { body: 'hello', severityNumber: 9 },
];

function otlpJson(logs: Log[]): string {
  const value = (v: string | number) => (typeof v === 'number' ? { intValue: String(v) } : { stringValue: v });
  const logRecords = logs.map((log, i) => ({
    timeUnixNano: String(1_763_800_000_000_000_000n + BigInt(i)),
    body: { stringValue: log.body },
    ...(log.severityNumber === undefined ? {} : { severityNumber: log.severityNumber }),
    attributes: Object.entries(log.attributes ?? {}).map(([key, v]) => ({ key, value: value(v) })),
  }));
  return JSON.stringify({ resourceLogs: [{ resource: { attributes: [] }, scopeLogs: [{ scope: {}, logRecords }] }] });
}

/** Spans by name, each with a route and events by name. */
function otlpSpans(spans: { name: string; route: string; events: string[] }[]): string {
  const t0 = 1_763_800_000_000_000_000n;
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [] },
        scopeSpans: [
          {
            scope: {},
            spans: spans.map((span, i) => ({
              traceId: '5b8efff798038103d269b633813fc60c',
              spanId: `eee19b7ec3c1b17${i}`,
              name: span.name,
              kind: 2,
              startTimeUnixNano: String(t0),
              endTimeUnixNano: String(t0 + 1_000_000n),
              attributes: [{ key: 'http.route', value: { stringValue: span.route } }],
              events: span.events.map((name) => ({ timeUnixNano: String(t0 + 10n), name })),
            })),
          },
        ],
      },
    ],
  });
}

let gateway: Gateway;

beforeAll(async () => {
  gateway = await startGateway({ projects: ['shop', 'blog'], config });
});

afterAll(async () => {
  await gateway?.stop();
});

describe('the filter processor in a pipeline', () => {
  it('stores what its conditions leave, while the other pipeline stores everything; answers {} and counts the drops', async () => {
    for (const [project, logs] of [['shop', SHOP], ['blog', BLOG]] as const) {
      expect(await postJson(gateway, '/v1/logs', project, otlpJson(logs))).toEqual([200, '{}']);
    }

    const filtered = async (project: string): Promise<string[]> => ((await gateway.read('logs', gateway.keys[project], ALL)).body.rows ?? []).map((row) => String(row['body'])).sort();
    expect(await filtered('shop')).toEqual(['GET /cart', 'a user id that is a number', 'debug: shop keeps this', 'no severity']);
    expect(await filtered('blog')).toEqual(['hello']);

    const bodies = (project: string): string[] => storedRaw(gateway, 'logs', project).map((row) => String(row['body'])).sort();
    expect(bodies('shop')).toEqual(SHOP.map((log) => log.body).sort());
    expect(bodies('blog')).toEqual(BLOG.map((log) => log.body).sort());

    // error_mode: ignore: the number the condition could not lower-case is kept, and said once.
    const ignored = gateway.run.lines.filter((l) => l.msg.startsWith('A filter condition could not be evaluated'));
    expect(ignored.map((l) => [l['condition'], l['err'], l['failures']])).toEqual([['attributes["user"] != nil and ToLowerCase(attributes["user"]) == "bot"', 'ToLowerCase: expected string but got int64', 1]]);

    const metricsAt = gateway.run.lines.find((l) => l.msg === 'Serving metrics')?.['endpoint'];
    const lines = (await (await fetch(`http://${String(metricsAt)}/metrics`)).text()).split('\n');
    expect(sample(lines, 'otelcol_processor_filter_logs_filtered_total', 'filter="filter/noise"')).toBe(4);
  });

  it('drops the spans and span events its trace conditions match, while the other pipeline stores them all', async () => {
    const spans = otlpSpans([
      { name: 'GET /health', route: '/health', events: [] },
      { name: 'GET /cart', route: '/cart', events: ['cache lookup', 'rendered', 'cache lookup'] },
      { name: 'POST /orders', route: '/orders', events: ['validated'] },
    ]);
    expect(await postJson(gateway, '/v1/traces', 'shop', spans)).toEqual([200, '{}']);
    const shape = (rows: Record<string, unknown>[]): [string, string[]][] =>
      rows.map((row): [string, string[]] => [String(row['name']), (row['events'] as { name: string }[]).map((e) => e.name)]).sort((a, b) => a[0].localeCompare(b[0]));
    expect(shape((await gateway.read('spans', gateway.keys['shop'], ALL)).body.rows ?? [])).toEqual([
      ['GET /cart', ['rendered']],
      ['POST /orders', ['validated']],
    ]);
    expect(shape(storedRaw(gateway, 'spans', 'shop'))).toEqual([
      ['GET /cart', ['cache lookup', 'rendered', 'cache lookup']],
      ['GET /health', []],
      ['POST /orders', ['validated']],
    ]);
    const metricsAt = gateway.run.lines.find((l) => l.msg === 'Serving metrics')?.['endpoint'];
    const lines = (await (await fetch(`http://${String(metricsAt)}/metrics`)).text()).split('\n');
    expect(sample(lines, 'otelcol_processor_filter_spans_filtered_total', 'filter="filter/noise"')).toBe(1);
  });
});
