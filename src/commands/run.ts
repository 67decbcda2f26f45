// `otelgate run`: validate, start every component, serve until SIGTERM or SIGINT, then shut down
// within service.shutdown_timeout. SIGHUP re-reads the config, as the Collector does: a valid one
// replaces the running pipelines (those finish their batches first), an invalid one is reported
// and the running config kept. With service.workers above 1 this process becomes the primary
// (cluster/primary.ts) and each worker it forks runs this again, as a worker.
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import { isToWorker, type FromWorker } from '../cluster/messages.js';
import { runPrimary } from '../cluster/primary.js';
import { builtinRegistry } from '../components.js';
import type { ResolvedConfig } from '../config/validate.js';
import { ConfigError } from '../errors.js';
import { Service, type ShutdownResult } from '../runtime/service.js';
import { createLogger } from '../telemetry/logger.js';
import { SelfMetrics } from '../telemetry/metrics.js';
import { VERSION } from '../version.js';
import { logIssue, readConfig, type ConfigArgs } from './config.js';
import { SAME_STOP_MS, watchNpmParent } from './parent.js';

/** A failure's message, without its stack: start failures are the user's to fix, not a bug. */
const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The config read and validated, or undefined when it is invalid (every problem logged). */
function loadConfig(args: ConfigArgs, read: (file: string) => string, logger: Logger, warn: boolean): ResolvedConfig | undefined {
  try {
    const resolved = readConfig(args, builtinRegistry(), read);
    if (warn) for (const warning of resolved.warnings) logIssue(logger, warning);
    return resolved;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const issue of error.issues) logIssue(logger, issue);
    return undefined;
  }
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

/** One start of the pipelines with one config: what a reload stops and replaces. */
interface Pipelines {
  config: ResolvedConfig;
  logger: Logger;
  service: Service;
  telemetry: SelfMetrics;
}

function loggerFor(config: ResolvedConfig, worker: string | undefined): Logger {
  const base = createLogger(config.service.telemetry.logs);
  return worker === undefined ? base : base.child({ worker: Number(worker) });
}

async function startPipelines(config: ResolvedConfig, logger: Logger, worker: string | undefined): Promise<Pipelines> {
  const telemetry = new SelfMetrics(config.service.telemetry.metrics, logger.child({ kind: 'telemetry' }), worker === undefined);
  try {
    await telemetry.start();
    const service = new Service(config, logger, telemetry);
    await service.start();
    return { config, logger, service, telemetry };
  } catch (error) {
    await telemetry.shutdown();
    throw error;
  }
}

/** Stops the pipelines, letting every batch under way finish within shutdown_timeout. */
async function stopPipelines(running: Pipelines): Promise<ShutdownResult> {
  const result = await running.service.shutdown();
  await running.telemetry.shutdown();
  return result;
}

