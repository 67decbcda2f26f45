// `otelgate validate` on the built CLI: each config mistake is named with its file, line and path.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const cases: [file: string, lines: string[]][] = [
  ['bad_unknown_type.yaml', [':4:3: exporters.debugg: unknown exporter type "debugg". Did you mean "debug"?']],
  ['bad_undefined_component.yaml', [':9:28: service.pipelines.logs.exporters[1]: exporter "debug/b" is not defined in exporters. Did you mean "debug/a"?']],
  ['bad_unknown_setting.yaml', [':5:5: exporters.debug.verbosty: unknown setting "verbosty". Did you mean "verbosity"?']],
  ['bad_wrong_type.yaml', [':6:5: exporters.debug/eu.use_internal_logger: must be true or false (got the string "yes")']],
  ['bad_wrong_enum.yaml', [':5:5: exporters.debug.verbosity: must be one of basic, normal, detailed (got the string "detaild"). Did you mean "detailed"?']],
  ['bad_signal.yaml', [':17:20: service.pipelines.logs.processors[0]: processor "span" does not support logs; its type "span" supports traces']],
  ['bad_missing_required.yaml', [':7:5: service.pipelines.logs.exporters: missing required setting "exporters"']],
  [
    'bad_memory_limiter.yaml',
    [
      ':4:3: processors.memory_limiter.check_interval: must be greater than zero; 1s is the usual choice',
      ':6:5: processors.memory_limiter.spike_limit_mib: must be smaller than limit_mib (100)',
    ],
  ],
  ['bad_pipeline_id.yaml', [':7:5: service.pipelines.log: "log" is not a pipeline id: write logs, traces or metrics, optionally followed by /name. Did you mean "logs"?']],
  [
    'bad_pipeline_id_and_exporter.yaml',
    [
      ':7:5: service.pipelines.log: "log" is not a pipeline id: write logs, traces or metrics, optionally followed by /name. Did you mean "logs"?',
      ':9:26: service.pipelines.log.exporters[1]: exporter "debugg" is not defined in exporters. Did you mean "debug"?',
    ],
  ],
  ['bad_yaml.yaml', [':6:1: YAML syntax: Flow sequence in block collection must be sufficiently indented and end with a ]']],
  [
    'bad_workers_store.yaml',
    [
      ':7:3: service.workers: 2 workers would each run exporter "store", but the store is written by one process (its commits, checkpoints and retention are coordinated inside it); set service.workers to 1, or run it in an otelgate of its own',
    ],
  ],
  [
    'bad_workers_store_colon.yaml',
    [
      ':7:3: service.workers: 2 workers would each run exporter "store/a:b", but the store is written by one process (its commits, checkpoints and retention are coordinated inside it); set service.workers to 1, or run it in an otelgate of its own',
    ],
  ],
  ['bad_duration.yaml', [':6:3: service.shutdown_timeout: must be a duration such as "500ms", "5s" or "1m30s" (got the string "5 seconds")']],
  [
    'bad_top_level.yaml',
    [
      ':3:1: exporter: unknown setting "exporter". Did you mean "exporters"?',
      ':9:19: service.pipelines.logs.exporters[0]: exporter "debug" is not defined in exporters. Define it under exporters.',
    ],
  ],
];

describe('otelgate validate', () => {
  it.each(cases)('%s: exit 1, every error on its own line, with file and path', (file, expected) => {
    const path = `testdata/config/${file}`;
    const result = runCli(['validate', '--config', path]);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(expected.map((line) => `${path}${line}\n`).join(''));
  });

  it('accepts two named instances of one exporter type', () => {
    const result = runCli(['validate', '--config', 'testdata/config/good_two_debug.yaml']);
    expect(result).toEqual({ status: 0, stdout: 'OK\n', stderr: '' });
  });

  it('warns about a defined but unused component, and still says OK', () => {
    const result = runCli(['validate', '--config', 'testdata/config/warn_unused.yaml']);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('OK\n');
    expect(result.stderr).toBe(
      'warning: testdata/config/warn_unused.yaml:5:3: exporters.nop: exporter "nop" is defined but not used in any pipeline; it will not be started\n',
    );
  });

  it('expands environment variables, with defaults, before validating', () => {
    const path = 'testdata/config/env_expansion.yaml';
    expect(runCli(['validate', '--config', path], { OTELGATE_TEST_LIMIT: '512', OTELGATE_TEST_VERBOSITY: 'normal' })).toEqual({
      status: 0,
      stdout: 'OK\n',
      stderr: '',
    });
    const unset = runCli(['validate', '--config', path], { OTELGATE_TEST_VERBOSITY: 'loud' });
    expect(unset.status).toBe(1);
    expect(unset.stderr.split('\n')).toEqual([
      `warning: ${path}:6:5: processors.memory_limiter.limit_mib: environment variable OTELGATE_TEST_LIMIT is not set; it expands to the empty string (set it, or give a default as \${env:OTELGATE_TEST_LIMIT:-default})`,
      `${path}:6:5: processors.memory_limiter.limit_mib: must be a whole number (got the string "")`,
      `${path}:9:5: exporters.debug.verbosity: must be one of basic, normal, detailed (got the string "loud")`,
      '',
    ]);
  });

  it('merges several --config files, later ones winning', () => {
    expect(runCli(['validate', '-c', 'testdata/config/merge_base.yaml', '-c', 'file:testdata/config/merge_override.yaml']).stdout).toBe('OK\n');
    const alone = runCli(['validate', '-c', 'testdata/config/merge_override.yaml']);
    expect(alone.status).toBe(1);
    expect(alone.stderr).toContain('service.pipelines.logs.receivers: missing required setting "receivers"');
  });

  it('names a config file that does not exist', () => {
    expect(runCli(['validate', '--config', 'testdata/config/nope.yaml'])).toEqual({
      status: 1,
      stdout: '',
      stderr: 'testdata/config/nope.yaml: cannot read the config file: no such file\n',
    });
  });

  it('validates the shipped default pipeline', () => {
    expect(runCli(['validate'])).toEqual({ status: 0, stdout: 'OK\n', stderr: '' });
  });
});
