// The exporter helper: what every remote exporter is, so that an exporter writes only its push.
// consume() puts the batch in the sending queue (on disk by default) and resolves once it is held
// there: that is what the client's 200 stands on. Consumers take from the queue, batch per
// partition, push with retries, and acknowledge only what the backend took or refused for good.
// Counting happens here, after the queue: "sent" means the backend has it.
import type { Meter, ObservableResult } from '@opentelemetry/api';
import { durationMs } from '../../config/duration.js';
import { errorMessage, PermanentError, RetryableError } from '../../errors.js';
import type { Batch } from '../../model/batch.js';
import type { Signal } from '../../model/signal.js';
import { encodeOtlp } from '../../otlp/encode.js';
import { MemoryQueue, type MemoryQueueOptions } from '../../queue/memory-queue.js';
import type { SendingQueue, TakenEntry } from '../../queue/types.js';
import type { SendSuccess } from './outcome.js';
import type { ClientInfo, ComponentContext, ConsumeContext, Exporter } from '../../runtime/component.js';
import { signalCounters, type SignalCounters } from '../../telemetry/counters.js';
import { Batcher } from './batcher.js';
import { systemClock, type RetryResult } from './retry.js';
import { MEMORY_STORAGE, type SendingQueueConfig } from './queue-settings.js';
import { openQueue, queueStorage } from './storage.js';

/** What a queued request carries besides its rows; JSON-safe, as the disk queue keeps it as JSON. */
export interface QueuedMeta {
  project: string;
  /** The batch's receivedUnixNano, in decimal: JSON has no bigint. */
  received: string;
  keyId: string;
  metadata: Record<string, readonly string[]>;
}

/** One request to the backend: queued requests of one partition, merged. */
export interface Outgoing {
  signal: Signal;
  project: string;
  client: ClientInfo;
  /**
   * The queued requests' payloads (RemoteExporterSpec.encode: by default an Export*ServiceRequest
   * in protobuf) merged into one (RemoteExporterSpec.merge: by default one after the other, which
   * protobuf reads as one message with their resources concatenated).
   */
  payload: Uint8Array;
  items: number;
  /**
   * When the first of its queued requests was received: the time of a record that carries none,
   * the same on every attempt (a backend such as Loki deduplicates a retried push by it).
   */
  receivedUnixNano: bigint;
}

export interface RemoteExporterSpec {
  ctx: ComponentContext;
  queue: SendingQueueConfig;
  /** Names the exporter's queue directories: its id, under the one name of its type that stays (otlphttp is otlp_http). */
  queueId: string;
  /** Client metadata (header names) the exporter routes by: batches never mix two values of them. */
  partitionBy: readonly string[];
  /** The pause before a request that could not be delivered (retries given up) is tried again. */
  retryPauseMs: number;
  /**
   * What the queue holds for a batch, when not OTLP protobuf: the exporter's own wire form, made
   * once from the rows the receiver decoded rather than decoded again at every push. With batching,
   * `merge` makes one payload of several.
   */
  encode?(batch: Batch): Uint8Array;
  /** Several queued payloads as one; by default their bytes one after the other. */
  merge?(payloads: readonly Uint8Array[]): Uint8Array;
  /** Bytes a merged request holds at most, when the backend takes less than MAX_BATCH_BYTES (gRPC's 4 MiB). */
  maxBatchBytes?: number;
  start(): Promise<void>;
  /**
   * Sends one request with retries; `signal` aborts at shutdown, `recovered` when another request
   * of the same queue was delivered (RetryOptions.recovered). Must not throw for a backend's failure.
   */
  push(out: Outgoing, signal: AbortSignal, recovered?: () => AbortSignal): Promise<RetryResult>;
  shutdown(): Promise<void>;
}

type Entry = TakenEntry<QueuedMeta>;

/**
 * Bytes a merged request holds at most: well under the body limits of the backends it goes to (an
 * otelgate or Collector takes 32 or 20 MiB decompressed), whatever min_size and max_size say.
 */
export const MAX_BATCH_BYTES = 8 * 1024 * 1024;
/** Why a backoff waiting for an outage to end is cut short: made once, since abort() without a reason builds a DOMException, stack and all, at every delivered request. */
const BACKEND_IS_BACK = 'another request of the queue was delivered';
/** How often the same kind of refusal is logged at error level. */
const DROP_LOG_INTERVAL_MS = 60_000;
/** Partitions the batcher keeps open at once, at least: 4 per consumer above that. */
const MIN_OPEN_PARTITIONS = 64;

function merged(entries: readonly Entry[], merge: RemoteExporterSpec['merge']): Uint8Array {
  if (entries.length === 1) return (entries[0] as Entry).payload;
  const payloads = entries.map((e) => e.payload);
  return merge === undefined ? Buffer.concat(payloads) : merge(payloads);
}

