// The retry loop and its backoff schedule, under a clock the test moves: exact waits, jitter
// bounds, Retry-After, max_elapsed_time, retry for ever, shutdown, and the backend coming back.
// Nothing here waits for real.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExponentialBackoff } from '../../../src/exporters/helper/backoff.js';
import type { SendFailure, SendOutcome } from '../../../src/exporters/helper/outcome.js';
import { retry, systemClock, type Clock, type RetryEvent } from '../../../src/exporters/helper/retry.js';
import type { RetryPolicy } from '../../../src/exporters/helper/retry-settings.js';
import { settles } from '../../helpers/wait.js';

/** The Collector's defaults, without jitter. */
const EXACT: RetryPolicy = { enabled: true, initialIntervalMs: 5000, maxIntervalMs: 30_000, maxElapsedTimeMs: 300_000, multiplier: 1.5, randomizationFactor: 0 };

class TestClock implements Clock {
  time = 0;

  readonly sleeps: number[] = [];

  /** The signals each sleep was given. */
  readonly signals: (AbortSignal | undefined)[][] = [];

  /** Called inside each sleep, e.g. to abort as shutdown would. */
  onSleep: (() => void) | undefined;

  now(): number {
    return this.time;
  }

  sleep(ms: number, ...signals: (AbortSignal | undefined)[]): Promise<void> {
    this.sleeps.push(ms);
    this.signals.push(signals);
    this.time += ms;
    this.onSleep?.();
    return Promise.resolve();
  }
}

const UNAVAILABLE: SendFailure = { kind: 'retryable', failure: 'http_status', status: 503, message: 'the backend answered 503 Service Unavailable' };

/** An attempt that fails as `failures` say, in order, then succeeds; each takes `tookMs` on the clock. */
function attempts(clock: TestClock, failures: SendOutcome[], tookMs = 0): { attempt: () => Promise<SendOutcome>; count: () => number } {
  let made = 0;
  return {
    attempt: () => {
      clock.time += tookMs;
      const outcome = failures[made] ?? { kind: 'success', status: 200 };
      made++;
      return Promise.resolve(outcome);
    },
    count: () => made,
  };
}

const failing = (n: number, outcome: SendOutcome = UNAVAILABLE): SendOutcome[] => Array.from({ length: n }, () => outcome);

describe('ExponentialBackoff', () => {
  it('grows by the multiplier from initial_interval to max_interval, exactly when randomization_factor is 0', () => {
    const backoff = new ExponentialBackoff(EXACT);
    expect(Array.from({ length: 8 }, () => backoff.next())).toEqual([5000, 7500, 11250, 16875, 25312.5, 30000, 30000, 30000]);
  });

  it('draws each wait from interval × (1 ± randomization_factor)', () => {
    const policy = { ...EXACT, randomizationFactor: 0.5 };
    const low = new ExponentialBackoff(policy, () => 0);
    expect(Array.from({ length: 7 }, () => low.next())).toEqual([2500, 3750, 5625, 8437.5, 12656.25, 15000, 15000]);
    const high = new ExponentialBackoff(policy, () => 0.999999);
    const highs = Array.from({ length: 7 }, () => high.next());
    [7500, 11250, 16875, 25312.5, 37968.75, 45000, 45000].forEach((bound, i) => {
      expect(highs[i]).toBeLessThan(bound);
      expect(highs[i]).toBeGreaterThan(bound * 0.99999);
    });
  });

  it('stays within the jitter bounds for any random draws and settings', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60_000 }),
        fc.integer({ min: 1, max: 600_000 }),
        fc.double({ min: 1, max: 10, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 1, maxLength: 30 }),
        (initial, max, multiplier, factor, draws) => {
          const policy = { ...EXACT, initialIntervalMs: initial, maxIntervalMs: Math.max(initial, max), multiplier, randomizationFactor: factor };
          const exact = new ExponentialBackoff({ ...policy, randomizationFactor: 0 });
          let i = 0;
          const jittered = new ExponentialBackoff(policy, () => draws[i++ % draws.length] as number);
          for (let n = 0; n < draws.length; n++) {
            const interval = exact.next();
            const delay = jittered.next();
            expect(delay).toBeGreaterThanOrEqual(interval * (1 - factor) - 1e-6);
            expect(delay).toBeLessThanOrEqual(interval * (1 + factor) + 1e-6);
          }
        },
      ),
    );
  });
});

