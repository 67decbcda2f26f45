// The retry loop of the exporter helper, as the Collector's retry sender: attempt, and on a
// retryable failure wait max(backoff, Retry-After) and attempt again, until success, a permanent
// failure, max_elapsed_time, or shutdown. It returns what it came to, so that the caller (the
// queue) decides what "gave up" means: with a persistent queue, not a drop.
import { ExponentialBackoff } from './backoff.js';
import type { SendFailure, SendOutcome, SendSuccess } from './outcome.js';
import type { RetryPolicy } from './retry-settings.js';

/** Time as the loop sees it; tests pass a clock whose sleep returns at once and moves `now` on. */
export interface Clock {
  /** Milliseconds on a monotonic scale: only differences are used. */
  now(): number;
  /** Resolves after `ms`, or as soon as one of `signals` aborts. Never rejects. */
  sleep(ms: number, ...signals: (AbortSignal | undefined)[]): Promise<void>;
}

// setTimeout fires at once beyond this (about 24.8 days); a longer Retry-After waits this long.
const LONGEST_TIMER_MS = 2 ** 31 - 1;

// Listeners on each signal, not AbortSignal.any: on Node 20 a signal made by any() stays in the list
// of the long-lived signals it follows (the exporter's shutdown signal) for as long as they live.
export const systemClock: Clock = {
  now: () => performance.now(),
  sleep: (ms, ...signals) =>
    new Promise((resolve) => {
      if (signals.some((signal) => signal?.aborted === true)) {
        resolve();
        return;
      }
      const done = (): void => {
        clearTimeout(timer);
        for (const signal of signals) signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, Math.min(ms, LONGEST_TIMER_MS));
      for (const signal of signals) signal?.addEventListener('abort', done, { once: true });
    }),
};

export type RetryResult =
  | { kind: 'success'; outcome: SendSuccess; attempts: number }
  /** The backend will never take this request: drop it (and count and log it). */
  | { kind: 'permanent'; outcome: SendFailure; attempts: number }
  /**
   * Still retryable, but the loop stopped: retry_on_failure is disabled, or the next wait would end
   * beyond max_elapsed_time. `outcome` is the last failure.
   */
  | { kind: 'gave_up'; reason: 'retry_disabled' | 'max_elapsed_time'; outcome: SendFailure; attempts: number; elapsedMs: number }
  /** The signal aborted (shutdown): no further attempt was made. `outcome` is the last failure, if an attempt failed. */
  | { kind: 'aborted'; outcome: SendFailure | undefined; attempts: number };

export interface RetryEvent {
  /** Attempts made so far (1 after the first). */
  attempt: number;
  /** The wait before the next attempt. */
  delayMs: number;
  outcome: SendFailure;
}

export interface RetryOptions {
  /** Shutdown: ends a wait at once and starts no further attempt. */
  signal?: AbortSignal;
  /**
   * The backend is back: another request to it succeeded (the signal of that moment). Once per
   * request, a wait after a failure that looked like an outage (no connection, no answer in time,
   * 502, 503 or 504) ends then and the next attempt starts. Without it, requests that failed
   * during an outage would each wait out up to max_interval after the backend came back. A 429 or
   * a Retry-After is waited out: the backend is up and limits this request, or said how long.
   */
  recovered?: () => AbortSignal;
  clock?: Clock;
  /** A number in [0, 1), for the jitter; Math.random by default. */
  random?: () => number;
  /** Called before each wait, for a log line ("will retry in …"). */
  onRetry?: (event: RetryEvent) => void;
}

const OUTAGE_STATUSES = new Set([502, 503, 504]);

/** A failure that another request getting through shows to be over: the backend was away, not refusing. */
function looksLikeOutage(outcome: SendFailure): boolean {
  if (outcome.retryAfterMs !== undefined) return false;
  return outcome.status === undefined ? outcome.failure !== 'aborted' : OUTAGE_STATUSES.has(outcome.status);
}

/**
 * Runs `attempt` until it succeeds, fails permanently, or the policy or the signal stops it. An
 * exception from `attempt` is a bug, not a failure to send: it propagates.
 */
export async function retry(attempt: () => Promise<SendOutcome>, policy: RetryPolicy, options: RetryOptions = {}): Promise<RetryResult> {
  const { signal, onRetry } = options;
  const clock = options.clock ?? systemClock;
  const backoff = new ExponentialBackoff(policy, options.random);
  const start = clock.now();
  let attempts = 0;
  let last: SendFailure | undefined;
  // A request's wait ends early at most once: if it fails again, the backend refuses it, not everyone.
  let woken = false;
  // A function, not a narrowed property: the signal may abort during any await below.
  const aborted = (): boolean => signal?.aborted === true;
  for (;;) {
    if (aborted()) return { kind: 'aborted', outcome: last, attempts };
    const outcome = await attempt();
    attempts++;
    if (outcome.kind === 'success') return { kind: 'success', outcome, attempts };
    if (outcome.kind === 'permanent') return { kind: 'permanent', outcome, attempts };
    last = outcome;
    if (aborted()) return { kind: 'aborted', outcome, attempts };
    if (!policy.enabled) return { kind: 'gave_up', reason: 'retry_disabled', outcome, attempts, elapsedMs: clock.now() - start };
    // The backend's Retry-After only ever lengthens the wait, as in the Collector.
    const delayMs = Math.max(backoff.next(), outcome.retryAfterMs ?? 0);
    const elapsedMs = clock.now() - start;
    if (policy.maxElapsedTimeMs > 0 && elapsedMs + delayMs > policy.maxElapsedTimeMs) {
      return { kind: 'gave_up', reason: 'max_elapsed_time', outcome, attempts, elapsedMs };
    }
    onRetry?.({ attempt: attempts, delayMs, outcome });
    const back = !woken && looksLikeOutage(outcome) ? options.recovered?.() : undefined;
    await clock.sleep(delayMs, signal, back);
    if (back?.aborted === true) woken = true;
  }
}
