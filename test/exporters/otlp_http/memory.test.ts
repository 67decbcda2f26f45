// otlp_http with `sending_queue.storage: memory`, the documented opt-out of the disk queue: data
// goes through while the backend is up; what the queue still holds when otelgate stops with the
// backend down is lost, and that loss is logged and counted in otelcol_exporter_send_failed_*.
import { describe, expect, it } from 'vitest';
import { check } from '../../../src/config/ajv.js';
import { otlpHttpSchema, type OtlpHttpConfig } from '../../../src/exporters/otlp_http/config.js';
import { otlpHttpExporterFactory } from '../../../src/exporters/otlp_http/factory.js';
import { consumeContext } from '../../../src/runtime/component.js';
import { SelfMetrics } from '../../../src/telemetry/metrics.js';
import { startBackend } from '../../helpers/backend.js';
import { testContext } from '../../helpers/components.js';
import { FAST_RETRY, forwardingHead, arrivals, bodies, sample, send, startForwarder, workspace, stoppedAfterEach } from '../../helpers/forwarder.js';
import { logBatch } from '../../helpers/rows.js';
import { waitUntil } from '../../helpers/wait.js';

const { running, backends } = stoppedAfterEach();

const LOST = 'The memory queue held requests not yet delivered; they are lost (storage: memory)';

describe('otlp_http with storage: memory', () => {
  it('delivers while the backend is up, and logs what it loses when stopped with the backend down', async () => {
    const backend = await startBackend();
    backends.push(backend);
    const ws = workspace('memory-queue');
    const gate = await startForwarder(
      ws,
      `${forwardingHead(ws.keysFile, 'memory')}
exporters:
  otlp_http/b:
    endpoint: ${backend.url}
    ${FAST_RETRY}
    sending_queue: {storage: memory, num_consumers: 1}
service:
  extensions: [apikeyauth]
  pipelines:
    logs: {receivers: [ingest], exporters: [otlp_http/b]}
`,
      running,
    );
    const delivered = ['up-0', 'up-1', 'up-2', 'up-3', 'up-4'];
    for (const message of delivered) expect(await send(gate, [message])).toEqual({ status: 202, retryAfter: undefined });
    expect(await waitUntil(() => arrivals(backend).size === delivered.length)).toBe(true);
    expect([...arrivals(backend)]).toEqual(delivered.map((m) => [m, 1]));

    await backend.stop();
    // 4 requests of 3 records, answered 202 and held in memory only.
    for (let i = 0; i < 4; i++) expect(await send(gate, [`down-${i}-a`, `down-${i}-b`, `down-${i}-c`])).toEqual({ status: 202, retryAfter: undefined });
    expect(await gate.run.stop()).toBe(0);
    const lost = gate.run.lines.filter((l) => l.msg === LOST);
    expect(lost.map((l) => [l.level, l['signal'], l['requests'], l['items']])).toEqual([['error', 'logs', 4, 12]]);
    expect(bodies(backend)).toEqual(delivered);
  });

  it('counts what it loses at shutdown in otelcol_exporter_send_failed_log_records', async () => {
    const backend = await startBackend();
    backends.push(backend);
    const config = { endpoint: backend.url, retry_on_failure: { initial_interval: '100ms', max_interval: '500ms', max_elapsed_time: '0s' }, sending_queue: { storage: 'memory', num_consumers: 1 } };
    expect(check(otlpHttpSchema, config)).toEqual([]);
    const { ctx, lines } = testContext('otlp_http/b', 'exporter', ['logs']);
    const telemetry = new SelfMetrics({ level: 'basic', readers: [{ pull: { exporter: { prometheus: { host: '127.0.0.1', port: 0 } } } }] }, ctx.logger);
    const exporter = otlpHttpExporterFactory.create(config as OtlpHttpConfig, { ...ctx, telemetry });
    await exporter.start();
    const metric = async (name: string): Promise<number | undefined> =>
      sample((await telemetry.exposition()).split('\n'), name, 'exporter="otlp_http/b"');

    await exporter.consume(logBatch(2, 'shop'), consumeContext());
    expect(await waitUntil(() => arrivals(backend).size === 2)).toBe(true);
    expect(await waitUntil(async () => (await metric('otelcol_exporter_sent_log_records_total')) === 2)).toBe(true);

    await backend.stop();
    for (const count of [3, 4, 5]) await exporter.consume(logBatch(count, 'shop'), consumeContext());
    await exporter.shutdown();
    expect(lines.filter((l) => l['msg'] === LOST).map((l) => [l['signal'], l['requests'], l['items']])).toEqual([['logs', 3, 12]]);
    expect(await metric('otelcol_exporter_send_failed_log_records_total')).toBe(12);
    expect(await metric('otelcol_exporter_sent_log_records_total')).toBe(2);
    await telemetry.shutdown();
  });
});
