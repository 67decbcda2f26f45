// Settings of the file_storage extension, named as the Collector's filestorage extension names
// them. Its compaction settings tune bbolt, which otelgate does not use: the ones that mean
// something for segment files act here, the rest are accepted so a Collector config ports
// unchanged, and a value other than the default is named once in a warning at start (README).
import Type, { type Static } from 'typebox';
import { durationMs } from '../../config/duration.js';
import type { SettingsProblem } from '../../runtime/component.js';

const noEffect = 'Accepted for the Collector\'s configs; it has no effect here (README: compaction).';

export const fileStorageSchema = Type.Object(
  {
    directory: Type.String({
      minLength: 1,
      default: './data/queue',
      description: 'Where the queues live, one subdirectory per component and signal; a relative path is relative to the working directory.',
    }),
    create_directory: Type.Boolean({ default: true, description: 'Create `directory` (and its parents) at start when it is missing; when false, a missing directory stops otelgate at start.' }),
    directory_permissions: Type.String({
      default: '0750',
      description: 'Octal permissions of the directories created (`directory` and each queue\'s own), minus the process umask.',
    }),
    fsync: Type.Boolean({
      default: false,
      description: 'fdatasync every write before answering: an entry then survives a power loss or an OS crash too. Without it an entry survives a crash or kill -9 of otelgate.',
    }),
    timeout: Type.String({
      format: 'duration',
      default: '1s',
      description: 'How long a queue waits at start for another process that still holds its directory (a worker being replaced) to let go.',
    }),
    recreate: Type.Boolean({ default: false, description: `${noEffect} Damaged records are always set aside and the rest kept.` }),
    compaction: Type.Object(
      {
        on_start: Type.Boolean({ default: false, description: 'At start, rewrite each segment that is partly acknowledged so that it keeps only what is still to deliver.' }),
        on_rebound: Type.Boolean({ default: false, description: 'Always in effect, whatever its value: a segment file is deleted as soon as every record in it is acknowledged.' }),
        directory: Type.Optional(Type.String({ minLength: 1, description: `${noEffect} A segment is rewritten beside itself.` })),
        max_transaction_size: Type.Union([Type.Integer({ minimum: 0 }), Type.String({ pattern: '^[0-9][0-9_]*$' })], {
          default: 65536,
          description: `${noEffect} Also accepted written 65_536, as the Collector's README writes it.`,
        }),
        rebound_needed_threshold_mib: Type.Integer({ minimum: 0, default: 100, description: noEffect }),
        rebound_trigger_threshold_mib: Type.Integer({ minimum: 0, default: 10, description: noEffect }),
        check_interval: Type.String({ format: 'duration', default: '5s', description: noEffect }),
        cleanup_on_start: Type.Boolean({ default: false, description: 'Always in effect, whatever its value: temporary files left by an interrupted rewrite are removed at start.' }),
      },
      { additionalProperties: false, default: {} },
    ),
  },
  { additionalProperties: false },
);

export type FileStorageConfig = Static<typeof fileStorageSchema>;

export function validateFileStorage(config: FileStorageConfig): SettingsProblem[] {
  const problems: SettingsProblem[] = [];
  if (!/^0?[0-7]{3}$/.test(config.directory_permissions)) {
    problems.push({ path: ['directory_permissions'], message: `"${config.directory_permissions}" is not octal permissions such as "0750"` });
  }
  if (config.compaction.on_rebound && durationMs(config.compaction.check_interval) <= 0) {
    problems.push({ path: ['compaction', 'check_interval'], message: 'must be greater than zero when on_rebound is set (as in the Collector)' });
  }
  return problems;
}

/** The settings given that do nothing here, with a value other than their default: named in a warning at start. */
export function settingsWithoutEffect(config: FileStorageConfig): string[] {
  const c = config.compaction;
  const given: [string, boolean][] = [
    ['recreate', config.recreate],
    ['compaction.directory', c.directory !== undefined],
    ['compaction.max_transaction_size', Number(String(c.max_transaction_size).replaceAll('_', '')) !== 65536],
    ['compaction.rebound_needed_threshold_mib', c.rebound_needed_threshold_mib !== 100],
    ['compaction.rebound_trigger_threshold_mib', c.rebound_trigger_threshold_mib !== 10],
    ['compaction.check_interval', durationMs(c.check_interval) !== 5000],
  ];
  return given.filter(([, set]) => set).map(([name]) => name);
}
