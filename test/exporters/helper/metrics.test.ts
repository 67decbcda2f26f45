// The exporter helper's own metrics, counted after the sending queue, read from the built
// otelgate's Prometheus endpoint: sent means the backend took the records, send_failed that it
// refused them for good, enqueue_failed that the queue could not take them; the queue gauges say
// what it holds and can hold, in the unit of its sizer.
import { describe, expect, it } from 'vitest';
import { startBackend, type Backend } from '../../helpers/backend.js';
import { FAST_RETRY, forwardingHead, METRICS_READER, bodies, sample, scrape, send, startForwarder, workspace, type Forwarder, stoppedAfterEach } from '../../helpers/forwarder.js';
import { waitUntil } from '../../helpers/wait.js';

const { running, backends } = stoppedAfterEach();

const EXPORTER = 'exporter="otlp_http/b"';
const LOGS = 'data_type="logs"';

async function forwarderTo(backend: Backend, queue: string): Promise<Forwarder> {
  const ws = workspace('exporter-metrics');
  return startForwarder(
    ws,
    `${forwardingHead(ws.keysFile)}
exporters:
  otlp_http/b:
    endpoint: ${backend.url}
    ${FAST_RETRY}
    sending_queue: {storage: file_storage, ${queue}}
service:
  extensions: [apikeyauth, file_storage]
  telemetry: ${METRICS_READER}
  pipelines:
    logs: {receivers: [ingest], exporters: [otlp_http/b]}
`,
    running,
  );
}

/** The exporter's counters and gauges for logs, as scraped now; a counter never added to is undefined. */
async function exporterMetrics(gate: Forwarder): Promise<Record<string, number | undefined>> {
  const lines = await scrape(gate);
  return {
    sent: sample(lines, 'otelcol_exporter_sent_log_records_total', EXPORTER),
    sendFailed: sample(lines, 'otelcol_exporter_send_failed_log_records_total', EXPORTER),
    enqueueFailed: sample(lines, 'otelcol_exporter_enqueue_failed_log_records_total', EXPORTER),
    queueSize: sample(lines, 'otelcol_exporter_queue_size', EXPORTER, LOGS),
    queueCapacity: sample(lines, 'otelcol_exporter_queue_capacity', EXPORTER, LOGS),
  };
}

/** Waits until the metrics are `expected`; fails with the last ones seen otherwise. */
async function expectMetrics(gate: Forwarder, expected: Record<string, number | undefined>): Promise<void> {
  let last: Record<string, number | undefined> = {};
  await waitUntil(async () => {
    last = await exporterMetrics(gate);
    return Object.keys(expected).every((name) => last[name] === expected[name]);
  });
  expect(last).toMatchObject(expected);
}

/** `count` records in requests of 4. */
const messages = (tag: string, count: number): string[][] =>
  Array.from({ length: Math.ceil(count / 4) }, (_, r) => Array.from({ length: Math.min(4, count - 4 * r) }, (_, j) => `${tag}-${4 * r + j}`));

describe('exporter helper: own metrics after the queue', () => {
  it('counts otelcol_exporter_sent_log_records once the backend took the records', async () => {
    const backend = await startBackend();
    backends.push(backend);
    const gate = await forwarderTo(backend, 'queue_size: 100');
    const N = 23;
    for (const batch of messages('ok', N)) expect((await send(gate, batch)).status).toBe(202);
    await expectMetrics(gate, { sent: N, sendFailed: undefined, enqueueFailed: undefined, queueSize: 0, queueCapacity: 100 });
    expect(bodies(backend)).toHaveLength(N);
  });

  it('counts otelcol_exporter_send_failed_log_records for what the backend refuses for good (400)', async () => {
    const backend = await startBackend();
    backends.push(backend);
    backend.answer = () => ({ status: 400, headers: { 'Content-Type': 'text/plain' }, body: 'no' });
    const gate = await forwarderTo(backend, 'queue_size: 100');
    const N = 17;
    for (const batch of messages('bad', N)) expect((await send(gate, batch)).status).toBe(202);
    await expectMetrics(gate, { sent: undefined, sendFailed: N, enqueueFailed: undefined, queueSize: 0, queueCapacity: 100 });
    // Each request was tried once: a 400 is not retried.
    expect(backend.received.map((r) => r.status)).toEqual(messages('bad', N).map(() => 400));
  });

  it('counts otelcol_exporter_enqueue_failed_log_records for what a full queue refused, and its size and capacity in items', async () => {
    const backend = await startBackend();
    backends.push(backend);
    await backend.stop();
    const gate = await forwarderTo(backend, 'sizer: items, queue_size: 10, num_consumers: 1');
    await expectMetrics(gate, { sent: undefined, sendFailed: undefined, enqueueFailed: undefined, queueSize: 0, queueCapacity: 10 });

    const steps: [string[], number, Record<string, number | undefined>][] = [
      [['a1', 'a2', 'a3'], 202, { queueSize: 3, enqueueFailed: undefined }],
      [['b1', 'b2', 'b3'], 202, { queueSize: 6, enqueueFailed: undefined }],
      [['c1', 'c2', 'c3'], 202, { queueSize: 9, enqueueFailed: undefined }],
      // 12 items would not fit in 10: the request is refused whole.
      [['d1', 'd2', 'd3'], 503, { queueSize: 9, enqueueFailed: 3 }],
      [['e1'], 202, { queueSize: 10, enqueueFailed: 3 }],
      [['f1', 'f2'], 503, { queueSize: 10, enqueueFailed: 5 }],
    ];
    for (const [batch, status, metrics] of steps) {
      expect((await send(gate, batch)).status).toBe(status);
      // The gauges read the queue when scraped, and an append is counted before the client is answered: exact at once.
      expect(await exporterMetrics(gate)).toEqual({ sent: undefined, sendFailed: undefined, queueCapacity: 10, ...metrics });
    }

    await backend.start();
    await expectMetrics(gate, { sent: 10, sendFailed: undefined, enqueueFailed: 5, queueSize: 0, queueCapacity: 10 });
    expect(new Set(bodies(backend))).toEqual(new Set(['a1', 'a2', 'a3', 'b1', 'b2', 'b3', 'c1', 'c2', 'c3', 'e1']));
  });
});
