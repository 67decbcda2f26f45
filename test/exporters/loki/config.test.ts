// loki's settings: defaults, the push URL, and mistakes named with their fix.
import { describe, expect, it } from 'vitest';
import { builtinRegistry } from '../../../src/components.js';
import { ConfigError } from '../../../src/errors.js';
import { pushUrl, type LokiConfig } from '../../../src/exporters/loki/config.js';
import { configFrom } from '../../helpers/config.js';

function exporterConfig(settings: string, pipeline = 'logs'): LokiConfig {
  const resolved = configFrom(
    `
receivers: {nop: }
exporters:
  loki:
${settings
  .split('\n')
  .map((line) => `    ${line}`)
  .join('\n')}
service:
  pipelines:
    ${pipeline}: {receivers: [nop], exporters: [loki]}
`,
    builtinRegistry(),
  );
  return resolved.components.exporter.get('loki')?.config as LokiConfig;
}

function problems(settings: string, pipeline = 'logs'): string {
  try {
    exporterConfig(settings, pipeline);
    return '';
  } catch (error) {
    return error instanceof ConfigError ? error.issues.map((i) => `${i.path}: ${i.message}`).join('\n') : String(error);
  }
}

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
