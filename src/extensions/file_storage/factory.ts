// The file_storage extension: where sending queues keep their entries on disk. It owns a
// directory and hands each queue its own subdirectory, named as the Collector names a storage
// client's file (`exporter_otlp_http_tempo_logs`), with this extension's fsync and compaction.
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import { durationMs } from '../../config/duration.js';
import type { Component, ExtensionFactory, Kind } from '../../runtime/component.js';
import { DiskQueue } from '../../queue/disk-queue.js';
import type { QueueSizer } from '../../queue/types.js';
import { fileStorageSchema, settingsWithoutEffect, validateFileStorage, type FileStorageConfig } from './config.js';
import { checkStorageDirectory } from './directory.js';

/** Who a queue belongs to, as the Collector's storage clients are told: kind, component id, and a name within it. */
export interface QueueOwner {
  kind: Kind;
  /** `type` or `type/name`, as written in the config. */
  id: string;
  /** What the owner keeps apart: the signal (`logs`), as the Collector's persistent queue does; a worker slot can be added (`logs_worker2`). */
  name: string;
}

/** How a queue is bounded: the owner's sending_queue settings. */
export interface QueueLimits {
  sizer: QueueSizer;
  capacity: number;
  blockOnOverflow: boolean;
  /** The owner's logger: damage found at open and write failures are logged on it. */
  logger?: Logger;
}

export interface QueueStorage extends Component {
  /** The directory of `owner`'s queue. */
  directoryFor(owner: QueueOwner): string;
  /** Opens `owner`'s queue (what an earlier run left in it is delivered again); see DiskQueue.open for what it throws. */
  openQueue<M>(owner: QueueOwner, limits: QueueLimits): Promise<DiskQueue<M>>;
}

export function isQueueStorage(component: Component | undefined): component is QueueStorage {
  return component !== undefined && typeof (component as Partial<QueueStorage>).openQueue === 'function';
}

const SAFE = /[A-Za-z0-9._-]/;

/**
 * A name made safe as a file name as the Collector's filestorage makes it: every character but
 * letters, digits, `.`, `-` and `_` becomes `~` and its code point in four (or more) hex digits.
 */
function sanitizeName(name: string): string {
  let out = '';
  for (const char of name) out += SAFE.test(char) ? char : `~${(char.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`;
  return out;
}

/** `<kind>_<type>_<name>_<owner name>`, as the Collector's GetClient names the file. */
export function ownerDirectoryName(owner: QueueOwner): string {
  const slash = owner.id.indexOf('/');
  const type = slash === -1 ? owner.id : owner.id.slice(0, slash);
  const name = slash === -1 ? '' : owner.id.slice(slash + 1);
  return sanitizeName(`${owner.kind}_${type}_${name}_${owner.name}`);
}

export const fileStorageExtensionFactory: ExtensionFactory<typeof fileStorageSchema> = {
  kind: 'extension',
  type: 'file_storage',
  description: 'Keeps sending queues on disk: one directory per component and signal, checked and repaired at start.',
  stability: 'alpha',
  schema: fileStorageSchema,
  validate: validateFileStorage,
  create(config: FileStorageConfig, ctx): QueueStorage {
    const root = resolve(config.directory);
    const mode = Number.parseInt(config.directory_permissions, 8);
    const directoryFor = (owner: QueueOwner): string => join(root, ownerDirectoryName(owner));
    return {
      async start() {
        await checkStorageDirectory(root, config.create_directory, mode);
        const ignored = settingsWithoutEffect(config);
        if (ignored.length > 0) ctx.logger.warn({ settings: ignored }, 'These file_storage settings tune the Collector\'s bbolt database and have no effect in otelgate');
        ctx.logger.info({ directory: root, fsync: config.fsync }, 'Starting file_storage extension');
      },
      async shutdown() {},
      directoryFor,
      openQueue<M>(owner: QueueOwner, limits: QueueLimits): Promise<DiskQueue<M>> {
        return DiskQueue.open<M>({
          directory: directoryFor(owner),
          directoryMode: mode,
          sizer: limits.sizer,
          capacity: limits.capacity,
          blockOnOverflow: limits.blockOnOverflow,
          fsync: config.fsync,
          lockTimeoutMs: durationMs(config.timeout),
          compactOnStart: config.compaction.on_start,
          owner: `${owner.kind} ${owner.id} ${owner.name}`,
          logger: limits.logger ?? ctx.logger,
        });
      },
    };
  },
};
