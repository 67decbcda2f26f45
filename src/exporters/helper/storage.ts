// Where a sending queue lives: the file_storage extension that `storage` names, or, by default,
// a file_storage with its defaults (./data/queue): on disk unless the config says `storage: memory`.
import { check } from '../../config/ajv.js';
import { ConfigError } from '../../errors.js';
import { fileStorageSchema, type FileStorageConfig } from '../../extensions/file_storage/config.js';
import { fileStorageExtensionFactory, isQueueStorage, type QueueOwner, type QueueStorage } from '../../extensions/file_storage/factory.js';
import type { Signal } from '../../model/signal.js';
import type { SendingQueue } from '../../queue/types.js';
import type { ComponentContext } from '../../runtime/component.js';
import type { SendingQueueConfig } from './queue-settings.js';

/**
 * The queue of one signal of exporter `id`. With workers each slot has its own, which a replacement
 * worker takes over; slot 1's is the one a single process uses, so going from one process to
 * several keeps what was queued.
 */
export function queueOwner(id: string, worker: number | undefined, signal: Signal): QueueOwner {
  return { kind: 'exporter', id, name: worker === undefined || worker === 1 ? signal : `${signal}_worker${worker}` };
}

/** A file_storage extension's settings with every default filled in, as an empty `file_storage:` gets them. */
function defaultStorageConfig(): FileStorageConfig {
  const config = {};
  check(fileStorageSchema, config);
  return config as FileStorageConfig;
}

/** The storage an exporter's queues are in, resolved once at its start. */
export async function queueStorage(ctx: ComponentContext, config: SendingQueueConfig): Promise<QueueStorage> {
  if (config.storage === undefined) {
    const storage = fileStorageExtensionFactory.create(defaultStorageConfig(), { ...ctx, id: 'file_storage', kind: 'extension', signals: [] });
    await storage.start();
    if (isQueueStorage(storage)) return storage;
  }
  const storage = config.storage === undefined ? undefined : ctx.host.extension(config.storage);
  if (isQueueStorage(storage)) return storage;
  throw new ConfigError([
    {
      severity: 'error',
      path: `exporters.${ctx.id}.sending_queue.storage`,
      message: `"${config.storage}" is not a file_storage extension of service.extensions: name one, write "memory" for a queue in memory, or leave it out for ./data/queue`,
    },
  ]);
}

/** `queueId`: the exporter's id under the name of its type that stays, for an exporter with two names. */
export function openQueue<M>(storage: QueueStorage, ctx: ComponentContext, queueId: string, config: SendingQueueConfig, signal: Signal): Promise<SendingQueue<M>> {
  return storage.openQueue<M>(queueOwner(queueId, ctx.worker, signal), { sizer: config.sizer, capacity: config.queue_size, blockOnOverflow: config.block_on_overflow, logger: ctx.logger });
}
