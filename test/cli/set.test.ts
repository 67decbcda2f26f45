// --set on the built CLI: settings over the config files without editing them, mistakes named by their flag.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

describe('otelgate --set', () => {
  it('changes a setting over its file', () => {
    const config = ['validate', '--config', 'testdata/config/good_two_debug.yaml'];
    expect(runCli([...config, '--set', 'exporters.debug/a.verbosity=detailed'])).toEqual({ status: 0, stdout: 'OK\n', stderr: '' });
    expect(runCli([...config, '--set', 'exporters.debug/a.verbosity=loud'])).toMatchObject({
      status: 1,
      stderr: expect.stringMatching(/^--set exporters\.debug\/a\.verbosity=loud: exporters\.debug\/a\.verbosity: /),
    });
  });

  it('reports each mistake naming the flag it is in', () => {
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
        '--set exporters.debug.verbosty=detailed: exporters.debug.verbosty: unknown setting "verbosty". Did you mean "verbosity"?\n' +
        '--set service.pipelines.logs.exporters=[debug, nope]: service.pipelines.logs.exporters[1]: exporter "nope" is not defined in exporters. Valid exporters: debug/a, debug/b, debug.\n',
    });
  });
});
