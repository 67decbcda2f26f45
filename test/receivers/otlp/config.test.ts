// The otlp receiver's settings: the Collector's message for a receiver with no protocol, `http:`
// and `grpc:` left empty as the Collector reads them, and the checks that keep a largest request
// of either protocol within max_in_flight_bytes.
import { describe, expect, it } from 'vitest';
import { builtinRegistry } from '../../../src/components.js';
import { ConfigError } from '../../../src/errors.js';
import type { OtlpConfig } from '../../../src/receivers/otlp/config.js';
import { configFrom } from '../../helpers/config.js';

function receiver(settings: string): OtlpConfig | string[] {
  try {
    const resolved = configFrom(`receivers: {otlp: ${settings}}\nexporters: {nop: }\nservice: {pipelines: {logs: {receivers: [otlp], exporters: [nop]}}}\n`, builtinRegistry());
    return resolved.components.receiver.get('otlp')?.config as OtlpConfig;
  } catch (error) {
    if (error instanceof ConfigError) return error.issues.map((i) => `${i.path}: ${i.message}`);
    throw error;
  }
}

describe('otlp receiver settings', () => {
  it('reads `grpc:` and `http:` left empty as the protocols with their defaults', () => {
    const config = receiver('{protocols: {grpc: , http: }}') as OtlpConfig;
    expect(config.protocols.grpc).toMatchObject({ endpoint: 'localhost:4317', max_recv_msg_size_mib: 0, max_concurrent_streams: 0 });
    expect(config.protocols.http).toMatchObject({ endpoint: 'localhost:4318', logs_url_path: '/v1/logs', max_request_body_size: 20971520 });
    expect(config.project).toBe('default');
  });

  it('needs a protocol, as the Collector does', () => {
    expect(receiver('')).toEqual(['receivers.otlp.protocols: must specify at least one protocol when using the OTLP receiver: add grpc: and/or http: under protocols']);
  });

  it('keeps a largest request of each protocol within max_in_flight_bytes', () => {
    expect(receiver('{max_in_flight_bytes: 300000000, protocols: {grpc: {max_recv_msg_size_mib: 200}}}')).toEqual([
      'receivers.otlp.max_in_flight_bytes: must hold at least one largest request: protocols.grpc.max_recv_msg_size_mib (209715200 bytes) plus max_records_per_request × 400 bytes of decoded rows = 409715200',
    ]);
    expect(receiver('{protocols: {http: {logs_url_path: /v1/traces}}}')).toEqual(['receivers.otlp.protocols.http: traces_url_path, metrics_url_path and logs_url_path must be three different paths']);
  });
});
