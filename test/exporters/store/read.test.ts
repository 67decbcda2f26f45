// Which index each row query of the read API takes. For a trace's spans SQLite, by its own estimates
// (the store is never analysed), would walk the (project, start) index for the order, every span of
// the range, where the trace-id index finds the handful (5 s against 0.4 ms on a million spans).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openForWriting } from '../../../src/exporters/store/database.js';
import { rowsStatement } from '../../../src/exporters/store/read.js';
import { parseQuery } from '../../../src/query/params.js';
import type { Signal } from '../../../src/model/signal.js';

const db = openForWriting(join(mkdtempSync(join(tmpdir(), 'otelgate-read-')), 'store.db'), { synchronous: 'normal', busyTimeoutMs: 1000 });

function plan(signal: Signal, parameters: Record<string, string>): string {
  const { sql, params } = rowsStatement('shop', parseQuery(signal, Object.entries(parameters)));
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map((row) => row.detail).join('; ');
}

describe('the read API row queries', () => {
  it("find a trace's spans by the trace-id index, with or without a range", () => {
    const trace = '4bf92f3577b34da6a3ce929d0e0e4736';
    expect(plan('traces', { trace_id: trace })).toContain('USING INDEX spans_trace_id');
    expect(plan('traces', { trace_id: trace, from: '1', to: '2000000000000000000' })).toContain('USING INDEX spans_trace_id');
  });

  it('read the newest spans, logs and points of a range by the project-and-time indexes', () => {
    expect(plan('traces', { from: '1' })).toContain('USING INDEX spans_project_start');
    expect(plan('logs', { from: '1' })).toContain('USING INDEX logs_project_ts');
    expect(plan('metrics', { name: 'http.server.duration' })).toContain('USING INDEX datapoints_project_name_time');
  });
});
