// The error catalogue: every error otelgate raises on purpose, each with a stable code (docs/errors.md).
// Consumers reject with these; the receiver maps them to statuses, exporters to retry decisions.

export type ErrorCode =
  | 'CONFIG_INVALID'
  | 'DATA_PERMANENT'
  | 'DATA_RETRYABLE'
  | 'DATA_REFUSED_MEMORY'
  | 'SHUTTING_DOWN'
  | 'STORAGE_UNAVAILABLE'
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
    super(`the store could not write: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

export class ComponentStartError extends OtelgateError {
  readonly code = 'COMPONENT_START_FAILED';
  readonly retryable = false;
  constructor(
    readonly componentId: string,
    readonly reason: string,
  ) {
    super(`${componentId} could not start: ${reason}`);
  }
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
