#!/usr/bin/env node
// otelgate's command line: run | validate | components, --help, --version.
import { parseArgs } from 'node:util';

const USAGE = `Usage: otelgate <command> [options]

Commands:
  run [--config FILE]... [--set KEY=VALUE]...
                               Start the gateway (the default command). Without --config it runs
                               the shipped pipelines/default.yaml. Several --config files merge,
                               later ones winning, as in the OpenTelemetry Collector; --set flags
                               apply over them. SIGHUP reloads the config.
  validate [--config FILE]...  Check a config as run would, start nothing. Prints OK, or every
                               error (file:line:col: path: message) one per line, and exits 1.
  components                   List every receiver, processor, exporter and extension type with
                               the signals it serves and its stability.
  keys create --project NAME [--scope ingest|read|ingest,read]
                               Make an API key for a project: prints it once (the last line is the key
                               alone) and stores only its SHA-256 in the keys file of the config's
                               apikeyauth extension. --scope: what it may do, send data (ingest, the
                               default: safe for a key that ships in an app), read it back (read), or both.
  keys list                    List the keys: id, project, scopes, created, revoked (never a secret).
  keys revoke ID|KEY           Revoke a key, named by its id or as the whole key; a running otelgate
                               refuses it within seconds.
  query logs|spans|metrics --project NAME [filters]
                               Print stored rows of one project, newest first, one JSON object per
                               line (the read API's rows, read from the store exporter's file).
                               Filters: --from, --to (ISO 8601 or epoch ns), --service, --limit
                               (default 100, at most 10000); logs: --severity-min, --trace-id, --q
                               (substring of the body); spans: --trace-id, --name; metrics: --name.
  schema                       Print the JSON Schema of the pipeline YAML (for editors; the same
                               as config/otelgate.schema.json).

Options:
  -c, --config FILE  A pipeline config (YAML); may be given more than once.
  --set KEY=VALUE    Set one setting over the config files, as the Collector's --set does:
                     --set receivers.ingest.endpoint=0.0.0.0:4319 (the value is read as YAML;
                     maps merge, lists are replaced); may be given more than once.
  --project NAME     For keys create: the project the key writes to; for query: the project read.
  --scope SCOPES     For keys create: ingest, read, or ingest,read (default ingest).
  --extension ID     For keys: which apikeyauth extension, when the config has several.
  --exporter ID      For query: which store exporter, when the config has several.
  -h, --help         Show this help.
  -v, --version      Print the version.
`;

const FILTERS = ['from', 'to', 'service', 'limit', 'severity-min', 'trace-id', 'q', 'name'] as const;

const MIN_NODE: [number, number] = [22, 13];
/** How long the event loop may stay alive after a command has finished, before otelgate exits regardless. */
const EXIT_GRACE_MS = 1000;

function nodeIsRecentEnough(): boolean {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  return major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      tokens: true,
      options: {
        config: { type: 'string', short: 'c', multiple: true },
        set: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
        project: { type: 'string' },
        scope: { type: 'string' },
        extension: { type: 'string' },
        exporter: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        service: { type: 'string' },
        limit: { type: 'string' },
        'severity-min': { type: 'string' },
        'trace-id': { type: 'string' },
        q: { type: 'string' },
        name: { type: 'string' },
      },
    });
  } catch (error) {
    process.stderr.write(`otelgate: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals, tokens } = parsed;
  if (values.help === true) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (values.version === true) {
    const { VERSION } = await import('./version.js');
    process.stdout.write(`otelgate version ${VERSION}\n`);
    return 0;
  }
  if (!nodeIsRecentEnough()) {
    process.stderr.write(
      `otelgate needs Node.js ${MIN_NODE.join('.')} or newer, and this is ${process.version}: run it through npm (npm start, npx otelgate), which uses the Node 24 installed with otelgate, or install a newer Node.\n`,
    );
    return 1;
  }
  const [command = 'run', ...rest] = positionals;
  const { configArgs } = await import('./commands/config.js');
  const config = configArgs(values.config, values.set);
  if (command === 'keys') {
    const { keysCommand } = await import('./commands/keys.js');
    return keysCommand(rest[0], rest[1], { config, project: values.project, scope: values.scope, extension: values.extension });
  }
  if (command === 'query') {
    const { queryCommand } = await import('./commands/query.js');
    // parseArgs keeps the last of a repeated option; the read API refuses a repeated parameter, and so does this.
    const repeated = FILTERS.find((name) => tokens.filter((t) => t.kind === 'option' && t.name === name).length > 1);
    if (repeated !== undefined) {
      process.stderr.write(`otelgate query: --${repeated} is given more than once\n`);
      return 2;
    }
    const filters = FILTERS.flatMap((name) => (values[name] === undefined ? [] : [[name, values[name]] as [string, string]]));
    return queryCommand(rest[0], { config, project: values.project, exporter: values.exporter, filters });
  }
  if (rest.length > 0) {
    process.stderr.write(`otelgate: unexpected argument "${rest[0]}"\n\n${USAGE}`);
    return 2;
  }
  switch (command) {
    case 'run':
      return (await import('./commands/run.js')).runCommand(config);
    case 'validate':
      return (await import('./commands/validate.js')).validateCommand(config);
    case 'components':
      return (await import('./commands/components.js')).componentsCommand();
    case 'schema':
      return (await import('./commands/schema.js')).schemaCommand();
    default:
      process.stderr.write(`otelgate: unknown command "${command}"\n\n${USAGE}`);
      return 2;
  }
}

/**
 * What a command could not do, as the user reads it: a config's problems one per line, anything
 * else as its message, never a stack trace (the messages name the file and the fix).
 */
async function failure(error: unknown): Promise<number> {
  const { ConfigError, errorMessage, formatIssue } = await import('./errors.js');
  if (error instanceof ConfigError) {
    for (const issue of error.issues) process.stderr.write(`${formatIssue(issue)}\n`);
  } else {
    process.stderr.write(`otelgate: ${errorMessage(error)}\n`);
  }
  return 1;
}

// Exit by letting the event loop end, so that Node tears V8 down before its threads: process.exit()
// stops the threads first, and one of them compiling code (Sparkplug, Maglev) and waiting for a
// collection that only the main thread can run then waits for ever, and otelgate with it (seen after
// SIGTERM: a bench run's otelgate, and a test's after a request of 4 million records, the main thread
// joining that thread). A component that failed to let go of a handle must not keep otelgate alive
// either: then process.exit() after EXIT_GRACE_MS. A cluster worker's channel to its primary would
// keep it alive: it lets it go (the worker's own way, which keeps its exit code).
const code = await main(process.argv.slice(2)).catch(failure);
process.exitCode = code;
if (process.channel !== undefined) (await import('node:cluster')).default.worker?.disconnect();
setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref();
