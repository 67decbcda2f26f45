// `otelgate run`: validate, start every component, serve until SIGTERM or SIGINT, then shut down
// within service.shutdown_timeout. SIGHUP re-reads the config, as the Collector does: a valid one
// replaces the running pipelines (those finish their batches first), an invalid one is reported
// and the running config kept. With service.workers above 1 this process becomes the primary
// (cluster/primary.ts) and each worker it forks runs this again, as a worker.
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import type { Logger } from 'pino';
import { isToWorker, type FromWorker } from '../cluster/messages.js';
import { runPrimary } from '../cluster/primary.js';
import type { ResolvedConfig } from '../config/validate.js';
import { errorMessage } from '../errors.js';
import { Service, type ShutdownResult } from '../runtime/service.js';
import { createLogger } from '../telemetry/logger.js';
import { SelfMetrics } from '../telemetry/metrics.js';
import { VERSION } from '../version.js';
import { readConfigLogged, type ConfigArgs } from './config.js';
import { SAME_STOP_MS, watchNpmParent } from './parent.js';

/**
 * V8 moves objects made where most of those made before outlived a young-generation collection
 * straight to the old generation ("allocation-site pretenuring"). A batch's rows live until its
 * exporter has encoded them, so a collection that comes while one is encoded finds most of them
 * alive, and V8 then makes the decoder's rows old from birth: every row after that waits for a
 * full collection, and each young collection scans them. Measured on the metrics bench to
 * prometheusremotewrite: young collections 3.0 ms each, against 0.75 ms without it, and 9 % more
 * points a second (docs/architecture.md). Set here, before any row is made, so that npm start,
 * the bin and a worker all run with it.
 */
function keepRowsYoung(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}

/**
 * V8 starts a full collection's marking once the old generation's room left under its limit is
 * less than the young generation could promote at once: with the 32 MB semi-spaces otelgate runs
 * with, that is nearly always, and a forwarding otelgate, whose old generation (an exporter's
 * caches, a few tens of MB) hardly grows, was fully collected about twice a second, marking and
 * sweeping on a helper thread of its one core. Here marking starts when the old generation holds
 * 90 % of its limit (95 %: at once). On the remote-write bench: 15-21 full collections in 12 s
 * down to 6 (docs/architecture.md).
 */