export async function runCommand(args: ConfigArgs): Promise<number> {
  const worker = cluster.isWorker ? process.env['OTELGATE_WORKER'] : undefined;
  const bootBase = createLogger({ level: 'info' });
  const bootLogger = worker === undefined ? bootBase : bootBase.child({ worker: Number(worker) });
  bootLogger.info({ version: VERSION, node: process.version, config: args.files }, 'Starting otelgate...');
  // What this process read, for its workers should it become their primary; a worker reads that.
  let texts: Record<string, string> = worker === undefined ? {} : await configFromPrimary();
  const readInto =
    (into: Record<string, string>) =>
    (file: string): string => {
      if (worker !== undefined) {
        const text = texts[file];
        if (text === undefined) throw Object.assign(new Error(`${file} was not read by the primary`), { code: 'ENOENT' });
        return text;
      }
      const text = readFileSync(file, 'utf8');
      into[file] = text;
      return text;
    };
  // A worker's warnings were the primary's to print.
  const resolved = loadConfig(args, readInto(texts), bootLogger, worker === undefined);
  if (resolved === undefined) {
    bootLogger.error('Invalid configuration; otelgate did not start. Check it with: otelgate validate --config FILE');
    return 1;
  }

  let logger = loggerFor(resolved, worker);
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, 'Unexpected error; otelgate stops');
    process.exit(1);
  });
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'Unhandled promise rejection'));
  if (cluster.isPrimary && resolved.service.workers > 1) return runPrimary(resolved, logger, texts, args);

  // Signal handlers go in before anything starts: a signal during start-up must still shut down cleanly.
  let signalled: NodeJS.Signals | undefined;
  let signalledAt = 0;
  let onStop: (() => void) | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    // A worker's second signal is the primary's to act on (it kills the workers): a terminal's
    // Ctrl-C reaches a worker as well as the primary's shutdown message, in either order.
    if (signalled !== undefined && (worker !== undefined || Date.now() - signalledAt < SAME_STOP_MS)) return;
    if (signalled !== undefined) {
      logger.warn({ signal }, 'Second signal received; exiting without waiting for shutdown to finish');
      process.exit(1);
    }
    signalled = signal;
    signalledAt = Date.now();
    logger.info({ signal }, 'Received signal from OS');
    onStop?.();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  // SIGHUP would end the process (Node's default) until otelgate can reload: it is held from here.
  // A worker reloads when its primary says so, with the texts the primary read.
  let onHangup = (): void => {
    if (worker === undefined) logger.warn({ signal: 'SIGHUP' }, 'Received signal from OS before otelgate was ready; nothing to reload yet');
  };
  process.on('SIGHUP', () => onHangup());
  if (worker === undefined) {
    watchNpmParent(() => {
      if (signalled !== undefined) return;
      logger.info('The npm process that started otelgate has exited; shutting down as on SIGTERM');
      onSignal('SIGTERM');
    });
  }
  // The primary may be gone between the check and the send (EPIPE): nothing is left to tell then.
  const tell = (message: FromWorker): void => {
    if (process.connected) process.send?.(message, undefined, {}, () => {});
  };

  let current: Pipelines;
  try {
    current = await startPipelines(resolved, logger, worker);
  } catch (error) {
    logger.error({ error: reason(error) }, `otelgate could not start: ${reason(error)}`);
    return 1;
  }
  logger.info('Everything is ready. Begin running and processing data.');
  tell({ type: 'ready' });

  /**
   * Replaces the running pipelines by those of `next`: the old ones stop first (their receivers
   * close, the batches under way finish, exporters flush), then the new ones start. If the new
   * ones cannot start, the old config starts again; if that fails too, otelgate stops (exit 1).
   */
  const replace = async (next: ResolvedConfig): Promise<number | undefined> => {
    const previous = current;
    logger.info('The config is valid; restarting the pipelines with it');
    const stopped = await stopPipelines(previous);
    if (!stopped.clean) logger.error({ abandoned_batches: stopped.abandoned }, 'The running pipelines did not finish within shutdown_timeout; starting the new ones all the same');
    const nextLogger = loggerFor(next, worker);
    try {
      current = await startPipelines(next, nextLogger, worker);
      logger = nextLogger;
      logger.info('Config reloaded. Everything is ready. Begin running and processing data.');
      return undefined;
    } catch (error) {
      logger.error({ error: reason(error) }, `The new config could not start: ${reason(error)}; starting the previous one again`);
    }
    try {
      current = await startPipelines(previous.config, logger, worker);
      logger.info('The previous config runs again. Everything is ready. Begin running and processing data.');
      return undefined;
    } catch (error) {
      logger.error({ error: reason(error) }, `The previous config could not start again either: ${reason(error)}; otelgate stops`);
      return 1;
    }
  };

  // Reloads and the shutdown take turns: each waits for the one before it.
  let turn: Promise<unknown> = Promise.resolve();
  let failed: number | undefined;
  const reloadWith = (readNext: () => ResolvedConfig | undefined, onAccepted: () => void): void => {
    turn = turn.then(async () => {
      if (signalled !== undefined || failed !== undefined) return;
      const next = readNext();
      if (next === undefined) {
        logger.error('The new config is invalid; otelgate keeps running with the config it has');
        return;
      }
      if (worker === undefined && next.service.workers > 1) {
        logger.error({ workers: next.service.workers }, 'service.workers takes effect only at a restart; otelgate keeps running with the config it has');
        return;
      }
      onAccepted();
      failed = await replace(next);
      if (failed !== undefined) {
        signalled = 'SIGTERM';
        onStop?.();
      }
    });
  };
  onHangup = () => {
    if (worker !== undefined) return;
    logger.info({ signal: 'SIGHUP' }, 'Received signal from OS; reloading the config');
    const fresh: Record<string, string> = {};
    reloadWith(
      () => loadConfig(args, readInto(fresh), logger, true),
      () => (texts = fresh),
    );
  };
  // A worker hears from its primary: shut down (as on a first signal), reload, or send the metrics for a scrape.
  process.on('message', (message: unknown) => {
    if (!isToWorker(message)) return;
    if (message.type === 'metrics') {
      void current.telemetry.exposition().then(
        (text) => tell({ type: 'metrics', id: message.id, text }),
        () => tell({ type: 'metrics', id: message.id, text: '' }),
      );
    } else if (message.type === 'reload') {
      logger.info('Reload asked by the primary');
      reloadWith(
        () => {
          texts = message.texts;
          return loadConfig(args, readInto(texts), logger, false);
        },
        () => {},
      );
    } else if (message.type === 'shutdown' && signalled === undefined) {
      signalled = 'SIGTERM';
      logger.info('Shutdown asked by the primary');
      onStop?.();
    }
  });

  // A pipeline of nop components holds no handle of its own; this keeps otelgate up until a signal.
  const keepAlive = setInterval(() => {}, 1 << 30);
  return new Promise<number>((resolve) => {
    onStop = () => {
      void turn.then(async () => {
        if (failed !== undefined) {
          clearInterval(keepAlive);
          resolve(failed);
          return;
        }
        logger.info({ timeout_ms: current.config.service.shutdownTimeoutMs }, 'Starting shutdown...');
        const result = await stopPipelines(current);
        clearInterval(keepAlive);
        if (result.clean) logger.info('Shutdown complete.');
        else logger.error({ abandoned_batches: result.abandoned }, 'Shutdown timed out; exiting with work still under way');
        resolve(result.clean ? 0 : 1);
      });
    };
    if (signalled !== undefined) onStop();
  });
}
