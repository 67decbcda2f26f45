// `otelgate run`: validate, start every component, serve until SIGTERM or SIGINT, then shut down
// within service.shutdown_timeout. With service.workers above 1 this process becomes the primary
// (cluster/primary.ts) and each worker it forks runs this again, as a worker.
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import { isToWorker, type FromWorker } from '../cluster/messages.js';
import { runPrimary } from '../cluster/primary.js';
import { builtinRegistry } from '../components.js';
import { ConfigError, formatIssue, type ConfigIssue } from '../errors.js';
import { Service } from '../runtime/service.js';
import { createLogger } from '../telemetry/logger.js';
import { SelfMetrics } from '../telemetry/metrics.js';
import { VERSION } from '../version.js';
import { readConfig } from './config.js';

function logIssue(logger: Logger, issue: ConfigIssue): void {
  const fields = { file: issue.file, line: issue.line, path: issue.path };
  if (issue.severity === 'error') logger.error(fields, formatIssue(issue));
  else logger.warn(fields, formatIssue(issue));
}

/** A worker's config: the texts its primary read, so that every worker runs the same one. */
function configFromPrimary(): Promise<Record<string, string>> {
  return new Promise((resolve) => {
    const onMessage = (message: unknown): void => {
      if (!isToWorker(message) || message.type !== 'config') return;
      process.off('message', onMessage);
      resolve(message.texts);
    };
    process.on('message', onMessage);
    process.send?.({ type: 'config?' } satisfies FromWorker);
  });
}

export async function runCommand(files: string[]): Promise<number> {
  const worker = cluster.isWorker ? process.env['OTELGATE_WORKER'] : undefined;
  const bootBase = createLogger({ level: 'info' });
  const bootLogger = worker === undefined ? bootBase : bootBase.child({ worker: Number(worker) });
  bootLogger.info({ version: VERSION, node: process.version, config: files }, 'Starting otelgate...');
  // What this process read, for its workers should it become their primary; a worker reads that.
  const texts: Record<string, string> = worker === undefined ? {} : await configFromPrimary();
  const read = (file: string): string => {
    if (worker !== undefined) {
      const text = texts[file];
      if (text === undefined) throw Object.assign(new Error(`${file} was not read by the primary`), { code: 'ENOENT' });
      return text;
    }
    const text = readFileSync(file, 'utf8');
    texts[file] = text;
    return text;
  };
  let resolved;
  try {
    resolved = readConfig(files, builtinRegistry(), read);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const issue of error.issues) logIssue(bootLogger, issue);
    bootLogger.error('Invalid configuration; otelgate did not start. Check it with: otelgate validate --config FILE');
    return 1;
  }
  // A worker's warnings were the primary's to print.
  if (worker === undefined) for (const warning of resolved.warnings) logIssue(bootLogger, warning);

  const base = createLogger(resolved.service.telemetry.logs);
  const logger = worker === undefined ? base : base.child({ worker: Number(worker) });
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, 'Unexpected error; otelgate stops');
    process.exit(1);
  });
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'Unhandled promise rejection'));
  if (cluster.isPrimary && resolved.service.workers > 1) return runPrimary(resolved, logger, texts);

  // Signal handlers go in before anything starts: a signal during start-up must still shut down cleanly.
  let signalled: NodeJS.Signals | undefined;
  let onStop: (() => void) | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    // A worker's second signal is the primary's to act on (it kills the workers): a terminal's
    // Ctrl-C reaches a worker as well as the primary's shutdown message, in either order.
    if (signalled !== undefined && worker !== undefined) return;
    if (signalled !== undefined) {
      logger.warn({ signal }, 'Second signal received; exiting without waiting for shutdown to finish');
      process.exit(1);
    }
    signalled = signal;
    logger.info({ signal }, 'Received signal from OS');
    onStop?.();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  const telemetry = new SelfMetrics(resolved.service.telemetry.metrics, logger.child({ kind: 'telemetry' }), worker === undefined);
  // The primary may be gone between the check and the send (EPIPE): nothing is left to tell then.
  const tell = (message: FromWorker): void => {
    if (process.connected) process.send?.(message, undefined, {}, () => {});
  };
  // A worker hears from its primary: shut down (as on a first signal), or send the metrics for a scrape.
  process.on('message', (message: unknown) => {
    if (!isToWorker(message)) return;
    if (message.type === 'metrics') {
      void telemetry.exposition().then(
        (text) => tell({ type: 'metrics', id: message.id, text }),
        () => tell({ type: 'metrics', id: message.id, text: '' }),
      );
    } else if (signalled === undefined) {
      signalled = 'SIGTERM';
      logger.info('Shutdown asked by the primary');
      onStop?.();
    }
  });

  let service: Service;
  try {
    await telemetry.start();
    service = new Service(resolved, logger, telemetry);
    await service.start();
  } catch (error) {
    logger.error({ err: error }, 'otelgate could not start');
    return 1;
  }
  logger.info('Everything is ready. Begin running and processing data.');
  tell({ type: 'ready' });

  // A pipeline of nop components holds no handle of its own; this keeps otelgate up until a signal.
  const keepAlive = setInterval(() => {}, 1 << 30);
  return new Promise<number>((resolve) => {
    onStop = () => {
      logger.info({ timeout_ms: resolved.service.shutdownTimeoutMs }, 'Starting shutdown...');
      void service.shutdown().then(async (result) => {
        await telemetry.shutdown();
        clearInterval(keepAlive);
        if (result.clean) {
          logger.info('Shutdown complete.');
          resolve(0);
        } else {
          logger.error({ abandoned_batches: result.abandoned }, 'Shutdown timed out; exiting with work still under way');
          resolve(1);
        }
      });
    };
    if (signalled !== undefined) onStop();
  });
}
