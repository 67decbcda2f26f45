// The Collector's own test config for this processor (testdata/collector/probabilistic_sampler/
// config.yaml, its first line says where it comes from) loads unchanged; its settings resolve to
// the Collector's values with the Collector's defaults (as its config_test.go expects them). The
// Collector's file names a nop receiver it does not define (its test loads only `processors`): a
// second file defines it, as a second --config would.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinRegistry } from '../../../src/components.js';
import { loadConfig } from '../../../src/config/load.js';
import { validateConfig } from '../../../src/config/validate.js';
import { ROOT } from '../../helpers/cli.js';

const FILE = join(ROOT, 'testdata', 'collector', 'probabilistic_sampler', 'config.yaml');

describe('the Collector\'s testdata/config.yaml for probabilistic_sampler', () => {
  it('says where it comes from', () => {
    expect(readFileSync(FILE, 'utf8').split('\n')[0]).toMatch(/^# From open-telemetry\/opentelemetry-collector-contrib processor\/probabilisticsamplerprocessor\/testdata\/config\.yaml at commit [0-9a-f]{40}\b/);
  });

  it('loads and validates, each processor with the Collector\'s settings and defaults', () => {
    const receivers = join(mkdtempSync(join(tmpdir(), 'otelgate-sampler-')), 'receivers.yaml');
    writeFileSync(receivers, 'receivers: {nop: }\n');
    const resolved = validateConfig(loadConfig([FILE, receivers]), builtinRegistry());
    expect(resolved.warnings).toEqual([]);
    const config = (id: string): unknown => resolved.components.processor.get(id)?.config;
    expect(config('probabilistic_sampler')).toEqual({
      sampling_percentage: 15.3,
      hash_seed: 0,
      mode: 'proportional',
      fail_closed: true,
      sampling_precision: 4,
      attribute_source: 'traceID',
      from_attribute: '',
      sampling_priority: '',
    });
    expect(config('probabilistic_sampler/logs')).toEqual({
      sampling_percentage: 15.3,
      hash_seed: 22,
      mode: 'hash_seed',
      fail_closed: true,
      sampling_precision: 4,
      attribute_source: 'record',
      from_attribute: 'foo',
      sampling_priority: 'bar',
    });
    expect(resolved.service.pipelines.map((p) => [p.id, p.processors])).toEqual([
      ['traces', ['probabilistic_sampler']],
      ['logs', ['probabilistic_sampler/logs']],
    ]);
  });
});
