// How every remote exporter retries a push, whatever its client: the retry loop's options for one
// queued request (shutdown, the backend-is-back signal, the log line of each retry), and the pause
// before a request whose retries ran out is tried again.
import type { ComponentContext } from '../../runtime/component.js';
import type { Outgoing } from './queued-exporter.js';
import type { RetryOptions } from './retry.js';
import type { RetryPolicy } from './retry-settings.js';

export function pushRetryOptions(ctx: ComponentContext, out: Outgoing, signal: AbortSignal, recovered: (() => AbortSignal) | undefined): RetryOptions {
  return {
    signal,
    ...(recovered === undefined ? {} : { recovered }),
    onRetry: (event) => ctx.logger.info({ signal: out.signal, project: out.project, attempt: event.attempt, retry_in_ms: event.delayMs, message: event.outcome.message }, 'Exporting failed; will retry'),
  };
}

/** RemoteExporterSpec.retryPauseMs: the longest backoff interval, and at least a second. */
export function retryPauseMs(policy: RetryPolicy): number {
  return Math.max(policy.maxIntervalMs, 1000);
}
