// prometheusremotewrite's settings: the Collector's names and defaults, its remote_write_queue
// read into the sending queue, and mistakes named with their fix.
import { describe, expect, it } from 'vitest';
import { effectiveQueue, type PrometheusRemoteWriteConfig } from '../../../src/exporters/prometheusremotewrite/config.js';
import { exporterProblems, exporterSettings } from '../../helpers/config.js';

const exporterConfig = (settings: string): PrometheusRemoteWriteConfig => exporterSettings('prometheusremotewrite', settings, 'metrics');
const problems = (settings: string): string => exporterProblems('prometheusremotewrite', settings, 'metrics').join('\n');


describe('prometheusremotewrite settings', () => {
  it('has the Collector\'s defaults', () => {
    expect(exporterConfig('endpoint: http://prometheus:9090/api/v1/write')).toMatchObject({
      timeout: '5s',
      compression: 'none',
      namespace: '',
      external_labels: {},
      add_metric_suffixes: true,
      resource_to_telemetry_conversion: { enabled: false },
      target_info: { enabled: true },
      max_batch_size_bytes: 3_000_000,
    });
  });

  it('loads the Collector README\'s examples (but for the WAL, which the disk queue replaces)', () => {
    expect(problems('endpoint: "https://my-cortex:7900/api/v1/push"\nresource_to_telemetry_conversion:\n  enabled: true')).toBe('');
    expect(problems('endpoint: "https://my-cortex:7900/api/v1/push"\nexternal_labels:\n  label_name1: label_value1\n  label_name2: label_value2')).toBe('');
    expect(problems('endpoint: "https://my-cortex:7900/api/v1/push"\nwal: {directory: ./prom_rw}')).toContain('unknown setting "wal"');
  });

  it('reads the Collector\'s remote_write_queue into the sending queue, which stays on disk', () => {
    const config = exporterConfig('endpoint: http://mimir:8080/api/v1/push\nremote_write_queue: {queue_size: 2000, num_consumers: 3}');
    expect(effectiveQueue(config)).toMatchObject({ enabled: true, queue_size: 2000, num_consumers: 3, sizer: 'requests' });
    expect(effectiveQueue(config).storage).toBeUndefined();
    expect(effectiveQueue(exporterConfig('endpoint: http://mimir:8080/api/v1/push\nremote_write_queue: {enabled: false}')).enabled).toBe(false);
    expect(effectiveQueue(exporterConfig('endpoint: http://mimir:8080/api/v1/push')).queue_size).toBe(1000);
  });

  it('names what is missing or wrong, with the fix', () => {
    expect(problems('timeout: 5s')).toContain('set endpoint');
    expect(problems('endpoint: http://p:9090/api/v1/write\ncompression: gzip')).toContain('snappy-compressed');
    expect(problems('endpoint: http://p:9090/api/v1/write\nnamespace: my-app')).toContain('"my-app" is not a metric name prefix');
    expect(problems('endpoint: http://p:9090/api/v1/write\nexternal_labels: {__reserved: x}')).toContain('"__reserved" is not a label name');
  });
});
