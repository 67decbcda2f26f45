// What otlp_http sends for a protobuf request that otelgate read whole and left unchanged: the
// request's own bytes (src/otlp/source.ts), a field otelgate does not know included, compressed at
// the configured compression_params.level; rows encoded anew for a JSON request, and for a
// protobuf one whose rows processors changed in place (an exclusive batch's).
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeOtlp } from '../../../src/otlp/decode.js';
import { encodeOtlp } from '../../../src/otlp/encode.js';
import { startBackend } from '../../helpers/backend.js';
import { ROOT } from '../../helpers/cli.js';
import { forwardingHead } from '../../helpers/forwarder.js';
import { startGateway, stoppedAfterAll, type Gateway } from '../../helpers/gateway.js';
import { otlpJsonToProtobuf } from '../../helpers/otlp.js';
import { waitUntil } from '../../helpers/wait.js';
import { readFileSync } from 'node:fs';

const { gateways, backends } = stoppedAfterAll();

/** Two exporters to one backend, told apart by a header: gzip at level 1, and at level 9. */
const config = (url: string) => (keysFile: string) => `${forwardingHead(keysFile)}
exporters:
  otlp_http/fast:
    endpoint: ${url}
    headers: {X-Exporter: fast}
    compression_params: {level: 1}
    sending_queue: {storage: file_storage}
  otlp_http/small:
    endpoint: ${url}
    headers: {X-Exporter: small}
    compression_params: {level: 9}
    sending_queue: {storage: file_storage}
service:
  extensions: [apikeyauth, file_storage]
  pipelines:
    logs: {receivers: [ingest], exporters: [otlp_http/fast, otlp_http/small]}
`;

const goldenJson = readFileSync(join(ROOT, 'testdata', 'otlp', 'logs.json'));
/**
 * The golden log records otelgate keeps (it skips some on purpose), as protobufjs writes them, 40
 * times over (protobuf reads concatenated messages as one: 40 resources), enough for gzip's levels
 * to differ; then a field 99 no OTLP has yet.
 */
const kept = otlpJsonToProtobuf('logs', JSON.parse(encodeOtlp('logs', 'json', decodeOtlp('logs', 'json', goldenJson).rows).toString('utf8')));
const body = Buffer.concat([...Array.from({ length: 40 }, () => kept), Buffer.from([0x98, 0x06, 0x01])]);

async function post(gateway: Gateway, payload: Buffer, contentType: string): Promise<void> {
  const response = await fetch(`${gateway.url}/v1/logs`, { method: 'POST', headers: { Authorization: `Bearer ${gateway.keys['default']}`, 'Content-Type': contentType }, body: payload });
  await response.arrayBuffer();
  expect(response.status).toBe(200);
}

/** attributes then transform, each changing the rows' own maps in place, before one otlp_http exporter. */
const processed = (url: string, processors: string) => (keysFile: string) => `${forwardingHead(keysFile)}
processors:
  attributes: {actions: [{key: env, value: prod, action: insert}]}
  transform: {log_statements: ['set(log.attributes["checked"], true)']}
exporters:
  otlp_http: {endpoint: ${url}, sending_queue: {storage: file_storage}}
service:
  extensions: [apikeyauth, file_storage]
  pipelines:
    logs: {receivers: [ingest], processors: [${processors}], exporters: [otlp_http]}
`;

describe('otlp_http: what it sends for a request it forwards', () => {
  it('sends the rows that processors changed in place, not the bytes they were read from', async () => {
    const goldenRows = decodeOtlp('logs', 'json', goldenJson).rows;
    for (const [processors, added] of [
      ['attributes', { env: 'prod' }],
      ['transform', { checked: true }],
      ['attributes, transform', { env: 'prod', checked: true }],
    ] as const) {
      const backend = await startBackend();
      backends.push(backend);
      const gateway = await startGateway({ config: processed(backend.url, processors) });
      gateways.push(gateway);
      await post(gateway, kept, 'application/x-protobuf');
      expect(await waitUntil(() => backend.received.length === 1)).toBe(true);
      const rows = backend.received[0]?.rows ?? [];
      expect(rows.map((row) => ({ ...(row as { attributes: object }).attributes }))).toEqual(goldenRows.map((row) => ({ ...row.attributes, ...added })));
      expect(backend.received[0]?.body.equals(kept)).toBe(false);
    }
  });

  it('sends a protobuf request read whole as its own bytes, an unknown field included, at each exporter\'s gzip level; a JSON request as encoded rows', async () => {
    const backend = await startBackend();
    backends.push(backend);
    const gateway = await startGateway({ config: config(backend.url) });
    gateways.push(gateway);

    await post(gateway, body, 'application/x-protobuf');
    expect(await waitUntil(() => backend.received.length === 2)).toBe(true);
    const byExporter = (name: string) => backend.received.filter((r) => r.headers['x-exporter'] === name);
    const [fast] = byExporter('fast');
    const [small] = byExporter('small');
    for (const received of [fast, small]) {
      expect(received?.headers['content-encoding']).toBe('gzip');
      expect(received?.body.equals(body)).toBe(true);
    }
    expect(fast?.wireBytes).toBe(gzipSync(body, { level: 1 }).length);
    expect(small?.wireBytes).toBe(gzipSync(body, { level: 9 }).length);
    expect(small?.wireBytes).toBeLessThan(fast?.wireBytes ?? 0);

    await post(gateway, goldenJson, 'application/json');
    expect(await waitUntil(() => backend.received.length === 4)).toBe(true);
    const fromJson = byExporter('fast')[1];
    const goldenRows = decodeOtlp('logs', 'json', goldenJson).rows;
    expect(fromJson?.headers['content-type']).toBe('application/x-protobuf');
    expect(fromJson?.body.equals(encodeOtlp('logs', 'protobuf', goldenRows))).toBe(true);
    expect(fromJson?.rows).toEqual(goldenRows);
    expect(fast?.rows).toHaveLength(40 * goldenRows.length);
  });
});
