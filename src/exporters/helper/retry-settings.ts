// retry_on_failure: the Collector's configretry.BackOffConfig, with its names, defaults and checks.
import Type, { type Static } from 'typebox';
import { durationMs } from '../../config/duration.js';
import type { SettingsProblem } from '../../runtime/component.js';

export const retryOnFailureSchema = Type.Object(
  {
    enabled: Type.Boolean({ default: true, description: 'Retry a request that failed in a way that may pass (network errors, 429, 502, 503, 504); false: one attempt only.' }),
    initial_interval: Type.String({ format: 'duration', default: '5s', description: 'How long to wait after the first failure before retrying.' }),
    max_interval: Type.String({ format: 'duration', default: '30s', description: 'The upper bound of the interval between retries (before randomization_factor is applied).' }),
    max_elapsed_time: Type.String({
      format: 'duration',
      default: '5m',
      description: 'How long a request is retried, from its first attempt; "0" retries for ever. What becomes of a request still failing then is the exporter\'s to say (see its README).',
    }),
    multiplier: Type.Number({ minimum: 0, default: 1.5, description: 'Each interval is the previous one times this, up to max_interval.' }),
    randomization_factor: Type.Number({
      minimum: 0,
      maximum: 1,
      default: 0.5,
      description: 'Jitter: each wait is drawn from interval × (1 ± randomization_factor), so that many senders do not retry in step; 0 waits exactly the interval.',
    }),
  },
  { additionalProperties: false, default: {} },
);

export type RetryOnFailureConfig = Static<typeof retryOnFailureSchema>;

/** retry_on_failure in numbers, as the retry loop uses it. */
export interface RetryPolicy {
  enabled: boolean;
  initialIntervalMs: number;
  maxIntervalMs: number;
  /** 0: retry for ever. */
  maxElapsedTimeMs: number;
  multiplier: number;
  randomizationFactor: number;
}

export function retryPolicy(config: RetryOnFailureConfig): RetryPolicy {
  return {
    enabled: config.enabled,
    initialIntervalMs: durationMs(config.initial_interval),
    maxIntervalMs: durationMs(config.max_interval),
    maxElapsedTimeMs: durationMs(config.max_elapsed_time),
    multiplier: config.multiplier,
    randomizationFactor: config.randomization_factor,
  };
}

/** The Collector's cross-field checks of the block; paths are relative to the exporter's settings. */
export function validateRetryOnFailure(config: RetryOnFailureConfig): SettingsProblem[] {
  const policy = retryPolicy(config);
  if (policy.maxElapsedTimeMs === 0) return [];
  const path = ['retry_on_failure', 'max_elapsed_time'];
  const problems: SettingsProblem[] = [];
  if (policy.maxElapsedTimeMs < policy.initialIntervalMs) problems.push({ path, message: `must not be less than initial_interval (${config.initial_interval}), or "0" to retry for ever` });
  if (policy.maxElapsedTimeMs < policy.maxIntervalMs) problems.push({ path, message: `must not be less than max_interval (${config.max_interval}), or "0" to retry for ever` });
  return problems;
}
