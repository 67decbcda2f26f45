// --set on the built CLI: settings over the config files without editing them, mistakes named by their flag.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

describe('otelgate --set', () => {
  it('changes a setting over its file', () => {
    const config = ['validate', '--config', 'testdata/config/good_two_debug.yaml'];
    expect(runCli([...config, '--set', 'exporters.debug/a.verbosity=detailed'])).toEqual({ status: 0, stdout: 'OK\n', stderr: '' });
    expect(runCli([...config, '--set', 'exporters.debug/a.verbosity=loud'])).toMatchObject({
      status: 1,
      stderr: expect.stringMatching(/^--set exporters\.debug\/a\.verbosity: exporters\.debug\/a\.verbosity: /),
    });
  });

  it('blames a file, not a flag, for what the file wrote: a flag merged into a map is not the map', () => {
    const result = runCli(['validate', '--config', 'testdata/config/bad_unknown_type.yaml', '--set', 'exporters.debugg.verbosity=detailed']);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^testdata\/config\/bad_unknown_type\.yaml:\d+:\d+: /);
  });

  it('reports each mistake naming the flag it is in, never its value', () => {
    const result = runCli([
      'validate',
      '--config',
      'testdata/config/good_two_debug.yaml',
      '--set',
      'exporters.debug.verbosty=detailed',
      '--set',
      'service.pipelines.logs.exporters=[debug, nope]',
    ]);
    expect(result).toEqual({
      status: 1,
      stdout: '',
      stderr:
        '--set exporters.debug.verbosty: exporters.debug.verbosty: unknown setting "verbosty". Did you mean "verbosity"?\n' +
        '--set service.pipelines.logs.exporters: service.pipelines.logs.exporters[1]: exporter "nope" is not defined in exporters. Valid exporters: debug/a, debug/b, debug.\n',
    });
  });
});