function partitionOf(meta: QueuedMeta, keys: readonly string[]): string {
  if (keys.length === 0) return meta.project;
  return JSON.stringify([meta.project, ...keys.map((key) => meta.metadata[key] ?? [])]);
}

interface Counting {
  sent: SignalCounters;
  failed: SignalCounters;
  enqueueFailed: SignalCounters;
}

/** Counts a request the backend took: its records, less those a partial success rejected. */
function countDelivered(counts: Counting | undefined, signal: Signal, items: number, outcome: SendSuccess): number {
  const rejected = Math.min(outcome.partial?.rejected ?? 0, items);
  counts?.sent[signal].add(items - rejected);
  if (rejected > 0) counts?.failed[signal].add(rejected);
  return rejected;
}

function counting(ctx: ComponentContext): Counting | undefined {
  if (!ctx.telemetry.enabled('basic')) return undefined;
  const meter: Meter = ctx.telemetry.meter('otelgate/exporter');
  const attributes = { exporter: ctx.id };
  return {
    sent: signalCounters(meter, 'otelcol_exporter_sent', 'Records the backend accepted', attributes),
    failed: signalCounters(meter, 'otelcol_exporter_send_failed', 'Records the backend refused for good, or that could not be sent', attributes),
    enqueueFailed: signalCounters(meter, 'otelcol_exporter_enqueue_failed', 'Records the sending queue could not take', attributes),
  };
}

/** One signal's queue and the loop that drains it (exported for its tests). */
export class Drain {
  private readonly stop = new AbortController();
  /** Aborted, and replaced, whenever a request is delivered: requests waiting to retry go at once. */
  private delivered = new AbortController();
  private readonly recovered = (): AbortSignal => this.delivered.signal;
  private inFlight = 0;
  /** Sends whose consumer was given back while their answer is recorded (acknowledge). */
  private acking = 0;
  private wake: (() => void) | undefined;
  private readonly sends = new Set<Promise<void>>();
  private readonly batcher: Batcher<Entry> | undefined;
  /** Batches the batcher finished, waiting for a consumer: num_consumers holds with batching too. */
  private readonly ready: Entry[][] = [];
  private loop: Promise<void> | undefined;
  private readonly slots: number;
  /** When a refusal of each status was last logged at error level. */
  private readonly droppedLoggedAt = new Map<number | string, number>();

  constructor(
    readonly signal: Signal,
    readonly queue: SendingQueue<QueuedMeta>,
    private readonly spec: RemoteExporterSpec,
    private readonly counts: Counting | undefined,
  ) {
    this.slots = spec.queue.num_consumers;
    const batch = spec.queue.batch;
    if (batch !== undefined) {
      const limits = { flushTimeoutMs: durationMs(batch.flush_timeout), sizer: batch.sizer, minSize: batch.min_size, maxSize: batch.max_size, maxBytes: spec.maxBatchBytes ?? MAX_BATCH_BYTES, maxOpen: Math.max(MIN_OPEN_PARTITIONS, 4 * this.slots) };
      this.batcher = new Batcher(limits, (entries) => {
        this.ready.push(entries);
        this.pump();
      });
    }
  }

  start(): void {
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    const stop = this.stop.signal;
    while (!stop.aborted) {
      // Take only while a consumer is free and no finished batch waits for one: what waits for a
      // backend that is down stays on disk, not in memory.
      while ((this.inFlight >= this.slots || this.ready.length > 0) && !stop.aborted) await new Promise<void>((resolve) => (this.wake = resolve));
      let entry: Entry | undefined;
      try {
        entry = await this.queue.take(stop);
      } catch (error) {
        // The queue keeps an entry it could not read for the next take: wait a moment and go on.
        this.spec.ctx.logger.error({ err: errorMessage(error), signal: this.signal }, 'Could not read the sending queue; trying again');
        await systemClock.sleep(this.spec.retryPauseMs, stop);
        continue;
      }
      if (entry === undefined) break;
      if (this.batcher === undefined) this.dispatch([entry]);
      else this.batcher.add(partitionOf(entry.metadata, this.spec.partitionBy), entry);
    }
  }

  /** Starts finished batches while consumers are free. */
  private pump(): void {
    while (this.inFlight < this.slots && this.ready.length > 0) this.dispatch(this.ready.shift() as Entry[]);
  }

  private dispatch(entries: Entry[]): void {
    this.inFlight++;
    let freed = false;
    const free = (): void => {
      if (freed) return;
      freed = true;
      this.inFlight--;
      this.pump();
      const wake = this.wake;
      this.wake = undefined;
      wake?.();
    };
    const send = this.send(entries, free).finally(() => {
      free();
      this.sends.delete(send);
    });
    this.sends.add(send);
  }

