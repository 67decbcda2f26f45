// loki's settings: defaults, the push URL, and mistakes named with their fix.
import { describe, expect, it } from 'vitest';
import { pushUrl, type LokiConfig } from '../../../src/exporters/loki/config.js';
import { exporterProblems, exporterSettings } from '../../helpers/config.js';

const exporterConfig = (settings: string, pipeline = 'logs'): LokiConfig => exporterSettings('loki', settings, pipeline);
const problems = (settings: string, pipeline = 'logs'): string => exporterProblems('loki', settings, pipeline).join('\n');


describe('loki settings', () => {
  it('has the documented defaults', () => {
    const config = exporterConfig('endpoint: http://loki:3100');
    expect(config).toMatchObject({
      encoding: 'proto',
      format: 'raw',
      compression: 'none',
      timeout: '30s',
      structured_metadata: true,
      labels: { resource_attributes: ['service.name', 'service.namespace', 'deployment.environment.name', 'k8s.namespace.name'], attributes: [], level: false },
      metadata_headers: [],
    });
    expect(config.tenant).toBeUndefined();
  });

  it('adds Loki\'s push path to an endpoint without a path, and keeps one that has a path as written (the Collector\'s form)', () => {
    expect(pushUrl('http://loki:3100')).toBe('http://loki:3100/loki/api/v1/push');
    expect(pushUrl('http://loki:3100/')).toBe('http://loki:3100/loki/api/v1/push');
    expect(pushUrl('https://logs.example.com/loki/api/v1/push')).toBe('https://logs.example.com/loki/api/v1/push');
    expect(pushUrl('http://gateway:8080/tenant-a/loki/api/v1/push')).toBe('http://gateway:8080/tenant-a/loki/api/v1/push');
  });

  it('names what is missing or wrong, with the fix', () => {
    expect(problems('timeout: 5s')).toContain('set endpoint');
    expect(problems('endpoint: http://loki:3100\ncompression: zstd')).toContain('Loki does not read zstd');
    expect(problems('endpoint: http://loki:3100\nlabels: {resource_attributes: {service.name: "service name"}}')).toContain('exporters.loki.labels.resource_attributes.service.name: "service name" is not a Loki label name (letters, digits and _, not starting with a digit): write service_name');
    expect(problems('endpoint: http://loki:3100\ndefault_labels_enabled: {exporter: false}')).toContain('default_labels_enabled');
  });

  it('serves logs only', () => {
    expect(problems('endpoint: http://loki:3100', 'traces')).toMatch(/loki.*traces/s);
  });
});
