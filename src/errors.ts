// The error catalogue: every error otelgate raises on purpose, each with a stable code (docs/errors.md).
// Consumers reject with these; the receiver maps them to statuses, exporters to retry decisions.

export type ErrorCode =
  | 'CONFIG_INVALID'
  | 'DATA_PERMANENT'
  | 'DATA_RETRYABLE'
  | 'DATA_REFUSED_MEMORY'
  | 'SHUTTING_DOWN'
  | 'STORAGE_UNAVAILABLE'
  | 'STORE_LOCKED'
  | 'QUEUE_FULL'
  | 'QUEUE_STORAGE_FAILED'
  | 'QUEUE_DIRECTORY_UNUSABLE'
  | 'QUEUE_LOCKED'
  | 'COMPONENT_START_FAILED';

export abstract class OtelgateError extends Error {
  abstract readonly code: ErrorCode;
  /** Whether sending the same data again later can succeed: the receiver answers 503 for these. */
  abstract readonly retryable: boolean;
  override get name(): string {
    return this.constructor.name;
  }
}

/** One finding of config validation, located in a file where it can be. */
export interface ConfigIssue {
  severity: 'error' | 'warning';
  file?: string;
  line?: number;
  col?: number;
  /** Dotted path inside the config, e.g. `exporters.loki/eu.endpoint` or `service.pipelines.logs.exporters[1]`. */
  path: string;
  message: string;
}

export function formatIssue(issue: ConfigIssue): string {
  const where = issue.file === undefined ? '' : `${issue.file}${issue.line === undefined ? '' : `:${issue.line}:${issue.col ?? 1}`}: `;
  const path = issue.path === '' ? '' : `${issue.path}: `;
  return `${issue.severity === 'warning' ? 'warning: ' : ''}${where}${path}${issue.message}`;
}

/** Carries at least one error, and the warnings found beside them (an unset variable often explains an error). */
export class ConfigError extends OtelgateError {
  readonly code = 'CONFIG_INVALID';
  readonly retryable = false;
  constructor(readonly issues: ConfigIssue[]) {
    super(issues.map(formatIssue).join('\n'));
  }
}

/** The data can never be accepted as sent; retrying it is pointless. */
export class PermanentError extends OtelgateError {
  readonly code = 'DATA_PERMANENT';
  readonly retryable = false;
}

/** A passing failure; the same data may be accepted later. */
export class RetryableError extends OtelgateError {
  readonly code: ErrorCode = 'DATA_RETRYABLE';
  readonly retryable = true;
}

export class MemoryLimitError extends RetryableError {
  override readonly code = 'DATA_REFUSED_MEMORY';
  constructor() {
    super('data refused due to high memory usage');
  }
}

export class ShuttingDownError extends RetryableError {
  override readonly code = 'SHUTTING_DOWN';
  constructor() {
    super('otelgate is shutting down');
  }
}

/** The embedded store could not write (disk full, file unwritable, locked past busy_timeout, corrupt): nothing of the batch was stored. */
export class StorageError extends RetryableError {
  override readonly code = 'STORAGE_UNAVAILABLE';
  constructor(cause: unknown) {
    super(`the store could not write: ${errorMessage(cause)}`, { cause });
  }
}

/** Who holds a store file: what the holder wrote into its lock file when it took it. */
export interface StoreHolder {
  pid: number;
  host: string;
  /** The holder's store exporter id. */
  exporter: string;
  /** When it took the lock (ISO 8601). */
  since: string;
  /** The holder is this very process: another store exporter of this otelgate. */
  here: boolean;
}

function storeLockedMessage(file: string, holder: StoreHolder | undefined, exporter: string): string {
  const another = `give exporters.${exporter}.path another file`;
  const reading = 'otelgate query reads the store while its writer runs';
  if (holder === undefined) {
    return `${file} is already being written by another process (it has not yet written who it is into ${file}.lock); a store has one writer: stop that one first, or ${another} (${reading})`;
  }
  const who = `pid ${holder.pid} on host ${holder.host}, exporter "${holder.exporter}", since ${holder.since}`;
  if (holder.here) return `${file} is already being written by another store exporter of this otelgate (${who}); a store has one writer: ${another}`;
  return `${file} is already being written by another otelgate (${who}); a store has one writer: stop that one first, or ${another} (${reading})`;
}

