// Reads for the read API, run on the store's reader thread (read-worker.ts) one at a time. A
// query that runs longer than its time is stopped by ending the thread (SQLite cannot be
// interrupted from JavaScript) and a new thread takes the next one; reads waiting beyond a bound
// are refused.
import { Worker } from 'node:worker_threads';
import type { ReadQuery } from '../../query/params.js';
import { ReadRefused, type ReadResult } from '../../query/reader.js';
import type { ReadReply, ReadRequest } from './read-worker.js';

export interface ReaderOptions {
  timeoutMs: number;
  maxQueued: number;
  /** An answer stops after the row that takes it past this many bytes of JSON. */
  maxBytes: number;
}

interface Waiting {
  request: ReadRequest;
  resolve: (result: ReadResult) => void;
  reject: (error: Error) => void;
}

// The worker is always the compiled one: tests that run the TypeScript sources read through it too.
const WORKER = new URL('../../../dist/exporters/store/read-worker.js', import.meta.url);

export class ReaderThread {
  private worker: Worker | undefined;
  private ready = false;
  private closed = false;
  private readonly queue: Waiting[] = [];
  /** The read the thread is running, and its timer: a query's time runs from when the thread takes it. */
  private running: { waiting: Waiting; timer: NodeJS.Timeout } | undefined;
  private next = 0;

  constructor(
    private readonly path: string,
    private readonly options: ReaderOptions,
  ) {}

  read(project: string, query: ReadQuery): Promise<ReadResult> {
    if (this.closed) return Promise.reject(new ReadRefused('otelgate is shutting down', true));
    if (this.queue.length + (this.running === undefined ? 0 : 1) >= this.options.maxQueued) {
      return Promise.reject(new ReadRefused(`${this.options.maxQueued} reads are already under way; retry shortly`, true));
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ request: { id: this.next++, project, query }, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.fail(new ReadRefused('otelgate is shutting down', true));
    await worker?.terminate();
  }

  /** Hands the next read to the thread when it is free, starting the thread when there is none. */
  private pump(): void {
    if (this.running !== undefined || this.queue.length === 0) return;
    if (this.worker === undefined) this.start();
    if (!this.ready) return;
    const waiting = this.queue.shift() as Waiting;
    this.running = { waiting, timer: setTimeout(() => this.timedOut(), this.options.timeoutMs) };
    this.worker?.postMessage(waiting.request);
  }

  private start(): void {
    const worker = new Worker(WORKER, { workerData: { path: this.path, maxBytes: this.options.maxBytes } });
    worker.unref();
    this.worker = worker;
    this.ready = false;
    worker.on('message', (reply: ReadReply) => {
      if (this.worker !== worker) return;
      if ('ready' in reply) {
        this.ready = true;
        this.pump();
        return;
      }
      const running = this.running;
      if (running === undefined || running.waiting.request.id !== reply.id) return;
      clearTimeout(running.timer);
      this.running = undefined;
      if ('error' in reply) running.waiting.reject(new Error(reply.error));
      else running.waiting.resolve({ rows: reply.rows, truncated: reply.truncated });
      this.pump();
    });
    // A thread that fails or ends on its own takes its read with it; the others wait for a new one.
    const lost = (error: Error): void => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.ready = false;
      const running = this.running;
      this.running = undefined;
      if (running !== undefined) {
        clearTimeout(running.timer);
        running.waiting.reject(error);
      }
      if (!this.closed) this.pump();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`the reader thread ended (exit code ${code})`)));
  }

  private timedOut(): void {
    const running = this.running;
    if (running === undefined) return;
    this.running = undefined;
    running.waiting.reject(new ReadRefused(`the query ran for more than ${this.options.timeoutMs / 1000} s and was stopped; narrow it with from and to (or service, name, limit)`, false));
    // The thread is still inside SQLite: end it, and let a new one take the reads queued meanwhile.
    const worker = this.worker;
    this.worker = undefined;
    this.ready = false;
    void worker?.terminate();
    this.pump();
  }

  private fail(error: Error): void {
    if (this.running !== undefined) {
      clearTimeout(this.running.timer);
      this.running.waiting.reject(error);
      this.running = undefined;
    }
    for (const waiting of this.queue.splice(0)) waiting.reject(error);
  }
}
