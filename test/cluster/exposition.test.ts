// The primary's /metrics: every worker's exposition merged, each family once, each sample with its worker.
import { describe, expect, it } from 'vitest';
import { mergeExpositions } from '../../src/cluster/exposition.js';

const worker = (accepted: number, le1: number): string =>
  [
    '# HELP target_info Target metadata',
    '# TYPE target_info gauge',
    'target_info{service_name="otelgate"} 1',
    '# HELP otelcol_receiver_accepted_log_records_total Records handed to the pipelines (log records)',
    '# TYPE otelcol_receiver_accepted_log_records_total counter',
    `otelcol_receiver_accepted_log_records_total{receiver="ingest",transport="http"} ${accepted}`,
    '# HELP up_plain A sample without labels',
    '# TYPE up_plain gauge',
    'up_plain 1',
    'empty_braces{} 2',
    '# HELP http_duration Request durations',
    '# TYPE http_duration histogram',
    `http_duration_bucket{le="1"} ${le1}`,
    'http_duration_bucket{le="+Inf"} 9',
    'http_duration_sum 12.5',
    'http_duration_count 9',
    '',
  ].join('\n');

describe('mergeExpositions', () => {
  it('writes each family once with every worker\'s samples, labelled with the worker', () => {
    expect(mergeExpositions([
      { worker: '1', text: worker(3, 4) },
      { worker: '2', text: worker(5, 6) },
    ])).toBe(
      [
        '# HELP target_info Target metadata',
        '# TYPE target_info gauge',
        'target_info{worker="1",service_name="otelgate"} 1',
        'target_info{worker="2",service_name="otelgate"} 1',
        '# HELP otelcol_receiver_accepted_log_records_total Records handed to the pipelines (log records)',
        '# TYPE otelcol_receiver_accepted_log_records_total counter',
        'otelcol_receiver_accepted_log_records_total{worker="1",receiver="ingest",transport="http"} 3',
        'otelcol_receiver_accepted_log_records_total{worker="2",receiver="ingest",transport="http"} 5',
        '# HELP up_plain A sample without labels',
        '# TYPE up_plain gauge',
        'up_plain{worker="1"} 1',
        'empty_braces{worker="1"} 2',
        'up_plain{worker="2"} 1',
        'empty_braces{worker="2"} 2',
        '# HELP http_duration Request durations',
        '# TYPE http_duration histogram',
        'http_duration_bucket{worker="1",le="1"} 4',
        'http_duration_bucket{worker="1",le="+Inf"} 9',
        'http_duration_sum{worker="1"} 12.5',
        'http_duration_count{worker="1"} 9',
        'http_duration_bucket{worker="2",le="1"} 6',
        'http_duration_bucket{worker="2",le="+Inf"} 9',
        'http_duration_sum{worker="2"} 12.5',
        'http_duration_count{worker="2"} 9',
        '',
      ].join('\n'),
    );
  });

  it('keeps a family only one worker has, and gives nothing for no workers', () => {
    expect(mergeExpositions([
      { worker: '1', text: '# HELP a_total A\n# TYPE a_total counter\na_total 1\n' },
      { worker: '2', text: '# HELP b_total B\n# TYPE b_total counter\nb_total{x="a b{c}"} 2\n' },
    ])).toBe('# HELP a_total A\n# TYPE a_total counter\na_total{worker="1"} 1\n# HELP b_total B\n# TYPE b_total counter\nb_total{worker="2",x="a b{c}"} 2\n');
    expect(mergeExpositions([])).toBe('');
  });
});