function collectOldWhenFull(): void {
  setFlagsFromString('--incremental-marking-soft-trigger=90');
  setFlagsFromString('--incremental-marking-hard-trigger=95');
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
    const service = new Service(config, logger, telemetry, worker === undefined ? undefined : Number(worker));
    await service.start();
    return { config, service, telemetry };
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
  keepRowsYoung();
  collectOldWhenFull();
  const worker = cluster.isWorker ? process.env['OTELGATE_WORKER'] : undefined;
  const bootBase = createLogger({ level: 'info' });
  const bootLogger = worker === undefined ? bootBase : bootBase.child({ worker: Number(worker) });
  // SIGHUP would end the process (Node's default) until otelgate can reload: it is held from the
  // start. A worker reloads only when its primary says so, with the texts the primary read.
  let onHangup = (): void => {
    if (worker === undefined) bootLogger.warn({ signal: 'SIGHUP' }, 'Received signal from OS before otelgate was ready; nothing to reload yet');
  };
  process.on('SIGHUP', () => onHangup());
  bootLogger.info({ version: VERSION, node: process.version, config: args.files }, 'Starting otelgate...');
  // What this process read, for its workers should it become their primary; a worker reads that.
  let texts: Record<string, string> = worker === undefined ? {} : await configFromPrimary();
  const read = (file: string): string => {
    if (worker === undefined) return (texts[file] = readFileSync(file, 'utf8'));
    const text = texts[file];
    if (text === undefined) throw Object.assign(new Error(`${file} was not read by the primary`), { code: 'ENOENT' });
    return text;
  };
  // A worker's warnings were the primary's to print.
  const resolved = readConfigLogged(args, read, bootLogger, worker === undefined);
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
  if (cluster.isPrimary && resolved.service.workers > 1) {
    return runPrimary(resolved, logger, texts, args, (handler) => (onHangup = handler));
  }

  // Signal handlers go in before anything starts: a signal during start-up must still shut down cleanly.
  let signalled: NodeJS.Signals | undefined;
  let signalledAt = 0;
  let onStop: (() => void) | undefined;
  const stop = (signal: NodeJS.Signals): void => {
    signalled = signal;
    signalledAt = Date.now();
    onStop?.();
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    // A worker's second signal is the primary's to act on (it kills the workers): a terminal's
    // Ctrl-C reaches a worker as well as the primary's shutdown message, in either order.
    if (signalled !== undefined && (worker !== undefined || Date.now() - signalledAt < SAME_STOP_MS)) return;
    if (signalled !== undefined) {
      logger.warn({ signal }, 'Second signal received; exiting without waiting for shutdown to finish');
      process.exit(1);
    }
    logger.info({ signal }, 'Received signal from OS');
    stop(signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  if (worker === undefined) {
    watchNpmParent(() => {
      if (signalled !== undefined) return;
      logger.info('The npm process that started otelgate has exited; shutting down as on SIGTERM');
      stop('SIGTERM');
    });
  }
  // The primary may be gone between the check and the send (EPIPE): nothing is left to tell then.
  const tell = (message: FromWorker): void => {
    if (process.connected) process.send?.(message, undefined, {}, () => {});
  };

  // Reloads and the shutdown take turns, each after the one before it, the first once started.
  let current: Pipelines | undefined;
  let started: () => void = () => {};
  let turn: Promise<unknown> = new Promise<void>((resolve) => (started = resolve));
  const inTurn = (step: (running: Pipelines) => Promise<void>): Promise<void> => {
    const next = turn.then(() => step(current as Pipelines));
    // A step that throws must not leave the turns rejected: every later one, shutdown included, would be skipped.
    turn = next.catch((error: unknown) => logger.error({ err: error }, 'Unexpected error while reloading; otelgate runs on'));
    return next;
  };

  /**
   * Replaces the running pipelines by those of `next`: the old ones stop first (their receivers
   * close, the batches under way finish, exporters flush), then the new ones start. If the new
   * ones cannot start, the old config starts again; if that fails too, otelgate stops (exit 1).
   */
  let failed: number | undefined;
  const replace = async (previous: Pipelines, next: ResolvedConfig): Promise<void> => {
    logger.info('The config is valid; restarting the pipelines with it');
    const stopped = await stopPipelines(previous);
    if (!stopped.clean) {
      // The old components may still hold a port or the store's lock: nothing new starts before they let go.
      logger.error({ abandoned_batches: stopped.abandoned }, 'The running pipelines did not stop within shutdown_timeout; waiting for them before starting the new ones');
      await stopped.stopped;
    }
    const nextLogger = loggerFor(next, worker);
    try {
      current = await startPipelines(next, nextLogger, worker);
      logger = nextLogger;
      logger.info('Config reloaded. Everything is ready. Begin running and processing data.');
      return;
    } catch (error) {
      logger.error({ error: errorMessage(error) }, `The new config could not start: ${errorMessage(error)}; starting the previous one again`);
    }
    try {
      current = await startPipelines(previous.config, logger, worker);
      logger.info('The previous config runs again. Everything is ready. Begin running and processing data.');
    } catch (error) {
      logger.error({ error: errorMessage(error) }, `The previous config could not start again either: ${errorMessage(error)}; otelgate stops`);
      current = undefined;
      failed = 1;
      stop('SIGTERM');
    }
  };
  const reload = (readNext: () => ResolvedConfig | undefined): void => {
    void inTurn(async (running) => {
      if (signalled !== undefined) return;
      const next = readNext();
      if (next === undefined) {
        logger.error('The new config is invalid; otelgate keeps running with the config it has');
        return;
      }
      if (worker === undefined && next.service.workers > 1) {
        logger.error({ workers: next.service.workers }, 'service.workers takes effect only at a restart; otelgate keeps running with the config it has');
        return;
      }
      await replace(running, next);
    });
  };

  // A worker hears from its primary: shut down (as on a first signal), reload, or send the metrics
  // for a scrape. It listens from before it starts, so that neither a shutdown nor a reload asked
  // for meanwhile is missed: each waits for its turn.
  process.on('message', (message: unknown) => {
    if (!isToWorker(message)) return;
    if (message.type === 'metrics') {
      const exposition = current?.telemetry.exposition() ?? Promise.resolve('');
      void exposition.then(
        (text) => tell({ type: 'metrics', id: message.id, text }),
        () => tell({ type: 'metrics', id: message.id, text: '' }),
      );
    } else if (message.type === 'reload') {
      logger.info('Reload asked by the primary');
      reload(() => {
        texts = message.texts;
        return readConfigLogged(args, read, logger, false);
      });
    } else if (message.type === 'shutdown' && signalled === undefined) {
      logger.info('Shutdown asked by the primary');
      stop('SIGTERM');
    }
  });

  try {
    current = await startPipelines(resolved, logger, worker);
  } catch (error) {
    logger.error({ error: errorMessage(error) }, `otelgate could not start: ${errorMessage(error)}`);
    return 1;
  }
  logger.info('Everything is ready. Begin running and processing data.');
  tell({ type: 'ready' });
  onHangup = () => {
    if (worker !== undefined) return;
    logger.info({ signal: 'SIGHUP' }, 'Received signal from OS; reloading the config');
    reload(() => readConfigLogged(args, (file) => readFileSync(file, 'utf8'), logger, true));
  };
  started();

  // A pipeline of nop components holds no handle of its own; this keeps otelgate up until a signal.
  const keepAlive = setInterval(() => {}, 1 << 30);
  return new Promise<number>((resolve) => {
    onStop = () => {
      void inTurn(async (running) => {
        clearInterval(keepAlive);
        if (failed !== undefined) {
          resolve(failed);
          return;
        }
        logger.info({ timeout_ms: running.config.service.shutdownTimeoutMs }, 'Starting shutdown...');
        try {
          const result = await stopPipelines(running);
          if (result.clean) logger.info('Shutdown complete.');
          else logger.error({ abandoned_batches: result.abandoned }, 'Shutdown timed out; exiting with work still under way');
          resolve(result.clean ? 0 : 1);
        } catch (error) {
          logger.error({ err: error }, 'Shutdown failed');
          resolve(1);
        }
      });
    };
    if (signalled !== undefined) onStop();
  });
}
