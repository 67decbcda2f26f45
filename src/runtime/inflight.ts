// Counts the batches that receivers have handed to pipelines and not yet seen answered,
// so that shutdown can wait for them and refuse new ones once receivers have stopped.
import { ShuttingDownError } from '../errors.js';
import type { Batch } from '../model/batch.js';
import type { ConsumeContext, Consumer } from './component.js';

export class Inflight {
  private count = 0;
  private closed = false;
  private waiters: (() => void)[] = [];

  get size(): number {
    return this.count;
  }

  /** `sendsProtobuf`: whether a pipeline behind it sends OTLP protobuf (Consumer.sendsProtobuf). */
  wrap(consumer: Consumer, sendsProtobuf: boolean): Consumer {
    return { consume: (batch: Batch, ctx: ConsumeContext) => this.run(consumer, batch, ctx), sendsProtobuf };
  }

  /** Not async: an async function would hold the batch until the consumer answers (see handler.ts handOn). */
  private run(consumer: Consumer, batch: Batch, ctx: ConsumeContext): Promise<void> {
    if (this.closed) return Promise.reject(new ShuttingDownError());
    this.count++;
    let consumed: Promise<void>;
    try {
      consumed = consumer.consume(batch, ctx);
    } catch (error) {
      consumed = Promise.reject(error);
    }
    return consumed.finally(() => {
      if (--this.count === 0) for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Refuses new batches from now on and resolves once the ones under way are answered. */
  close(): Promise<void> {
    this.closed = true;
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}
