// service.workers above 1: this process forks the workers that run the pipelines (node:cluster;
// they share the receivers' ports, connections handed out in turn), hands each the config texts
// it read itself (an edit on disk after start reaches no worker, replacements included), starts
// them one after the other so that first-run work (a keys file) is done once, serves the
// own-metrics endpoints from every worker's metrics, replaces a worker that dies unless they keep
// dying, and shuts them all down on SIGTERM or SIGINT. On SIGHUP it reads the config files again
// and, if they are valid, has every worker restart its pipelines with the new texts (replacements
// get them too); a new service.workers is refused, and its own metrics endpoints keep their
// settings until a restart.
import cluster, { type Worker } from 'node:cluster';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import type { Logger } from 'pino';
import { readConfigLogged, type ConfigArgs } from '../commands/config.js';
import { SAME_STOP_MS, watchNpmParent } from '../commands/parent.js';
import type { ResolvedConfig } from '../config/validate.js';
import { errorMessage } from '../errors.js';
import { createServer } from '../runtime/http.js';
import { listen } from '../runtime/listen.js';
import { mergeExpositions } from './exposition.js';
import { isFromWorker, type ToWorker } from './messages.js';

/** How long a scrape waits for a worker's metrics before it answers without them. */
const METRICS_WAIT_MS = 5000;
/** Beyond shutdown_timeout, how long the primary gives workers to exit before it kills them. */
const EXIT_GRACE_MS = 5000;
/** Workers dying this many times within CRASH_WINDOW_MS stop otelgate (exit 1), for the orchestrator to see. */
const MAX_CRASHES = 5;
const CRASH_WINDOW_MS = 60_000;

interface Running {
  worker: Worker;
  /** The worker's number, 1 to workers: it keeps it when it is replaced. */
  slot: number;
  ready: boolean;
}

/**
 * `texts`: each config file as this process read it, for the workers to read the same; `args`: to
 * read them again on SIGHUP, whose handler goes to `setHangup`.
 */
