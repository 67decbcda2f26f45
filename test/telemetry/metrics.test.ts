// otelgate's own metrics on the built server: the Collector's names, counts that match what
// happened, and a number of series that stays flat whatever paths, methods and user agents
// clients send.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../helpers/gateway.js';

const READER = 'service: {telemetry: {metrics: {readers: [{pull: {exporter: {prometheus: {host: 127.0.0.1, port: 0}}}}]}}}';

let gw: Gateway;
let metricsUrl: string;

async function scrape(): Promise<string[]> {
  const response = await fetch(metricsUrl);
  expect(response.status).toBe(200);
  return (await response.text()).split('\n').filter((line) => line !== '' && !line.startsWith('#'));
}

const value = (lines: string[], name: string, ...labels: string[]): number | undefined => {
  const line = lines.find((l) => l.startsWith(`${name}{`) && labels.every((label) => l.includes(label)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
};

beforeAll(async () => {
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const extra = join(mkdtempSync(join(tmpdir(), 'otelgate-metrics-')), 'telemetry.yaml');
  writeFileSync(extra, `${READER}\n`);
  gw = await startGateway({ configs: [extra] });
  metricsUrl = `http://${String(gw.run.lines.find((l) => l.msg === 'Serving metrics')?.['endpoint'])}/metrics`;
});

afterAll(async () => {
  await gw.stop();
});

const key = () => ({ 'X-Service-Key': gw.keys['default'] as string });

describe("otelgate's own metrics", () => {
  it('count accepted, skipped and exported records under the Collector\'s names', async () => {
    const body = JSON.stringify([{ message: 'a' }, { message: 'b' }, { message: 'c' }, { level: 'no message' }]);
    expect((await fetch(`${gw.url}/api/v1/ingest`, { method: 'POST', body, headers: key() })).status).toBe(202);
    const spans = JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b174' }] }] }] });
    expect((await fetch(`${gw.url}/v1/traces`, { method: 'POST', body: spans, headers: { ...key(), 'Content-Type': 'application/json' } })).status).toBe(200);
    const lines = await scrape();
    expect(value(lines, 'otelcol_receiver_accepted_log_records_total', 'receiver="ingest"', 'transport="http"')).toBe(3);
    expect(value(lines, 'otelcol_receiver_accepted_spans_total', 'receiver="ingest"')).toBe(1);
    expect(value(lines, 'otelgate_receiver_skipped_records_total', 'signal="logs"')).toBe(1);
    expect(value(lines, 'otelcol_exporter_sent_log_records_total', 'exporter="debug"')).toBe(3);
    expect(value(lines, 'otelcol_exporter_sent_spans_total', 'exporter="debug"')).toBe(1);
    expect(value(lines, 'http_server_request_duration_count', 'http_route="/api/v1/ingest"', 'http_response_status_code="202"', 'http_request_method="POST"')).toBe(1);
    expect(lines.filter((l) => l.startsWith('http_server_request_duration_bucket{') && l.includes('http_response_status_code="202"')).map((l) => /le="([^"]+)"/.exec(l)?.[1])).toEqual(
      ['0.005', '0.01', '0.025', '0.05', '0.075', '0.1', '0.25', '0.5', '0.75', '1', '2.5', '5', '7.5', '10', '+Inf'],
    );
  });

  it('count the items of a Sentry envelope that are taken but not stored, by type, any unknown type as one', async () => {
    const items = ['client_report', 'session', 'session', 'made_up', 'toString'].map((type) => `{"type":"${type}"}\n{}`);
    const envelope = ['{}', ...items].join('\n');
    expect((await fetch(`${gw.url}/api/1/envelope/`, { method: 'POST', body: envelope, headers: key() })).status).toBe(200);
    const lines = await scrape();
    const ignored = (type: string) => value(lines, 'otelgate_receiver_ignored_items_total', 'receiver="ingest"', `type="${type}"`);
    expect([ignored('client_report'), ignored('session'), ignored('unknown')]).toEqual([1, 2, 2]);
  });

  it('keep the same series whatever paths, methods and user agents clients send', async () => {
    const statuses = async (requests: [string, string][], userAgent: (i: number) => string) => {
      for (const [i, [method, path]] of requests.entries()) {
        await fetch(`${gw.url}${path}`, { method, headers: { 'User-Agent': userAgent(i), ...key() } }).then((r) => r.arrayBuffer());
      }
    };
    const methods = ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'POST', 'PROPFIND', 'MKCOL'];
    await statuses(
      methods.map((m) => [m, '/warm-up']),
      () => 'warm-up',
    );
    await statuses(
      methods.map((m) => [m, '/api/v1/logs']),
      () => 'warm-up',
    );
    const before = await scrape();
    const random = Array.from({ length: 300 }, (_, i): [string, string] => [methods[i % methods.length] as string, `/${i.toString(36)}/${'x'.repeat(i % 7)}?q=${i}`]);
    await statuses(random, (i) => `agent-${i}`);
    await statuses(
      methods.map((m, i): [string, string] => [m, `/api/v1/logs?n=${i}`]),
      (i) => `other-agent-${i}`,
    );
    const after = await scrape();
    const names = (lines: string[]) => lines.map((line) => line.slice(0, line.lastIndexOf(' '))).sort();
    expect(names(after)).toEqual(names(before));
    expect(after.some((line) => line.includes('agent-') || line.includes('?q='))).toBe(false);
  });
});
