// Metric names as the Collector's Prometheus translator builds them (its normalize_name tests).
import { describe, expect, it } from 'vitest';
import type { Metric, MetricType } from '../../../src/model/metrics.js';
import { metricName } from '../../../src/exporters/prometheusremotewrite/name.js';
import { attrs } from '../../helpers/rows.js';

const metric = (name: string, unit: string, type: MetricType = 'gauge', isMonotonic = false): Metric => ({ name, unit, type, isMonotonic, description: '', temporality: type === 'sum' || type === 'histogram' ? 2 : 0, metadata: attrs({}) });
const withSuffixes = (m: Metric, namespace = ''): string => metricName(m, { namespace, addSuffixes: true });

describe('metricName', () => {
  it.each([
    [metric('system.filesystem.usage', 'By'), 'system_filesystem_usage_bytes'],
    [metric('http.server.duration', 'ms', 'histogram'), 'http_server_duration_milliseconds'],
    [metric('http.server.requests', '{request}', 'sum', true), 'http_server_requests_total'],
    [metric('requests.total', '1', 'sum', true), 'requests_total'],
    [metric('system.cpu.utilization', '1'), 'system_cpu_utilization_ratio'],
    [metric('system.network.io', 'By/s'), 'system_network_io_bytes_per_second'],
    [metric('throughput', 'KiBy/mo'), 'throughput_kibibytes_per_month'],
    [metric('disk.seconds', 's'), 'disk_seconds'],
    [metric('queue.length', '', 'sum', false), 'queue_length'],
    [metric('temperature', 'Cel'), 'temperature_celsius'],
    [metric('odd unit', 'furlongs/fortnight'), 'odd_unit_furlongs_per_fortnight'],
    [metric('2xx.responses', '', 'sum', true), '_2xx_responses_total'],
    [metric('ünïcode.métric', ''), 'ünïcode_métric'],
  ])('%o → %s', (m, name) => {
    expect(withSuffixes(m)).toBe(name);
  });

  it('puts the namespace in front', () => {
    expect(withSuffixes(metric('http.requests', '1', 'sum', true), 'shop')).toBe('shop_http_requests_total');
  });

  it('without suffixes only replaces what Prometheus forbids', () => {
    expect(metricName(metric('http.server.requests', '{request}', 'sum', true), { namespace: '', addSuffixes: false })).toBe('http_server_requests');
    expect(metricName(metric('a:b.c', 'ms'), { namespace: '', addSuffixes: false })).toBe('a:b_c');
    expect(metricName(metric('9lives', ''), { namespace: '', addSuffixes: false })).toBe('_9lives');
  });
});