/** The store file already has its writer (another otelgate, or another store exporter of this one); it stays that one's. */
export class StoreLockedError extends OtelgateError {
  readonly code = 'STORE_LOCKED';
  readonly retryable = false;
  constructor(
    readonly file: string,
    readonly holder: StoreHolder | undefined,
    exporter: string,
  ) {
    super(storeLockedMessage(file, holder, exporter));
  }
}

/** A sending queue holds as much as its queue_size allows; nothing queued is dropped to make room. */
export class QueueFullError extends RetryableError {
  override readonly code = 'QUEUE_FULL';
  constructor(readonly capacity: number, readonly sizer: string) {
    super(`the sending queue is full (queue_size ${capacity} ${sizer}); nothing queued is dropped to make room`);
  }
}

/** A sending queue could not write an entry (disk full, I/O error): nothing of the entry is kept, and the queue writes again once it can. */
export class QueueStorageError extends RetryableError {
  override readonly code = 'QUEUE_STORAGE_FAILED';
  /** The system's code for the failure (ENOSPC, EIO, EDQUOT...), when it gave one. */
  readonly errno: string | undefined;
  constructor(readonly directory: string, cause: unknown) {
    super(`the sending queue in ${directory} could not write: ${errorMessage(cause)}`, { cause });
    const code = (cause as { code?: unknown } | undefined)?.code;
    this.errno = typeof code === 'string' ? code : undefined;
  }
}

/** A sending queue's directory cannot be used at all: missing (and not to be created), not a directory, or not writable. */
export class QueueDirectoryError extends OtelgateError {
  readonly code = 'QUEUE_DIRECTORY_UNUSABLE';
  readonly retryable = false;
  constructor(readonly directory: string, reason: string, options?: ErrorOptions) {
    super(`the sending queue cannot use ${directory}: ${reason}`, options);
  }
}

/** Who holds a queue directory: what the holder wrote into its lock file when it took it. */
export interface QueueHolder {
  pid: number;
  host: string;
  /** The holder's own name for the queue, e.g. `exporter otlp_http/tempo traces`. */
  owner: string;
  /** When it took the lock (ISO 8601). */
  since: string;
}

/** Another queue (another otelgate, or another of this one) already writes this directory; a queue directory has one writer. */
export class QueueLockedError extends OtelgateError {
  readonly code = 'QUEUE_LOCKED';
  readonly retryable = false;
  constructor(
    readonly directory: string,
    readonly holder: QueueHolder | undefined,
    waitedMs: number,
  ) {
    const who = holder === undefined ? 'a process that has not yet written who it is' : `pid ${holder.pid} on host ${holder.host} (${holder.owner}, since ${holder.since})`;
    super(`the sending queue in ${directory} is already open in ${who}; waited ${waitedMs} ms for it to let go. A queue directory has one writer: stop the other one, or give this one another directory`);
  }
}

export class ComponentStartError extends OtelgateError {
  readonly code = 'COMPONENT_START_FAILED';
  readonly retryable = false;
  constructor(
    readonly componentId: string,
    readonly reason: string,
    /** The component's own error, with its own code when it is one of ours (e.g. STORE_LOCKED). */
    options?: ErrorOptions,
  ) {
    super(`${componentId} could not start: ${reason}`, options);
  }
}

/** A failure as a user reads it: its message without the stack (a stack is for bugs, and these are not). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Anything that is not one of ours counts as retryable: an unknown failure must not drop data for good. */
export function isRetryable(error: unknown): boolean {
  return !(error instanceof OtelgateError) || error.retryable;
}

/** Joins the failures of several consumers into one: permanent only when every one of them is. */
export function joinErrors(errors: unknown[]): unknown {
  if (errors.length === 1) return errors[0];
  const message = errors.map((e) => (e instanceof Error ? e.message : String(e))).join('; ');
  return errors.every((e) => !isRetryable(e)) ? new PermanentError(message) : new RetryableError(message);
}