  /**
   * `free` gives the consumer back once the backend has answered, so that recording the answer in
   * the queue (a write, done by a thread that waits for the main thread's core) goes on without
   * holding it: on the remote-write bench, consumers held for it left otelgate's core a tenth idle.
   * At most num_consumers answers are being recorded so: what they hold stays bounded.
   */
  private async send(entries: Entry[], free: () => void): Promise<void> {
    const first = entries[0] as Entry;
    const items = entries.reduce((sum, e) => sum + e.items, 0);
    const out: Outgoing = {
      signal: this.signal,
      project: first.metadata.project,
      client: { keyId: first.metadata.keyId, metadata: first.metadata.metadata },
      payload: merged(entries, this.spec.merge),
      items,
      receivedUnixNano: BigInt(first.metadata.received),
    };
    const { logger } = this.spec.ctx;
    let result: RetryResult;
    try {
      result = await this.spec.push(out, this.stop.signal, this.recovered);
    } catch (error) {
      // A push that throws has a bug, not a backend problem: keep the data, say so, pause.
      logger.error({ err: errorMessage(error), signal: this.signal, items }, 'The exporter failed to send a request; it stays queued');
      await systemClock.sleep(this.spec.retryPauseMs, this.stop.signal);
      this.giveBack(entries);
      return;
    }
    switch (result.kind) {
      case 'success': {
        const backAgain = this.delivered;
        this.delivered = new AbortController();
        backAgain.abort(BACKEND_IS_BACK);
        const rejected = countDelivered(this.counts, this.signal, items, result.outcome);
        if (result.outcome.partial !== undefined) {
          logger.warn({ signal: this.signal, project: out.project, rejected, message: result.outcome.partial.message }, 'The backend accepted a request in part');
        }
        await this.acknowledge(entries, free);
        return;
      }
      case 'permanent': {
        // Logged once a minute per status with the backend's words: a misconfigured backend refuses every request alike.
        const key = result.outcome.status ?? result.outcome.grpcStatus ?? result.outcome.failure;
        const now = Date.now();
        const repeated = now - (this.droppedLoggedAt.get(key) ?? Number.NEGATIVE_INFINITY) < DROP_LOG_INTERVAL_MS;
        if (!repeated) this.droppedLoggedAt.set(key, now);
        logger[repeated ? 'debug' : 'error'](
          { signal: this.signal, project: out.project, items, status: result.outcome.status, grpc_status: result.outcome.grpcStatus, message: result.outcome.message },
          'The backend refused a request for good; it is dropped',
        );
        this.counts?.failed[this.signal].add(items);
        await this.acknowledge(entries, free);
        return;
      }
      case 'gave_up':
        // Acknowledged data is never dropped for being late: it goes back to the queue, to be tried
        // again after a pause, for as long as the backend's answer says that retrying can work.
        logger.warn(
          { signal: this.signal, project: out.project, items, reason: result.reason, attempts: result.attempts, message: result.outcome.message, retry_in_ms: this.spec.retryPauseMs },
          'Could not deliver a request yet; it stays queued and is tried again',
        );
        await systemClock.sleep(this.spec.retryPauseMs, this.stop.signal, this.delivered.signal);
        this.giveBack(entries);
        return;
      case 'aborted':
        this.giveBack(entries);
        return;
    }
  }

  private giveBack(entries: readonly Entry[]): void {
    for (const entry of entries) this.queue.nack(entry.id);
  }

  /** All at once: the queue writes acknowledgements that come together in one write. */
  private async acknowledge(entries: readonly Entry[], free: () => void): Promise<void> {
    if (this.acking < this.slots) free();
    this.acking++;
    const results = await Promise.allSettled(entries.map((entry) => this.queue.ack(entry.id))).finally(() => this.acking--);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    // Written with a later acknowledgement; until then a restart would send it again (at least once).
    if (failed !== undefined) this.spec.ctx.logger.warn({ err: errorMessage(failed.reason), signal: this.signal }, 'Could not record a delivery in the queue yet');
  }

  /** Stops taking, ends sends under way (their requests stay queued), and closes the queue, whatever happened before. */
  async shutdown(): Promise<void> {
    try {
      this.stop.abort();
      this.wake?.();
      await this.loop;
      for (const entries of this.ready.splice(0)) this.giveBack(entries);
      for (const entries of this.batcher?.drain() ?? []) this.giveBack(entries);
      await Promise.all([...this.sends]);
      const left = this.queue.stats();
      if (this.queue instanceof MemoryQueue && left.requests > 0) {
        this.spec.ctx.logger.error({ signal: this.signal, requests: left.requests, items: left.items }, 'The memory queue held requests not yet delivered; they are lost (storage: memory)');
        this.counts?.failed[this.signal].add(left.items);
      }
    } finally {
      await this.queue.close();
    }
  }
}

