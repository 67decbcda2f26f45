import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { validateConfig } from '../../src/config/validate.js';
import { builtinRegistry } from '../../src/components.js';
import { ConfigError } from '../../src/errors.js';
import { Registry } from '../../src/runtime/registry.js';
import { captureExporter, logsOnlyExporter, recorder, tagProcessor, testExtension, testReceiver } from '../helpers/components.js';

function registry(): Registry {
  const rec = recorder();
  return new Registry([testReceiver(rec), tagProcessor(rec), captureExporter(rec), logsOnlyExporter, testExtension(rec)]);
}

function validate(text: string, reg = registry()) {
  const file = join(mkdtempSync(join(tmpdir(), 'otelgate-validate-')), 'config.yaml');
  writeFileSync(file, text);
  return validateConfig(loadConfig([file]), reg);
}

function problems(text: string, reg = registry()): string[] {
  try {
    validate(text, reg);
  } catch (error) {
    if (error instanceof ConfigError) {
      return error.issues.map((i) => `${i.severity === 'warning' ? 'warning: ' : ''}${i.line === undefined ? '' : `${i.line}:${i.col}: `}${i.path ? `${i.path}: ` : ''}${i.message}`);
    }
    throw error;
  }
  return [];
}

describe('validateConfig', () => {
  it('warns about defined but unused components of a valid config', () => {
    const resolved = validate(`
receivers: {testin: , testin/spare: }
exporters: {capture: }
extensions: {testext: }
service:
  pipelines:
    logs: {receivers: [testin], exporters: [capture]}
`);
    expect(resolved.warnings.map((w) => `${w.line}:${w.col}: ${w.path}: ${w.message}`)).toEqual([
      '2:23: receivers.testin/spare: receiver "testin/spare" is defined but not used in any pipeline; it will not be started',
      '4:14: extensions.testext: extension "testext" is defined but not listed in service.extensions; it will not be started',
    ]);
  });

  it('resolves pipelines, fills defaults and keeps component settings', () => {
    const resolved = validate(`
receivers: {testin: }
processors: {tag/a: {tag: a}}
exporters: {capture: , capture/2: }
extensions: {testext: }
service:
  extensions: [testext]
  pipelines:
    logs/main: {receivers: [testin], processors: [tag/a], exporters: [capture, capture/2]}
    metrics: {receivers: [testin], exporters: [capture]}
`);
    expect(resolved.service.pipelines).toEqual([
      { id: 'logs/main', signal: 'logs', receivers: ['testin'], processors: ['tag/a'], exporters: ['capture', 'capture/2'] },
      { id: 'metrics', signal: 'metrics', receivers: ['testin'], processors: [], exporters: ['capture'] },
    ]);
    expect(resolved.service.extensions).toEqual(['testext']);
    expect(resolved.service.shutdownTimeoutMs).toBe(15_000);
    expect(resolved.service.telemetry).toEqual({ logs: { level: 'info' }, metrics: { level: 'normal', readers: [] } });
    expect(resolved.components.processor.get('tag/a')?.config).toEqual({ tag: 'a' });
    expect([...resolved.components.exporter.keys()]).toEqual(['capture', 'capture/2']);
    expect(resolved.warnings).toEqual([]);
  });

  it('refuses a component in a pipeline of a signal it does not serve', () => {
    expect(
      problems(`
receivers: {testin: }
exporters: {logsonly/eu: }
service:
  pipelines:
    traces: {receivers: [testin], exporters: [logsonly/eu]}
`),
    ).toEqual(['6:47: service.pipelines.traces.exporters[0]: exporter "logsonly/eu" does not support traces; its type "logsonly" supports logs']);
  });

  it('reports every mistake in one run: a bad pipeline id does not hide what the pipeline lists', () => {
    expect(
      problems(`
receivers: {testin: }
exporters: {capture: }
service:
  pipelines:
    log: {receivers: [testin], exporters: [capture, captur]}
`),
    ).toEqual([
      '6:5: service.pipelines.log: "log" is not a pipeline id: write logs, traces or metrics, optionally followed by /name. Did you mean "logs"?',
      '6:53: service.pipelines.log.exporters[1]: exporter "captur" is not defined in exporters. Did you mean "capture"?',
    ]);
  });

  it('reports every mistake in one run: bad settings do not hide a signal the component does not serve', () => {
    expect(
      problems(`
receivers: {testin: }
exporters: {logsonly/eu: {nope: 1}}
service:
  pipelines:
    traces: {receivers: [testin], exporters: [logsonly/eu]}
`),
    ).toEqual([
      '3:27: exporters.logsonly/eu.nope: unknown setting "nope".',
      '6:47: service.pipelines.traces.exporters[0]: exporter "logsonly/eu" does not support traces; its type "logsonly" supports logs',
    ]);
  });

  it('reports every mistake in one run: a reference that cannot be expanded does not stop validation', () => {
    expect(
      problems(`
receivers: {testin: }
processors: {tag/a: {tag: "\${file:/etc/hostname}"}}
exporters: {capture: }
service:
  pipelines:
    logs: {receivers: [testin], processors: [tag/a], exporters: [captur]}
`),
    ).toEqual([
      '3:22: processors.tag/a.tag: unsupported config provider "file" in ${file:/etc/hostname}; only env is supported, as ${env:NAME}',
      '7:66: service.pipelines.logs.exporters[0]: exporter "captur" is not defined in exporters. Did you mean "capture"?',
    ]);
  });

  it('gives a string setting the empty string for an unset variable, with the warning saying so', () => {
    const resolved = validate(`
receivers: {testin: }
processors: {tag/a: {tag: "\${env:OTELGATE_TEST_SURELY_UNSET}"}}
exporters: {capture: }
service:
  pipelines:
    logs: {receivers: [testin], processors: [tag/a], exporters: [capture]}
`);
    expect(resolved.components.processor.get('tag/a')?.config).toEqual({ tag: '' });
    expect(resolved.warnings.map((w) => `${w.path}: ${w.message}`)).toEqual([
      'processors.tag/a.tag: environment variable OTELGATE_TEST_SURELY_UNSET is not set; it expands to the empty string (set it, or give a default as ${env:OTELGATE_TEST_SURELY_UNSET:-default})',
    ]);
  });

  it('refuses a component listed twice in one pipeline', () => {
    expect(
      problems(`
receivers: {testin: }
exporters: {capture: }
service:
  pipelines:
    logs: {receivers: [testin], exporters: [capture, capture]}
`),
    ).toEqual(['6:54: service.pipelines.logs.exporters[1]: exporter "capture" is listed more than once in this pipeline']);
  });

  it('refuses undefined extensions, bad component ids and settings that are not a mapping', () => {
    expect(
      problems(`
receivers: {testin: }
exporters: {capture: , "capture/": , capture/x: [1]}
extensions: {testext: }
service:
  extensions: [testex]
  pipelines:
    logs: {receivers: [testin], exporters: [capture]}
`),
    ).toEqual([
      '3:24: exporters.capture/: "capture/" is not a valid component id: the name after "/" must be non-empty, without spaces or "/"',
      '3:38: exporters.capture/x: the settings of exporter "capture/x" must be a mapping (or left empty for the defaults)',
      '6:16: service.extensions[0]: extension "testex" is not defined in extensions. Did you mean "testext"?',
    ]);
  });

  it('needs at least one pipeline, and a service section', () => {
    expect(problems('receivers: {testin: }\nservice:\n  pipelines: {}\n')).toEqual([
      '3:3: service.pipelines: no pipelines are defined; add at least one, for example service.pipelines.logs',
    ]);
    expect(problems('receivers: {testin: }\n')).toEqual([
      'service: missing required setting "service"',
    ]);
  });

  it('does not report a reference to a component that already failed on its own', () => {
    expect(
      problems(`
receivers: {testin: }
exporters: {captur: }
service:
  pipelines:
    logs: {receivers: [testin], exporters: [captur]}
`),
    ).toEqual(['3:13: exporters.captur: unknown exporter type "captur". Did you mean "capture"?']);
  });

  it('lists the valid types when nothing is close', () => {
    expect(problems('exporters: {zzzzzz: }\nservice: {pipelines: {logs: {receivers: [x], exporters: [y]}}}\n', builtinRegistry())).toContain(
      '1:13: exporters.zzzzzz: unknown exporter type "zzzzzz". Valid exporter types: debug, loki, nop, otlp, otlp_http, otlphttp, prometheusremotewrite, store.',
    );
  });

  it('says which Collector components otelgate does not have, and what to use instead', () => {
    const text = `
receivers: {otlp: {protocols: {grpc: }}, prometheus: }
processors: {batch: , tail_sampling/health: }
exporters: {otlp/tempo: {endpoint: "tempo:4317"}, logging: , file: }
extensions: {basicauth/server: , constructor: }
service: {pipelines: {logs: {receivers: [otlp], exporters: [logging]}}}
`;
    expect(problems(text, builtinRegistry())).toEqual([
      '2:42: receivers.prometheus: the Collector\'s receiver "prometheus" is not an otelgate component: otelgate does not scrape; have Prometheus remote-write elsewhere, or send OTLP metrics to the otlp receiver',
      '3:23: processors.tail_sampling/health: the Collector\'s processor "tail_sampling" is not an otelgate component: not in otelgate yet; remove it to run the rest of the pipeline',
      '4:51: exporters.logging: the Collector\'s exporter "logging" is not an otelgate component: the Collector renamed it debug, which otelgate has',
      '4:62: exporters.file: the Collector\'s exporter "file" is not an otelgate component: not in otelgate yet; use the store exporter to keep data locally, or debug to print it',
      '5:14: extensions.basicauth/server: the Collector\'s extension "basicauth" is not an otelgate component: otelgate authenticates requests by API key: use apikeyauth',
      '5:34: extensions.constructor: unknown extension type "constructor". Valid extension types: apikeyauth, file_storage, health_check.',
    ]);
  });

  it('refuses a store commit_interval longer than 1s, naming the file position and the bound', () => {
    const text = `
receivers: {testin: }
exporters: {store: {path: /tmp/never-opened.db, commit_interval: 2s}}
service: {pipelines: {logs: {receivers: [testin], exporters: [store]}}}
`;
    const reg = builtinRegistry();
    reg.register(testReceiver(recorder()));
    expect(problems(text, reg)).toEqual([
      '3:49: exporters.store.commit_interval: must be at most 1s: every batch may wait that long for its answer; a few milliseconds (2ms to 10ms) is enough for small requests to share commits',
    ]);
    expect(problems(text.replace('2s', '1s'), reg)).toEqual([]);
  });

  it('reads the telemetry and shutdown settings', () => {
    const resolved = validate(`
receivers: {testin: }
exporters: {capture: }
service:
  shutdown_timeout: 1m30s
  telemetry: {logs: {level: debug, encoding: json}}
  pipelines:
    logs: {receivers: [testin], exporters: [capture]}
`);
    expect(resolved.service.shutdownTimeoutMs).toBe(90_000);
    expect(resolved.service.telemetry.logs).toEqual({ level: 'debug', encoding: 'json' });
  });
});
