// otelgate → loki → the stand-in Loki, with otelgate running as users run it (the built CLI) and
// the official OpenTelemetry JS logs exporter as the client: two projects, each pushed as its own
// tenant, never in one push; labels, lines, time order and structured metadata as Loki reads them;
// the JSON form with gzip; and Loki's permanent refusals counted by reason.
import { SeverityNumber } from '@opentelemetry/api-logs';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { describe, expect, it } from 'vitest';
import { startBackend, type Backend } from '../../helpers/backend.js';
import { FAST_RETRY, forwardingHead, METRICS_READER, sample, scrape, send, startForwarder, stoppedAfterEach, workspace } from '../../helpers/forwarder.js';
import { startGateway, stoppedAfterAll, type Gateway } from '../../helpers/gateway.js';
import { lokiWire, type LokiRecord } from '../../helpers/loki.js';
import { waitUntil } from '../../helpers/wait.js';

const { gateways, backends } = stoppedAfterAll();
const { running, backends: perTest } = stoppedAfterEach();

function lokiGateway(loki: Backend<LokiRecord>, settings: string): Promise<Gateway> {
  return startGateway({
    projects: ['shop', 'blog'],
    config: (keysFile) => `${forwardingHead(keysFile)}
exporters:
  loki:
    endpoint: ${loki.url}
    tenant: {header: X-Scope-OrgID}
    ${FAST_RETRY}
    sending_queue: {storage: file_storage, batch: {flush_timeout: 300ms}}
${settings}
service:
  extensions: [apikeyauth, file_storage]
  pipelines:
    logs: {receivers: [ingest], exporters: [loki]}
`,
  });
}

/** Emits through the OpenTelemetry JS SDK, in one OTLP protobuf export to the gateway with `key`. */
async function emit(gateway: Gateway, key: string, service: string, records: { body: string; severity: SeverityNumber; text: string; at: number }[]): Promise<void> {
  const exporter = new OTLPLogExporter({ url: `${gateway.url}/v1/logs`, headers: { Authorization: `Bearer ${key}` } });
  const provider = new LoggerProvider({
    resource: resourceFromAttributes({ 'service.name': service, 'deployment.environment.name': 'prod', 'host.name': 'web-1' }),
    // One export request for all of them: one queued request, one push.
    processors: [new BatchLogRecordProcessor({ exporter, maxExportBatchSize: 512, scheduledDelayMillis: 60_000 })],
  });
  const logger = provider.getLogger('shop.logger', '2.0.0');
  for (const r of records) logger.emit({ body: r.body, severityNumber: r.severity, severityText: r.text, timestamp: r.at, attributes: { 'http.route': '/pay' } });
  await provider.forceFlush();
  await provider.shutdown();
}

const SECOND = 1_000_000_000n;
const AT = 1_790_000_000_000;

