// Restart after kill -9: every batch otelgate answered 200/202 (logs over OTLP JSON and simple
// JSON, traces, metrics) is in the store after a SIGKILL in the middle of ingest and a restart on
// the same file, record for record; a batch cut off by the kill is stored whole or not at all.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startGateway, STORE_CONFIG, type Gateway } from '../../helpers/gateway.js';

const RECORDS = 25;
const CONCURRENCY = 8;

type Kind = 'otlp-logs' | 'simple-logs' | 'traces' | 'metrics';
const KINDS: readonly Kind[] = ['otlp-logs', 'simple-logs', 'traces', 'metrics'];
const READ_AS = { 'otlp-logs': 'logs', 'simple-logs': 'logs', traces: 'spans', metrics: 'metrics' } as const;

interface Request {
  n: number;
  kind: Kind;
  path: string;
  body: string;
  /** The answer a stored batch gets. */
  ok: { status: number; body: string };
}

const marker = (n: number, i: number): string => `crash-${n}-rec-${i}`;
const hex = (bytes: number): string => randomBytes(bytes).toString('hex');

/** Batch n: RECORDS records of one kind (by n), each carrying its own marker (body, span name or metric name). */
function request(n: number): Request {
  const kind = KINDS[n % KINDS.length] as Kind;
  const records = Array.from({ length: RECORDS }, (_, i) => i);
  const nowNs = BigInt(Date.now()) * 1_000_000n;
  const resource = { attributes: [{ key: 'service.name', value: { stringValue: 'crash' } }] };
  switch (kind) {
    case 'otlp-logs': {
      const logRecords = records.map((i) => ({ timeUnixNano: String(nowNs + BigInt(i)), severityNumber: 9, body: { stringValue: marker(n, i) } }));
      return { n, kind, path: '/v1/logs', body: JSON.stringify({ resourceLogs: [{ resource, scopeLogs: [{ logRecords }] }] }), ok: { status: 200, body: '{}' } };
    }
    case 'simple-logs':
      return {
        n,
        kind,
        path: '/api/v1/ingest',
        body: JSON.stringify(records.map((i) => ({ message: marker(n, i), level: 'warn', service: 'crash' }))),
        ok: { status: 202, body: `{"accepted":${RECORDS},"skipped":0}` },
      };
    case 'traces': {
      const traceId = hex(16);
      const spans = records.map((i) => ({
        traceId,
        spanId: hex(8),
        name: marker(n, i),
        kind: 2,
        startTimeUnixNano: String(nowNs + BigInt(i)),
        endTimeUnixNano: String(nowNs + BigInt(i) + 1_000_000n),
      }));
      return { n, kind, path: '/v1/traces', body: JSON.stringify({ resourceSpans: [{ resource, scopeSpans: [{ spans }] }] }), ok: { status: 200, body: '{}' } };
    }
    case 'metrics': {
      const metrics = records.map((i) => ({ name: marker(n, i), gauge: { dataPoints: [{ timeUnixNano: String(nowNs + BigInt(i)), asDouble: i + 0.5 }] } }));
      return { n, kind, path: '/v1/metrics', body: JSON.stringify({ resourceMetrics: [{ resource, scopeMetrics: [{ metrics }] }] }), ok: { status: 200, body: '{}' } };
    }
  }
}

type Outcome = { answered: true; status: number; body: string } | { answered: false; error: string };

async function send(gw: Gateway, key: string, req: Request): Promise<Outcome> {
  try {
    const response = await fetch(gw.url + req.path, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: req.body });
    return { answered: true, status: response.status, body: await response.text() };
  } catch (error) {
    return { answered: false, error: error instanceof Error ? String((error.cause as Error | undefined)?.message ?? error.message) : String(error) };
  }
}

/** marker → how many stored rows carry it, over every signal of the project, through the read API. */
async function storedMarkers(gw: Gateway, key: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const field = { logs: 'body', spans: 'name', metrics: 'metric_name' } as const;
  for (const what of ['logs', 'spans', 'metrics'] as const) {
    const read = await gw.read(what, key, { limit: '10000' });
    expect(read.status).toBe(200);
    const rows = read.body.rows ?? [];
    // Far below the read API's maximum, so nothing is cut off.
    expect(rows.length).toBeLessThan(10_000);
    for (const row of rows) {
      const m = String(row[field[what]]);
      counts.set(m, (counts.get(m) ?? 0) + 1);
    }
  }
  return counts;
}

