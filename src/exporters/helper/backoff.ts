// The exponential backoff the Collector retries with (cenkalti/backoff v7's ExponentialBackOff):
// the interval starts at initial_interval and grows by multiplier up to max_interval; each wait is
// drawn uniformly from interval × (1 ± randomization_factor), exactly the interval when that is 0.
import type { RetryPolicy } from './retry-settings.js';

export class ExponentialBackoff {
  private interval = 0;

  constructor(
    private readonly policy: RetryPolicy,
    /** A number in [0, 1), as Math.random; tests pass their own. */
    private readonly random: () => number = Math.random,
  ) {}

  /** The wait before the next retry, in milliseconds. */
  next(): number {
    const { initialIntervalMs, maxIntervalMs, multiplier, randomizationFactor } = this.policy;
    // An interval of 0 (a multiplier of 0 makes one) starts over, as in cenkalti/backoff.
    if (this.interval === 0) this.interval = initialIntervalMs;
    const current = this.interval;
    // Compared by division so that a huge interval cannot overflow past max_interval.
    this.interval = current >= maxIntervalMs / multiplier ? maxIntervalMs : current * multiplier;
    if (randomizationFactor === 0) return current;
    const delta = randomizationFactor * current;
    return current - delta + this.random() * 2 * delta;
  }
}