export async function runPrimary(
  config: ResolvedConfig,
  logger: Logger,
  texts: Record<string, string>,
  args: ConfigArgs,
  setHangup: (handler: () => void) => void,
): Promise<number> {
  const count = config.service.workers;
  const running = new Map<number, Running>();
  let stopping = false;
  let nextRequest = 0;
  const replies = new Map<number, (text: string) => void>();
  const crashes: number[] = [];
  const killAll = (): void => {
    for (const { worker } of running.values()) worker.process.kill('SIGKILL');
  };

  /** Forks the worker for a slot; resolves true once it is ready, false if it exits before. */
  const fork = (slot: number): Promise<boolean> =>
    new Promise((resolve) => {
      const worker = cluster.fork({ OTELGATE_WORKER: String(slot) });
      logger.info({ worker: slot, worker_pid: worker.process.pid }, 'Starting a worker');
      const entry: Running = { worker, slot, ready: false };
      running.set(worker.id, entry);
      worker.on('message', (message: unknown) => {
        if (!isFromWorker(message)) return;
        if (message.type === 'config?') {
          send(worker, { type: 'config', texts });
        } else if (message.type === 'ready') {
          entry.ready = true;
          // From here its exit is a crash to replace, not a failed start.
          logger.info({ worker: slot, worker_pid: worker.process.pid }, 'A worker is ready');
          resolve(true);
        } else {
          replies.get(message.id)?.(message.text);
        }
      });
      worker.once('exit', (code, signal) => {
        running.delete(worker.id);
        if (!entry.ready) {
          resolve(false);
          return;
        }
        if (stopping) return;
        const now = Date.now();
        crashes.push(now);
        while ((crashes[0] as number) < now - CRASH_WINDOW_MS) crashes.shift();
        if (crashes.length >= MAX_CRASHES) {
          logger.error({ worker: slot, worker_pid: worker.process.pid, code, signal, exits: crashes.length, window_ms: CRASH_WINDOW_MS }, 'Workers keep exiting; otelgate stops');
          exitCode = 1;
          stop();
          return;
        }
        logger.error({ worker: slot, worker_pid: worker.process.pid, code, signal }, 'A worker exited; starting another in its place');
        void fork(slot).then((started) => {
          if (!started && !stopping) {
            logger.error({ worker: slot }, 'The replacement worker could not start; otelgate stops');
            exitCode = 1;
            stop();
          }
        });
      });
    });

  // A worker may die between the check and the send (EPIPE); its exit is handled where it exits.
  const send = (worker: Worker, message: ToWorker): void => {
    if (worker.isConnected()) worker.send(message, undefined, () => {});
  };

  /** Every ready worker's metrics, merged; a worker that does not answer in time is left out. */
  const scrape = async (): Promise<string> => {
    const parts = await Promise.all(
      [...running.values()]
        .filter((r) => r.ready)
        .map(
          (r) =>
            new Promise<{ worker: string; text: string } | undefined>((resolve) => {
              const id = nextRequest++;
              const timer = setTimeout(() => {
                replies.delete(id);
                logger.warn({ worker: r.slot }, 'A worker did not send its metrics in time; the scrape goes without them');
                resolve(undefined);
              }, METRICS_WAIT_MS);
              replies.set(id, (text) => {
                clearTimeout(timer);
                replies.delete(id);
                resolve({ worker: String(r.slot), text });
              });
              send(r.worker, { type: 'metrics', id });
            }),
        ),
    );
    return mergeExpositions(parts.filter((p) => p !== undefined).sort((a, b) => Number(a.worker) - Number(b.worker)));
  };

  const servers: Server[] = [];
  const metrics = config.service.telemetry.metrics;
  if (metrics.level !== 'none') {
    for (const reader of metrics.readers) {
      const { host, port } = reader.pull.exporter.prometheus;
      const server = createServer((req, res) => {
        if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
          res.writeHead(404).end();
          return;
        }
        void scrape().then((text) => res.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' }).end(text));
      });
      try {
        const endpoint = await listen(server, port, host);
        servers.push(server);
        logger.info({ endpoint, workers: count }, 'Serving metrics');
      } catch (error) {
        logger.error({ error: errorMessage(error) }, `otelgate could not start: ${errorMessage(error)}`);
        await closeAll(servers);
        return 1;
      }
    }
  }

  let resolveExit: (code: number) => void = () => {};
  const exited = new Promise<number>((resolve) => (resolveExit = resolve));
  let exitCode = 0;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ timeout_ms: config.service.shutdownTimeoutMs, workers: running.size }, 'Starting shutdown...');
    const kill = setTimeout(() => {
      logger.error('Workers did not exit in time; killing them');
      killAll();
    }, config.service.shutdownTimeoutMs + EXIT_GRACE_MS);
    const left = [...running.values()].map(
      ({ worker, slot, ready }) =>
        new Promise<void>((resolve) => {
          worker.once('exit', (code, signal) => {
            // A worker still starting when a terminal's Ctrl-C reached it ends by that signal
            // before it has handlers: it had nothing to finish.
            if (code !== 0 && signal !== 'SIGINT' && signal !== 'SIGTERM') {
              exitCode = 1;
              logger.error({ worker: slot, code, signal }, 'A worker did not shut down cleanly');
            }
            resolve();
          });
          // A worker still starting may not listen to its primary yet, and a message it does not
          // hear is lost: it is told by a signal, which it handles as a first one once it can, and
          // which ends it before then (it had nothing to finish).
          if (ready) send(worker, { type: 'shutdown' });
          else worker.process.kill('SIGTERM');
        }),
    );
    void Promise.all(left).then(async () => {
      clearTimeout(kill);
      await closeAll(servers);
      resolveExit(exitCode);
    });
  };

  let stoppedAt = 0;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping && Date.now() - stoppedAt < SAME_STOP_MS) return;
    if (stopping) {
      logger.warn({ signal }, 'Second signal received; killing the workers without waiting for shutdown to finish');
      killAll();
      process.exit(1);
    }
    logger.info({ signal }, 'Received signal from OS');
    stoppedAt = Date.now();
    stop();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  watchNpmParent(() => {
    if (stopping) return;
    logger.info('The npm process that started otelgate has exited; shutting down as on SIGTERM');
    stoppedAt = Date.now();
    stop();
  });
  setHangup(() => {
    if (stopping) return;
    logger.info({ signal: 'SIGHUP' }, 'Received signal from OS; reloading the config');
    const fresh: Record<string, string> = {};
    const next = readConfigLogged(args, (file) => (fresh[file] = readFileSync(file, 'utf8')), logger, true);
    if (next === undefined) {
      logger.error('The new config is invalid; otelgate keeps running with the config it has');
      return;
    }
    // The workers would run it as it is: a count they cannot change could also mean a store that needs one.
    if (next.service.workers !== count) {
      logger.error({ workers: next.service.workers }, 'service.workers takes effect only at a restart; otelgate keeps running with the config it has');
      return;
    }
    if (!isDeepStrictEqual(next.service.telemetry.metrics, metrics)) {
      logger.warn("The metrics readers are the primary's and change only at a restart; the workers reload the rest");
    }
    // Replacements started from now on run the new texts too.
    for (const file of Object.keys(texts)) delete texts[file];
    Object.assign(texts, fresh);
    for (const { worker } of running.values()) send(worker, { type: 'reload', texts });
  });

  for (let slot = 1; slot <= count; slot++) {
    const started = await fork(slot);
    if (stopping) break;
    if (!started) {
      logger.error({ worker: slot }, 'A worker could not start; otelgate stops');
      exitCode = 1;
      stop();
      break;
    }
  }
  if (!stopping) logger.info({ workers: count }, 'Everything is ready. Begin running and processing data.');
  return exited;
}

async function closeAll(servers: Server[]): Promise<void> {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
}
