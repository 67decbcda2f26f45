// Round trips over real HTTP: each signal sent as OTLP JSON and as protobuf, stored, and read back
// through the read API and `otelgate query`; both encodings store exactly the same fields.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogRow, SpanRow } from '../../../src/model/index.js';
import type { Signal } from '../../../src/model/signal.js';
import { decodeOtlp } from '../../../src/otlp/decode.js';
import { ROOT, runCli } from '../../helpers/cli.js';
import { startGateway, STORE_CONFIG, type Gateway } from '../../helpers/gateway.js';
import { expectGolden } from '../../helpers/golden.js';
import { otlpJsonToProtobuf } from '../../helpers/otlp.js';

const READ_NAME = { logs: 'logs', traces: 'spans', metrics: 'metrics' } as const;
const PATHS = { logs: '/v1/logs', traces: '/v1/traces', metrics: '/v1/metrics' } as const;

let gw: Gateway;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'otelgate-roundtrip-'));
  gw = await startGateway({ config: STORE_CONFIG(join(dir, 'otelgate.db')), projects: ['viajson', 'viaproto', 'simple', 'upper', 'refused', 'big'] });
});
afterAll(async () => {
  expect(await gw.stop()).toBe(0);
});

async function post(path: string, key: string, contentType: string, body: Buffer | string): Promise<Response> {
  return fetch(gw.url + path, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': contentType }, body });
}

function query(what: string, project: string): string[] {
  const result = runCli(['query', what, '--project', project, '--limit', '10000', '--config', join(gw.dir, 'config.yaml')]);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout.split('\n').filter((line) => line !== '');
}

describe('store round trip', () => {
  it.each(['logs', 'traces', 'metrics'] as Signal[])('%s: OTLP JSON and protobuf are stored field for field alike and read back whole', async (signal) => {
    const json = readFileSync(`${ROOT}/testdata/otlp/${signal}.json`, 'utf8');
    const decoded = decodeOtlp(signal, 'json', Buffer.from(json));
    expect((await post(PATHS[signal], gw.keys['viajson'] as string, 'application/json', json)).status).toBe(200);
    const protobuf = otlpJsonToProtobuf(signal, JSON.parse(json));
    expect((await post(PATHS[signal], gw.keys['viaproto'] as string, 'application/x-protobuf', protobuf)).status).toBe(200);

    const what = READ_NAME[signal];
    const fromJson = await gw.read(what, gw.keys['viajson'], { limit: '10000' });
    const fromProtobuf = await gw.read(what, gw.keys['viaproto'], { limit: '10000' });
    expect(fromJson.status).toBe(200);
    expect(fromJson.body.rows).toHaveLength(decoded.rows.length);
    expect(fromProtobuf.text).toBe(fromJson.text);

    // otelgate query prints the same rows, one per line, byte for byte.
    const lines = query(what, 'viajson');
    expect(`{"rows":[${lines.join(',')}]}`).toBe(fromJson.text);
    expectGolden(`store/${signal}.ndjson`, `${lines.join('\n')}\n`);

    // Spot checks against the decoded rows, matched by time (the answer is newest first).
    const rows = fromJson.body.rows as Record<string, unknown>[];
    if (signal === 'logs') {
      for (const row of decoded.rows as LogRow[]) {
        const found = rows.filter(
          (r) => r['time_unix_nano'] === String(row.timeUnixNano) && r['observed_time_unix_nano'] === String(row.observedTimeUnixNano) && r['severity_number'] === row.severityNumber,
        );
        expect(found).toHaveLength(1);
        expect(found[0]).toMatchObject({ severity_number: row.severityNumber, severity_text: row.severityText, trace_id: row.traceId, span_id: row.spanId, flags: row.flags, event_name: row.eventName });
      }
    }
    if (signal === 'traces') {
      for (const row of decoded.rows as SpanRow[]) {
        const found = rows.filter((r) => r['span_id'] === row.spanId);
        expect(found).toHaveLength(1);
        expect(found[0]).toMatchObject({
          trace_id: row.traceId,
          parent_span_id: row.parentSpanId,
          name: row.name,
          kind: row.kind,
          start_time_unix_nano: String(row.startTimeUnixNano),
          end_time_unix_nano: String(row.endTimeUnixNano),
          duration_nano: String(row.endTimeUnixNano - row.startTimeUnixNano),
          status_code: row.statusCode,
        });
        expect((found[0]?.['events'] as unknown[]).length).toBe(row.events.length);
        expect((found[0]?.['links'] as unknown[]).length).toBe(row.links.length);
      }
    }
  });

  it('simple JSON logs: every field read back as sent', async () => {
    const record = {
      message: { nested: [1, 'two'] },
      level: 'warn',
      timestamp: '2026-11-20T10:00:00.123456789+01:00',
      service: 'billing',
      context: { user: { id: 7, roles: ['a', 'b'] }, ok: true },
      trace_id: 'not-a-hex-id',
      span_id: 'ABCDEF0123456789',
      scope: 'billing.worker',
      event: 'invoice.sent',
    };
    const answer = await post('/api/v1/ingest', gw.keys['simple'] as string, 'application/json', JSON.stringify([record]));
    expect(answer.status).toBe(202);
    expect(await answer.json()).toEqual({ accepted: 1, skipped: 0 });
    const read = await gw.read('logs', gw.keys['simple']);
    expect(read.body.rows).toHaveLength(1);
    const row = read.body.rows?.[0] as Record<string, unknown>;
    expect(row).toMatchObject({
      time_unix_nano: '1795165200123456789',
      severity_number: 13,
      severity_text: 'warn',
      body: '{"nested":[1,"two"]}',
      // Ids as sent, where they are not the lower-case hex a row's ids are, are kept in attributes.
      attributes: { 'user.id': '7', 'user.roles': '["a","b"]', ok: 'true', trace_id: 'not-a-hex-id', span_id: 'ABCDEF0123456789' },
      resource: { 'service.name': 'billing' },
      service_name: 'billing',
      scope_name: 'billing.worker',
      trace_id: '',
      span_id: 'abcdef0123456789',
      event_name: 'invoice.sent',
    });
    expect(BigInt(row['observed_time_unix_nano'] as string)).toBeGreaterThan(1795165200123456789n);
  });

  it('finds a simple JSON trace id sent in upper-case hex by either case, and keeps it as sent in attributes', async () => {
    const id = '5B8EFFF798038103D269B633813FC60C';
    expect((await post('/api/v1/ingest', gw.keys['upper'] as string, 'application/json', JSON.stringify({ message: 'upper', trace_id: id }))).status).toBe(202);
    for (const asked of [id, id.toLowerCase()]) {
      const read = await gw.read('logs', gw.keys['upper'], { trace_id: asked, from: '1970-01-01T00:00:00Z' });
      expect(read.status).toBe(200);
      expect(read.body.rows?.map((r) => [r['body'], r['trace_id'], (r['attributes'] as Record<string, unknown>)['trace_id']])).toEqual([['upper', id.toLowerCase(), id]]);
    }
  });

  it('finds a simple JSON trace id in mixed case by the exact text too', async () => {
    const id = '4bF92f3577b34da6a3ce929d0e0e4736';
    expect((await post('/api/v1/ingest', gw.keys['upper'] as string, 'application/json', JSON.stringify({ message: 'mixed', trace_id: id }))).status).toBe(202);
    const read = await gw.read('logs', gw.keys['upper'], { trace_id: id });
    expect(read.body.rows?.map((r) => [r['body'], r['trace_id'], (r['attributes'] as Record<string, unknown>)['trace_id']])).toEqual([['mixed', id.toLowerCase(), id]]);
  });

  it('skips and counts records whose values SQLite could not hold, instead of answering 503 for ever', async () => {
    const key = gw.keys['refused'] as string;
    const T = '1763798000000000000';
    const logs = (record: object) => ({ resourceLogs: [{ scopeLogs: [{ logRecords: [record, { timeUnixNano: T, body: { stringValue: 'kept' } }] }] }] });
    const gauge = (point: object) => ({ resourceMetrics: [{ scopeMetrics: [{ metrics: [{ name: 'm', gauge: { dataPoints: [point, { timeUnixNano: T, asDouble: 1 }] } }] }] }] });
    const expo = (point: object) => ({
      resourceMetrics: [{ scopeMetrics: [{ metrics: [{ name: 'e', exponentialHistogram: { aggregationTemporality: 2, dataPoints: [point, { timeUnixNano: T, count: '2', sum: 3, scale: 0, zeroCount: '0' }] } }] }] }],
    });
    const cases: [string, object][] = [
      ['/v1/logs', logs({ timeUnixNano: T, severityNumber: 1e300, body: { stringValue: 'huge severity' } })],
      ['/v1/logs', logs({ timeUnixNano: T, flags: 2 ** 40, body: { stringValue: 'huge flags' } })],
      ['/v1/metrics', gauge({ timeUnixNano: T, asDouble: 'constructor' })],
      ['/v1/metrics', gauge({ timeUnixNano: T, asDouble: 2, count: '1' })],
      ['/v1/metrics', expo({ timeUnixNano: T, count: '1', sum: 1, scale: 0, zeroCount: '0', zeroThreshold: 'NaN' })],
      ['/v1/metrics', expo({ timeUnixNano: T, count: '18446744073709551615', sum: 1, scale: 0, zeroCount: '0' })],
    ];
    const answers = [];
    for (const [path, body] of cases) {
      const response = await post(path, key, 'application/json', JSON.stringify(body));
      answers.push([response.status, ((await response.json()) as { partialSuccess?: { rejectedLogRecords?: string; rejectedDataPoints?: string } }).partialSuccess]);
    }
    expect(answers.map(([status, partial]) => [status, partial === undefined ? 0 : Number(Object.values(partial as object)[0])])).toEqual([
      [200, 1],
      [200, 1],
      [200, 1],
      [200, 0],
      [200, 1],
      [200, 1],
    ]);
    const simple = await post('/api/v1/ingest', key, 'application/json', JSON.stringify([{ message: 'level named like a prototype member', level: 'constructor' }]));
    expect([simple.status, await simple.json()]).toEqual([202, { accepted: 1, skipped: 0 }]);

    const logsRead = await gw.read('logs', key);
    expect(logsRead.body.rows?.map((r) => [r['body'], r['severity_number']])).toEqual([
      ['level named like a prototype member', 0],
      ['kept', 0],
      ['kept', 0],
    ]);
    const pointsRead = await gw.read('metrics', key);
    expect(pointsRead.status).toBe(200);
    // Each refused point went alone: the good point beside it in its request was stored.
    expect(pointsRead.body.rows?.map((r) => [r['metric_name'], r['value'] ?? r['count']])).toEqual([
      ['e', 2],
      ['e', 2],
      ['m', 1],
      ['m', 2],
      ['m', 1],
    ]);
  });

  it('stops an answer past 32 MiB and says it was truncated', async () => {
    const key = gw.keys['big'] as string;
    const huge = 'x'.repeat(17 * 1024 * 1024);
    for (const marker of ['first', 'second']) {
      const answer = await post('/api/v1/ingest', key, 'application/json', JSON.stringify({ message: `${marker} ${huge}` }));
      expect(answer.status).toBe(202);
    }
    const read = await gw.read('logs', key);
    expect(read.status).toBe(200);
    expect(read.body.rows).toHaveLength(1);
    expect((read.body.rows?.[0]?.['body'] as string).slice(0, 7)).toBe('second ');
    expect((read.body as { truncated?: boolean }).truncated).toBe(true);
  });
});
