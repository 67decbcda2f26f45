// Runs the checkpointer thread (checkpoint-worker.ts) beside a store's writer, and holds the
// writer's commits for the moment the thread asks, so that the WAL can start over.
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { errorMessage } from '../../errors.js';
import type { CheckpointerMessage, WriterMessage } from './checkpoint-worker.js';

// Always the compiled worker, as for the reader thread.
const WORKER = new URL('../../../dist/exporters/store/checkpoint-worker.js', import.meta.url);

/** WAL frames (pages) past which the checkpointer makes the WAL start over: about 64 MB of 4 KiB pages. */
const RESTART_FRAMES = 16_384;
/** The longest the writer holds its commits for the checkpointer, should the thread not answer. */
const MAX_HOLD_MS = 1000;

export interface CheckpointerOptions {
  intervalMs: number;
  /** WAL frames past which the WAL is made to start over (tests make it small). */
  restartFrames?: number;
}

/** What the checkpointer needs of the writer: commits held, then let go. */
export interface Holdable {
  hold(): void;
  release(): void;
}

export class Checkpointer {
  private readonly worker: Worker;
  private exited = false;
  private holdTimer: NodeJS.Timeout | undefined;

  /** `onFailure` hands checkpoints back to the writer should the thread die. */
  constructor(path: string, options: CheckpointerOptions, logger: Logger, writer: Holdable, onFailure: () => void) {
    const { intervalMs, restartFrames = RESTART_FRAMES } = options;
    // The thread holds one SQLite connection and a timer: a small heap is all it needs.
    this.worker = new Worker(WORKER, { workerData: { path, intervalMs, restartFrames }, resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 } });
    this.worker.unref();
    const release = (): void => {
      if (this.holdTimer === undefined) return;
      clearTimeout(this.holdTimer);
      this.holdTimer = undefined;
      writer.release();
    };
    this.worker.on('message', (message: CheckpointerMessage) => {
      if ('hold' in message) {
        writer.hold();
        this.holdTimer = setTimeout(release, MAX_HOLD_MS).unref();
        this.worker.postMessage({ held: true } satisfies WriterMessage);
      } else if ('release' in message) {
        release();
      } else if ('error' in message) {
        logger.warn({ err: message.error }, 'WAL checkpoint failed; it is tried again');
      }
    });
    this.worker.on('error', (error) => {
      release();
      logger.error({ err: error.message }, 'The checkpointer thread failed; the writer checkpoints by itself from now on');
      try {
        onFailure();
      } catch (failed) {
        logger.error({ err: errorMessage(failed) }, 'The writer could not take checkpoints back');
      }
    });
    this.worker.once('exit', () => {
      this.exited = true;
      release();
    });
  }

  /** Stops the thread after the checkpoint under way, if any. */
  async stop(): Promise<void> {
    if (this.exited) return;
    const stopped = new Promise<void>((resolve) => {
      this.worker.once('exit', () => resolve());
      this.worker.on('message', (message: CheckpointerMessage) => {
        if ('stopped' in message) void this.worker.terminate();
      });
    });
    this.worker.postMessage({ stop: true } satisfies WriterMessage);
    await stopped;
  }
}