describe('otelgate → loki → Loki', () => {
  it('pushes each project as its own tenant, with labels, lines in time order and structured metadata', async () => {
    const loki = await startBackend(lokiWire);
    backends.push(loki);
    const gateway = await lokiGateway(loki, '    labels: {level: true}');
    gateways.push(gateway);
    // Out of order on purpose: the push must put each stream in time order.
    await emit(gateway, gateway.keys['shop'] as string, 'checkout', [
      { body: 'paid', severity: SeverityNumber.INFO, text: 'INFO', at: AT + 2000 },
      { body: 'cart opened', severity: SeverityNumber.INFO, text: 'INFO', at: AT },
      { body: 'card declined', severity: SeverityNumber.ERROR, text: 'ERROR', at: AT + 1000 },
    ]);
    await emit(gateway, gateway.keys['blog'] as string, 'blog-api', [{ body: 'post published', severity: SeverityNumber.WARN, text: 'WARN', at: AT + 500 }]);
    expect(await waitUntil(() => loki.delivered('logs').length === 4)).toBe(true);

    for (const push of loki.received) {
      expect(push.status).toBe(204);
      expect(push.headers['content-type']).toBe('application/x-protobuf');
      expect(push.headers['content-encoding']).toBeUndefined();
      // A push is one tenant's: every stream in it is of that project's service.
      const services = new Set(push.rows.map((r) => r.labels['service_name']));
      expect([...services]).toEqual([push.headers['x-scope-orgid'] === 'shop' ? 'checkout' : 'blog-api']);
    }
    const shop = loki.received.filter((r) => r.headers['x-scope-orgid'] === 'shop').flatMap((r) => r.rows);
    const blog = loki.received.filter((r) => r.headers['x-scope-orgid'] === 'blog').flatMap((r) => r.rows);
    const info = { service_name: 'checkout', deployment_environment_name: 'prod', level: 'info' };
    expect(shop.map((r) => [r.labels, r.timeUnixNano, r.line])).toEqual([
      [info, BigInt(AT) * 1_000_000n, 'cart opened'],
      [info, BigInt(AT) * 1_000_000n + 2n * SECOND, 'paid'],
      [{ ...info, level: 'error' }, BigInt(AT) * 1_000_000n + SECOND, 'card declined'],
    ]);
    expect(blog.map((r) => [r.labels, r.line])).toEqual([[{ service_name: 'blog-api', deployment_environment_name: 'prod', level: 'warn' }, 'post published']]);
    expect(shop[0]?.metadata).toMatchObject({ host_name: 'web-1', scope_name: 'shop.logger', scope_version: '2.0.0', http_route: '/pay', severity_text: 'INFO', severity_number: '9' });
  }, 60_000);

  it('sends Loki\'s JSON push, gzip-compressed, with the record as JSON lines', async () => {
    const loki = await startBackend(lokiWire);
    backends.push(loki);
    const gateway = await lokiGateway(loki, '    encoding: json\n    compression: gzip\n    format: json');
    gateways.push(gateway);
    await emit(gateway, gateway.keys['shop'] as string, 'checkout', [{ body: 'paid', severity: SeverityNumber.INFO, text: 'INFO', at: AT }]);
    expect(await waitUntil(() => loki.delivered('logs').length === 1)).toBe(true);
    const [push] = loki.received;
    expect([push?.headers['content-type'], push?.headers['content-encoding'], push?.headers['x-scope-orgid']]).toEqual(['application/json', 'gzip', 'shop']);
    const [record] = loki.delivered('logs');
    expect(record?.labels).toEqual({ service_name: 'checkout', deployment_environment_name: 'prod' });
    expect(JSON.parse(record?.line ?? '')).toMatchObject({ body: 'paid', severity: 'INFO', attributes: { 'http.route': '/pay' }, instrumentation_scope: { name: 'shop.logger', version: '2.0.0' } });
  }, 60_000);

  it('counts the records of a push Loki refuses for good by the reason in its message, and does not send it again', async () => {
    const loki = await startBackend(lokiWire);
    perTest.push(loki);
    let answered = 0;
    loki.answer = () =>
      answered++ === 0
        ? { status: 400, headers: { 'Content-Type': 'text/plain' }, body: "entry with timestamp 2026-11-23 10:00:00 +0000 UTC ignored, reason: 'entry too far behind, entry timestamp is: 2026-11-23T10:00:00Z',\nuser 'shop', total ignored: 2 out of 2 for stream: {service_name=\"unknown_service\"}" }
        : undefined;
    const ws = workspace('loki');
    const forwarder = await startForwarder(
      ws,
      `${forwardingHead(ws.keysFile)}
exporters:
  loki: {endpoint: '${loki.url}', ${FAST_RETRY}, sending_queue: {storage: file_storage, num_consumers: 1}}
service:
  extensions: [apikeyauth, file_storage]
  telemetry: ${METRICS_READER}
  pipelines:
    logs: {receivers: [ingest], exporters: [loki]}
`,
      running,
    );
    expect((await send(forwarder, ['too old', 'also too old'])).status).toBe(202);
    await forwarder.run.waitFor('refused a request for good');
    expect((await send(forwarder, ['fine'])).status).toBe(202);
    expect(await waitUntil(() => loki.delivered('logs').length === 1)).toBe(true);
    expect(loki.received.map((r) => r.status)).toEqual([400, 204]);
    const metrics = await scrape(forwarder);
    expect(sample(metrics, 'otelgate_exporter_loki_refused_log_records_total', 'exporter="loki"', 'reason="too_far_behind"')).toBe(2);
    expect(sample(metrics, 'otelcol_exporter_send_failed_log_records_total', 'exporter="loki"')).toBe(2);
    expect(sample(metrics, 'otelcol_exporter_sent_log_records_total', 'exporter="loki"')).toBe(1);
  }, 60_000);
});