/** The exporter itself: the queue of each signal it serves, or no queue at all when sending_queue.enabled is false. */
export function remoteExporter(spec: RemoteExporterSpec): Exporter {
  const { ctx } = spec;
  const counts = counting(ctx);
  const drains = new Map<Signal, Drain>();
  const encode = spec.encode ?? ((batch: Batch): Uint8Array => encodeOtlp(batch.signal, 'protobuf', batch.rows));

  /**
   * Not async: an async function would hold the batch's rows until the disk write is done, long
   * enough for them to outlive the young generation (see the ingest receiver's handOn).
   */
  function queued(batch: Batch, consumeCtx: ConsumeContext): Promise<void> {
    const drain = drains.get(batch.signal);
    if (drain === undefined) return Promise.reject(new RetryableError(`exporter ${ctx.id} is not running`));
    const { signal, rows } = batch;
    const items = rows.length;
    const refused = (error: unknown): Promise<never> => {
      counts?.enqueueFailed[signal].add(items);
      return Promise.reject(error);
    };
    const meta: QueuedMeta = { project: batch.project, received: String(batch.receivedUnixNano), keyId: consumeCtx.client.keyId, metadata: consumeCtx.client.metadata };
    try {
      const payload = encode(batch);
      // Only with block_on_overflow does an append wait for room; it gives up when its client goes
      // away or otelgate stops. Without it the signal is never looked at: none is made per request.
      const abort = spec.queue.block_on_overflow ? AbortSignal.any([consumeCtx.signal, ctx.stopping]) : undefined;
      return drain.queue.append({ payload, metadata: meta, items }, { signal: abort }).then(() => undefined, refused);
    } catch (error) {
      return refused(error);
    }
  }

  /** sending_queue.enabled false: the client waits for the backend, as with the Collector. */
  async function direct(batch: Batch, consumeCtx: ConsumeContext): Promise<void> {
    const signal = AbortSignal.any([consumeCtx.signal, ctx.stopping]);
    const out: Outgoing = { signal: batch.signal, project: batch.project, client: consumeCtx.client, payload: encode(batch), items: batch.rows.length, receivedUnixNano: batch.receivedUnixNano };
    const result = await spec.push(out, signal);
    if (result.kind === 'success') {
      countDelivered(counts, batch.signal, out.items, result.outcome);
      return;
    }
    counts?.failed[batch.signal].add(out.items);
    const message = result.outcome?.message ?? 'the exporter is shutting down';
    if (result.kind === 'permanent') throw new PermanentError(`the backend refused the batch: ${message}`);
    throw new RetryableError(`the batch could not be delivered: ${message}`);
  }

  const observe = (result: ObservableResult, value: (drain: Drain) => number): void => {
    for (const drain of drains.values()) result.observe(value(drain), { exporter: ctx.id, data_type: drain.signal });
  };
  if (counts !== undefined && spec.queue.enabled) {
    const meter = ctx.telemetry.meter('otelgate/exporter');
    meter.createObservableGauge('otelcol_exporter_queue_size', { description: 'What the sending queue holds, in the unit of its sizer' }).addCallback((r) => observe(r, (d) => d.queue.stats().size));
    meter.createObservableGauge('otelcol_exporter_queue_capacity', { description: 'What the sending queue can hold, in the unit of its sizer' }).addCallback((r) => observe(r, (d) => d.queue.stats().capacity));
  }

  return {
    countsItself: true,
    // The queue holds OTLP protobuf, and so does a request sent without one, unless the exporter encodes its own.
    sendsProtobuf: spec.encode === undefined,
    async start() {
      await spec.start();
      if (!spec.queue.enabled) return;
      try {
        const storage = spec.queue.storage === MEMORY_STORAGE ? undefined : await queueStorage(ctx, spec.queue);
        for (const signal of ctx.signals) {
          const queue = storage === undefined ? new MemoryQueue<QueuedMeta>(memoryLimits(spec.queue)) : await openQueue<QueuedMeta>(storage, ctx, spec.queueId, spec.queue, signal);
          const drain = new Drain(signal, queue, spec, counts);
          drains.set(signal, drain);
          drain.start();
        }
      } catch (error) {
        await Promise.allSettled([...drains.values()].map((d) => d.shutdown()));
        drains.clear();
        await spec.shutdown();
        throw error;
      }
    },
    async shutdown() {
      const stopped = await Promise.allSettled([...drains.values()].map((d) => d.shutdown()));
      drains.clear();
      await spec.shutdown();
      const failed = stopped.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed !== undefined) throw failed.reason;
    },
    consume(batch, consumeCtx) {
      return spec.queue.enabled ? queued(batch, consumeCtx) : direct(batch, consumeCtx);
    },
  };
}

function memoryLimits(config: SendingQueueConfig): MemoryQueueOptions {
  return { sizer: config.sizer, capacity: config.queue_size, blockOnOverflow: config.block_on_overflow };
}
