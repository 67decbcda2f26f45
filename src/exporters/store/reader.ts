// Reads for the read API, run on the store's reader thread (read-worker.ts). A query that runs
// longer than its time is stopped by ending the thread (SQLite cannot be interrupted from
// JavaScript), and a new thread takes the next one; reads waiting beyond a bound are refused.
import { Worker } from 'node:worker_threads';
import type { Query } from '../../query/params.js';
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
  /** Set once the request is handed to a ready thread: a query's time runs from there. */
  timer?: NodeJS.Timeout;
}

// The worker is always the compiled one: tests that run the TypeScript sources read through it too.
const WORKER = new URL('../../../dist/exporters/store/read-worker.js', import.meta.url);

export class ReaderThread {
  private worker: Worker | undefined;
  private ready = false;
  private readonly waiting = new Map<number, Waiting>();
  private next = 0;

  constructor(
    private readonly path: string,
    private readonly options: ReaderOptions,
  ) {}

  read(project: string, query: Query): Promise<ReadResult> {
    if (this.waiting.size >= this.options.maxQueued) {
      return Promise.reject(new ReadRefused(`${this.waiting.size} reads are already under way; retry shortly`, true));
    }
    this.start();
    const id = this.next++;
    return new Promise((resolve, reject) => {
      const waiting: Waiting = { request: { id, project, query }, resolve, reject };
      this.waiting.set(id, waiting);
      if (this.ready) this.send(waiting);
    });
  }

  private send(waiting: Waiting): void {
    waiting.timer = setTimeout(() => this.timedOut(waiting.request.id), this.options.timeoutMs);
    this.worker?.postMessage(waiting.request);
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.fail(new ReadRefused('otelgate is shutting down', true));
    await worker?.terminate();
  }

  private start(): void {
    if (this.worker !== undefined) return;
    const worker = new Worker(WORKER, { workerData: { path: this.path, maxBytes: this.options.maxBytes } });
    worker.unref();
    this.ready = false;
    worker.on('message', (reply: ReadReply) => {
      if ('ready' in reply) {
        this.ready = true;
        for (const waiting of this.waiting.values()) this.send(waiting);
        return;
      }
      const waiting = this.waiting.get(reply.id);
      if (waiting === undefined) return;
      this.waiting.delete(reply.id);
      clearTimeout(waiting.timer);
      if ('error' in reply) waiting.reject(new Error(reply.error));
      else waiting.resolve({ rows: reply.rows, truncated: reply.truncated });
    });
    worker.on('error', (error) => {
      if (this.worker === worker) this.worker = undefined;
      this.fail(error);
    });
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
    });
    this.worker = worker;
  }

  private timedOut(id: number): void {
    const waiting = this.waiting.get(id);
    if (waiting === undefined) return;
    this.waiting.delete(id);
    waiting.reject(new ReadRefused(`the query ran for more than ${this.options.timeoutMs / 1000} s and was stopped; narrow it with from and to (or service, name, limit)`, false));
    // The thread is still inside SQLite: end it; the reads queued behind it are refused, to be retried.
    void this.worker?.terminate();
    this.worker = undefined;
    this.fail(new ReadRefused('a slow query was stopped; retry', true));
  }

  private fail(error: Error): void {
    for (const [id, waiting] of this.waiting) {
      clearTimeout(waiting.timer);
      waiting.reject(error);
      this.waiting.delete(id);
    }
  }
}
