// Runs the checkpointer thread (checkpoint-worker.ts) beside a store's writer.
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';

// Always the compiled worker, as for the reader thread.
const WORKER = new URL('../../../dist/exporters/store/checkpoint-worker.js', import.meta.url);

/** WAL frames (pages) past which the checkpointer makes the WAL start over: about 64 MB of 4 KiB pages. */
const RESTART_FRAMES = 16_384;

export class Checkpointer {
  private readonly worker: Worker;
  private exited = false;

  /** `onFailure` hands checkpoints back to the writer should the thread die. */
  constructor(path: string, intervalMs: number, logger: Logger, onFailure: () => void) {
    this.worker = new Worker(WORKER, { workerData: { path, intervalMs, restartFrames: RESTART_FRAMES } });
    this.worker.unref();
    this.worker.on('message', (message: { error?: string }) => {
      if (message.error !== undefined) logger.warn({ err: message.error }, 'WAL checkpoint failed; it is tried again');
    });
    this.worker.on('error', (error) => {
      logger.error({ err: error.message }, 'The checkpointer thread failed; the writer checkpoints by itself from now on');
      try {
        onFailure();
      } catch (failed) {
        logger.error({ err: failed instanceof Error ? failed.message : String(failed) }, 'The writer could not take checkpoints back');
      }
    });
    this.worker.once('exit', () => {
      this.exited = true;
    });
  }

  /** Stops the thread after the checkpoint under way, if any. */
  async stop(): Promise<void> {
    if (this.exited) return;
    const stopped = new Promise<void>((resolve) => {
      this.worker.once('exit', () => resolve());
      this.worker.on('message', (message: { stopped?: true }) => {
        if (message.stopped === true) void this.worker.terminate();
      });
    });
    this.worker.postMessage({ stop: true });
    await stopped;
  }
}
