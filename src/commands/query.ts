// `otelgate query logs|spans|metrics --project NAME [filters]`: the read API's rows from the
// command line, as NDJSON, read straight from the store file of the config's store exporter.
import { resolve } from 'node:path';
import { openForReading } from '../exporters/store/database.js';
import type { StoreConfig } from '../exporters/store/config.js';
import { readRows } from '../exporters/store/read.js';
import { ConfigError } from '../errors.js';
import { parseQuery, QUERY_SIGNALS, QueryError } from '../query/params.js';
import { chooseComponent, readConfig, type ConfigArgs } from './config.js';

export interface QueryOptions {
  config: ConfigArgs;
  project: string | undefined;
  exporter: string | undefined;
  /** The filters as given: option name (severity-min) → value. */
  filters: [string, string][];
}

/** --severity-min on the command line is severity_min in the API. */
const optionName = (parameter: string): string => `--${parameter.replaceAll('_', '-')}`;

function storePath(config: ConfigArgs, exporter: string | undefined): string {
  const choice = chooseComponent(readConfig(config), 'exporter', 'store', exporter);
  if ('chosen' in choice) return resolve((choice.chosen.config as StoreConfig).path);
  switch (choice.problem) {
    case 'unknown':
      throw new Error(`no store exporter "${exporter}" in the config (found: ${choice.ids})`);
    case 'none':
      throw new Error('the config has no store exporter, so there is nothing to query; give the --config of the otelgate that stores the data');
    case 'several':
      throw new Error(`the config has several store exporters (${choice.ids}); choose one with --exporter ID`);
  }
}

export function queryCommand(what: string | undefined, options: QueryOptions): number {
  const signal = what === undefined ? undefined : QUERY_SIGNALS.get(what);
  if (signal === undefined) {
    process.stderr.write(`otelgate query: say what to read: logs, spans or metrics (got ${what === undefined ? 'nothing' : `"${what}"`})\n`);
    return 2;
  }
  if (options.project === undefined || options.project.trim() === '') {
    process.stderr.write('otelgate query: --project NAME is required: rows are read one project at a time\n');
    return 2;
  }
  let query;
  try {
    query = parseQuery(signal, options.filters.map(([name, value]) => [name.replaceAll('-', '_'), value]), optionName);
  } catch (error) {
    if (!(error instanceof QueryError)) throw error;
    process.stderr.write(`otelgate query: ${error.message}\n`);
    return 2;
  }
  try {
    const db = openForReading(storePath(options.config, options.exporter));
    try {
      // Rows go out as they are read, a chunk at a time: an answer of any size never sits in memory whole.
      let chunk = '';
      for (const row of readRows(db, options.project, query)) {
        chunk += `${row}\n`;
        if (chunk.length > 1 << 20) {
          process.stdout.write(chunk);
          chunk = '';
        }
      }
      if (chunk !== '') process.stdout.write(chunk);
    } finally {
      db.close();
    }
  } catch (error) {
    // A config's problems are printed one per line, as every command prints them (cli.ts).
    if (error instanceof ConfigError) throw error;
    process.stderr.write(`otelgate query: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  return 0;
}