describe('retry', () => {
  it('waits the exact schedule and gives up, still retryable, when the next wait would pass max_elapsed_time', async () => {
    const clock = new TestClock();
    const { attempt, count } = attempts(clock, failing(100));
    const result = await retry(attempt, EXACT, { clock });
    // 5 + 7.5 + 11.25 + 16.875 + 25.3125 + 7 × 30 = 275.9375 s; one more 30 s wait would end at 305.9 s > 300 s.
    expect(clock.sleeps).toEqual([5000, 7500, 11250, 16875, 25312.5, 30000, 30000, 30000, 30000, 30000, 30000, 30000]);
    expect(result).toEqual({ kind: 'gave_up', reason: 'max_elapsed_time', outcome: UNAVAILABLE, attempts: 13, elapsedMs: 275_937.5 });
    expect(count()).toBe(13);
  });

  it('counts the time attempts take against max_elapsed_time', async () => {
    const clock = new TestClock();
    const { attempt } = attempts(clock, failing(100), 10_000);
    const result = await retry(attempt, { ...EXACT, maxElapsedTimeMs: 60_000 }, { clock });
    // Attempts end at 10, 25, 42.5 and 63.75 s; after the fourth, waiting 16.875 s would pass 60 s.
    expect(clock.sleeps).toEqual([5000, 7500, 11250]);
    expect(result).toMatchObject({ kind: 'gave_up', reason: 'max_elapsed_time', attempts: 4, elapsedMs: 63_750 });
  });

  it('succeeds after failures, reporting the attempts made', async () => {
    const clock = new TestClock();
    const { attempt } = attempts(clock, failing(3));
    expect(await retry(attempt, EXACT, { clock })).toEqual({ kind: 'success', outcome: { kind: 'success', status: 200 }, attempts: 4 });
    expect(clock.sleeps).toEqual([5000, 7500, 11250]);
  });

  it('retries for ever when max_elapsed_time is 0', async () => {
    const clock = new TestClock();
    const { attempt } = attempts(clock, failing(2000), 30_000);
    const result = await retry(attempt, { ...EXACT, maxElapsedTimeMs: 0 }, { clock });
    expect(result).toMatchObject({ kind: 'success', attempts: 2001 });
    expect(clock.sleeps).toHaveLength(2000);
    // Two thousand waits and attempts: over 33 hours on the clock, never given up.
    expect(clock.time).toBe(5000 + 7500 + 11250 + 16875 + 25312.5 + 1995 * 30_000 + 2001 * 30_000);
  });

  it('stops at once on a permanent failure', async () => {
    const clock = new TestClock();
    const bad: SendFailure = { kind: 'permanent', failure: 'http_status', status: 400, message: 'the backend answered 400 Bad Request' };
    const { attempt } = attempts(clock, [bad]);
    expect(await retry(attempt, EXACT, { clock })).toEqual({ kind: 'permanent', outcome: bad, attempts: 1 });
    expect(clock.sleeps).toEqual([]);
  });

  it('makes one attempt when retry_on_failure is disabled, and says it gave up', async () => {
    const clock = new TestClock();
    const { attempt } = attempts(clock, failing(1), 250);
    expect(await retry(attempt, { ...EXACT, enabled: false }, { clock })).toEqual({ kind: 'gave_up', reason: 'retry_disabled', outcome: UNAVAILABLE, attempts: 1, elapsedMs: 250 });
    expect(clock.sleeps).toEqual([]);
  });

  it('honours Retry-After when it asks for longer than the backoff, and keeps the backoff when it asks for less', async () => {
    const clock = new TestClock();
    const throttled = (ms: number): SendFailure => ({ kind: 'retryable', failure: 'http_status', status: 429, retryAfterMs: ms, message: 'the backend answered 429 Too Many Requests' });
    const policy = { ...EXACT, initialIntervalMs: 1000, multiplier: 2 };
    const { attempt } = attempts(clock, [throttled(3000), throttled(3000), throttled(0), throttled(60_000)]);
    expect(await retry(attempt, policy, { clock })).toMatchObject({ kind: 'success', attempts: 5 });
    // Backoff 1, 2, 4, 8 s against Retry-After 3, 3, 0, 60 s.
    expect(clock.sleeps).toEqual([3000, 3000, 4000, 60_000]);
  });

  it('gives up when a Retry-After would end beyond max_elapsed_time', async () => {
    const clock = new TestClock();
    const throttled: SendFailure = { kind: 'retryable', failure: 'http_status', status: 503, retryAfterMs: 400_000, message: '' };
    const { attempt } = attempts(clock, [throttled]);
    expect(await retry(attempt, EXACT, { clock })).toEqual({ kind: 'gave_up', reason: 'max_elapsed_time', outcome: throttled, attempts: 1, elapsedMs: 0 });
  });

  it('tells onRetry of each wait before it', async () => {
    const clock = new TestClock();
    const events: RetryEvent[] = [];
    const { attempt } = attempts(clock, failing(2));
    await retry(attempt, EXACT, { clock, onRetry: (event) => events.push(event) });
    expect(events).toEqual([
      { attempt: 1, delayMs: 5000, outcome: UNAVAILABLE },
      { attempt: 2, delayMs: 7500, outcome: UNAVAILABLE },
    ]);
  });

  it('stops when the signal aborts during a wait, with the last failure and no further attempt', async () => {
    const clock = new TestClock();
    const shutdown = new AbortController();
    clock.onSleep = () => {
      if (clock.sleeps.length === 3) shutdown.abort();
    };
    const { attempt, count } = attempts(clock, failing(100));
    expect(await retry(attempt, { ...EXACT, maxElapsedTimeMs: 0 }, { clock, signal: shutdown.signal })).toEqual({ kind: 'aborted', outcome: UNAVAILABLE, attempts: 3 });
    expect(count()).toBe(3);
  });

  it('stops when the signal aborts during an attempt, and makes none when it aborted before', async () => {
    const clock = new TestClock();
    const shutdown = new AbortController();
    const during = await retry(
      () => {
        shutdown.abort();
        return Promise.resolve(UNAVAILABLE);
      },
      EXACT,
      { clock, signal: shutdown.signal },
    );
    expect(during).toEqual({ kind: 'aborted', outcome: UNAVAILABLE, attempts: 1 });
    const { attempt, count } = attempts(clock, []);
    expect(await retry(attempt, EXACT, { clock, signal: shutdown.signal })).toEqual({ kind: 'aborted', outcome: undefined, attempts: 0 });
    expect(count()).toBe(0);
    expect(clock.sleeps).toEqual([]);
  });

  it('ends a wait after an outage-like failure once another request got through, once per request; not a 429 or a Retry-After', async () => {
    const clock = new TestClock();
    const shutdown = new AbortController();
    const delivered = new AbortController();
    const recovered = (): AbortSignal => delivered.signal;
    const limited: SendFailure = { kind: 'retryable', failure: 'http_status', status: 429, message: 'too many requests' };
    const refused: SendFailure = { kind: 'retryable', failure: 'connection_refused', message: 'connection refused' };
    const failures = [UNAVAILABLE, { ...UNAVAILABLE, retryAfterMs: 3000 }, limited, refused];
    expect(await retry(attempts(clock, failures).attempt, EXACT, { clock, signal: shutdown.signal, recovered })).toMatchObject({ kind: 'success', attempts: 5 });
    expect(clock.signals).toEqual([
      [shutdown.signal, delivered.signal],
      [shutdown.signal, undefined],
      [shutdown.signal, undefined],
      [shutdown.signal, delivered.signal],
    ]);
    // Woken once (a delivery during the first wait), a request waits its whole backoff after that.
    const again = new TestClock();
    again.onSleep = () => {
      if (again.sleeps.length === 1) delivered.abort();
    };
    expect(await retry(attempts(again, [UNAVAILABLE, UNAVAILABLE]).attempt, EXACT, { clock: again, signal: shutdown.signal, recovered })).toMatchObject({ kind: 'success' });
    expect(again.signals).toEqual([
      [shutdown.signal, delivered.signal],
      [shutdown.signal, undefined],
    ]);
  });

  it('lets an exception from the attempt propagate: a bug is not a failure to send', async () => {
    await expect(retry(() => Promise.reject(new Error('bug')), EXACT, { clock: new TestClock() })).rejects.toThrow('bug');
  });
});

describe('systemClock', () => {
  it('ends an hour\'s sleep as soon as the signal aborts, and does not sleep on an aborted signal', async () => {
    const shutdown = new AbortController();
    const sleeping = systemClock.sleep(3_600_000, shutdown.signal);
    shutdown.abort();
    expect(await settles(sleeping)).toBe(true);
    expect(await settles(systemClock.sleep(3_600_000, shutdown.signal))).toBe(true);
  });
});