describe('store after kill -9 and restart', () => {
  const gateways: Gateway[] = [];
  afterEach(async () => {
    for (const gw of gateways.splice(0)) if (gw.run.child.exitCode === null && gw.run.child.signalCode === null) await gw.stop();
  });

  it('has every record of every batch answered 200/202 before the kill, each exactly once; cut-off batches are whole or absent', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'otelgate-crash-')), 'otelgate.db');
    const first = await startGateway({ config: STORE_CONFIG(db), projects: ['default'] });
    gateways.push(first);
    const key = first.keys['default'] as string;
    await first.run.waitFor('Retention pass done');

    const outcomes = new Map<number, Outcome>();
    const requests = new Map<number, Request>();
    let next = 0;
    const take = (): Request => {
      const req = request(next++);
      requests.set(req.n, req);
      return req;
    };

    // 40 batches, 8 at a time, while nothing goes wrong: every one is answered as stored.
    const started = Date.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < 40) {
          const req = take();
          outcomes.set(req.n, await send(first, key, req));
        }
      }),
    );
    expect(outcomes.size).toBe(40);
    for (const [n, outcome] of outcomes) expect(outcome, `batch ${n}`).toEqual({ answered: true, ...(requests.get(n) as Request).ok });

    // More batches, 8 at a time, and a SIGKILL once 40 more are answered; each sender stops at its first failed request.
    let answeredAfter = 0;
    let killedAt = -1;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (;;) {
          const req = take();
          const outcome = await send(first, key, req);
          outcomes.set(req.n, outcome);
          if (!outcome.answered) return;
          if (++answeredAfter === 40) {
            killedAt = next;
            first.run.kill();
          }
          expect(answeredAfter, 'otelgate was never killed').toBeLessThan(10_000);
        }
      }),
    );
    expect(await first.run.exit()).toBeNull();
    expect(first.run.child.signalCode).toBe('SIGKILL');
    const elapsed = Date.now() - started;

    const answered = [...outcomes].filter(([, o]) => o.answered).map(([n]) => n);
    const cutOff = [...outcomes].filter(([, o]) => !o.answered).map(([n]) => n);
    // Every HTTP answer otelgate gave is a success: nothing was refused before the kill.
    for (const n of answered) expect(outcomes.get(n), `batch ${n}`).toEqual({ answered: true, ...(requests.get(n) as Request).ok });
    expect(cutOff).toHaveLength(CONCURRENCY);
    expect(answered.length).toBeGreaterThanOrEqual(80);
    expect(answered.length + cutOff.length).toBe(next);

    // The same file and the same keys (the fresh keys file startGateway writes is not used).
    const second = await startGateway({ config: () => STORE_CONFIG(db)(first.keysFile), projects: ['unused'] });
    gateways.push(second);
    const stored = await storedMarkers(second, key);

    // Every record of every answered batch, exactly once.
    for (const n of answered) {
      const counts = Array.from({ length: RECORDS }, (_, i) => stored.get(marker(n, i)) ?? 0);
      expect(counts, `batch ${n} (${(requests.get(n) as Request).kind}) was answered ${JSON.stringify(outcomes.get(n))}`).toEqual(new Array<number>(RECORDS).fill(1));
    }
    // A batch cut off by the kill may be there or not, but only whole.
    let cutOffStored = 0;
    for (const n of cutOff) {
      const counts = Array.from({ length: RECORDS }, (_, i) => stored.get(marker(n, i)) ?? 0);
      expect([new Array<number>(RECORDS).fill(0), new Array<number>(RECORDS).fill(1)], `batch ${n} (${(requests.get(n) as Request).kind}) was cut off`).toContainEqual(counts);
      if (counts[0] === 1) cutOffStored++;
    }
    const total = [...stored.values()].reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThanOrEqual(answered.length * RECORDS);
    expect(total).toBe((answered.length + cutOffStored) * RECORDS);
    expect([...stored.keys()].every((m) => /^crash-\d+-rec-\d+$/.test(m))).toBe(true);
    console.log(
      `crash: ${answered.length} batches answered before the kill (killed after batch ${killedAt} was handed out), ${cutOff.length} cut off of which ${cutOffStored} stored whole; ${total} rows after restart; ${elapsed} ms`,
    );

    // The restarted otelgate takes data as usual.
    const after = request(next++);
    const afterOutcome = await send(second, key, after);
    expect(afterOutcome).toEqual({ answered: true, ...after.ok });
    const read = await second.read(READ_AS[after.kind], key, { limit: '10000' });
    expect(read.status).toBe(200);
    expect(await second.stop()).toBe(0);
  });
});
