// The otlp exporter's settings as the Collector's otlp exporter has them: its defaults, and
// mistakes named with their fix (an endpoint that is not host:port, a header gRPC cannot carry,
// TLS versions grpc-js cannot choose).
import { describe, expect, it } from 'vitest';
import type { OtlpGrpcConfig } from '../../../src/exporters/otlp/config.js';
import { exporterProblems, exporterSettings } from '../../helpers/config.js';

const exporterConfig = (settings: string): OtlpGrpcConfig => exporterSettings('otlp', settings, 'traces');
const problems = (settings: string): string[] => exporterProblems('otlp', settings, 'traces');


describe('otlp exporter settings', () => {
  it('has the Collector\'s defaults', () => {
    const config = exporterConfig('endpoint: tempo:4317');
    expect(config).toMatchObject({ compression: 'gzip', timeout: '5s', balancer_name: 'round_robin', tls: { insecure: false }, sending_queue: { enabled: true, num_consumers: 10, queue_size: 1000 } });
    expect(config.retry_on_failure).toMatchObject({ enabled: true, initial_interval: '5s', max_interval: '30s', max_elapsed_time: '5m' });
  });

  it('names what is wrong, with the fix', () => {
    expect(problems('endpoint: tempo')).toEqual(['exporters.otlp.endpoint: "tempo" is not host:port; write it as tempo:4317 (or http://tempo:4317 for plaintext, https://tempo:4317 for TLS)']);
    expect(problems('endpoint: tempo:4317\nheaders: {"X Tenant": a}')).toEqual(['exporters.otlp.headers.X Tenant: "X Tenant" is not a gRPC metadata key: letters, digits, "-", "_" and "." only, not ending in -bin']);
    expect(problems('endpoint: tempo:4317\ntls: {max_version: "1.3"}')).toEqual(['exporters.otlp.tls.max_version: TLS versions cannot be chosen for gRPC in otelgate (grpc-js takes Node\'s defaults: 1.2 and up); remove it']);
    expect(problems('endpoint: tempo:4317\ncompression: zstd')[0]).toMatch(/^exporters\.otlp\.compression: /);
  });
});
