// `otelgate validate`: check the config as `run` would, start nothing.
import { ConfigError, formatIssue } from '../errors.js';
import { readConfig, type ConfigArgs } from './config.js';

export function validateCommand(config: ConfigArgs): number {
  try {
    const resolved = readConfig(config);
    for (const warning of resolved.warnings) process.stderr.write(`${formatIssue(warning)}\n`);
    process.stdout.write('OK\n');
    return 0;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const issue of error.issues) process.stderr.write(`${formatIssue(issue)}\n`);
    return 1;
  }
}
