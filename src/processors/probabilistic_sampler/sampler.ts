// The sampling decision of one span or log record, whatever the signal, as the Collector's
// sampler_mode.go makes it: the item's randomness and the sampling values it carries (its
// "carrier": a span's tracestate, a record's sampling.* attributes) are read by the mode; a
// failure to read them is fail_closed's to decide; a priority overrides the threshold; a kept item
// carries the threshold it was kept at.
import { hashSeedThreshold } from './hash.js';
import { ALL_PROBABILITIES_RANDOMNESS, ALWAYS_SAMPLE, MIN_SAMPLING_PROBABILITY, NEVER_SAMPLE, probabilityToThreshold, thresholdProbability, traceIdRandomness } from './sampling.js';

export const MODES = ['hash_seed', 'equalizing', 'proportional'] as const;
export type Mode = (typeof MODES)[number];

/** A randomness and where it came from: the metric's `policy`. */
export interface Randomness {
  readonly value: bigint;
  readonly policy: string;
}

/** No randomness was found: every threshold but never keeps it, but fail_closed decides first. */
export const MISSING: Randomness = { value: ALL_PROBABILITIES_RANDOMNESS, policy: 'missing_randomness' };

const ZERO_TRACE_ID = '0'.repeat(32);

/**
 * An all-zero or absent trace id is no randomness: W3C calls it invalid. Nor is one of another
 * length than 16 bytes, which otelgate's readers keep and pdata would have refused: the Collector
 * never decides on one.
 */
export const emptyTraceId = (traceId: string): boolean => traceId.length !== 32 || traceId === ZERO_TRACE_ID;

/** The randomness the consistent modes (equalizing, proportional) use: an explicit rv, else the trace id's, else none. */
export function consistent<C extends Carrier>(carrier: C | undefined, traceId: string, problem: Problem | undefined): Extracted<C> {
  if (carrier === undefined) return { rnd: MISSING, carrier, problem };
  const explicit = carrier.randomness();
  if (explicit !== undefined) return { rnd: { value: explicit, policy: 'sampling_randomness' }, carrier, problem };
  if (emptyTraceId(traceId)) return { rnd: MISSING, carrier, problem };
  return { rnd: { value: traceIdRandomness(traceId), policy: 'trace_id_w3c' }, carrier, problem };
}

/** The sampling values an item carries, read once and changed in a copy that a kept item takes. */
export interface Carrier {
  threshold(): bigint | undefined;
  randomness(): bigint | undefined;
  setRandomness(value: bigint): void;
  clearThreshold(): void;
  /** Sets the threshold; false (and nothing changed) when that would raise the item's probability. */
  updateThreshold(threshold: bigint): boolean;
}

/** Why an item could not be sampled normally. `ordinary`: one of the sampler's own conditions (logged at debug), else a value that did not parse (info). */
export interface Problem {
  readonly message: string;
  readonly ordinary: boolean;
}

const MISSING_RANDOMNESS: Problem = { message: 'missing randomness', ordinary: true };
const INCONSISTENT_ARRIVING: Problem = { message: 'inconsistent arriving threshold: item should not have been sampled', ordinary: true };
export const RANDOMNESS_IN_USE: Problem = { message: 'item has sampling randomness, equalizing or proportional mode recommended', ordinary: true };
export const THRESHOLD_IN_USE: Problem = { message: 'item has sampling threshold, equalizing or proportional mode recommended', ordinary: true };
const CANNOT_RAISE: Problem = { message: 'cannot raise existing sampling probability', ordinary: true };

/** What a mode read from an item: `carrier` undefined when its sampling values are not to be touched. */
export interface Extracted<C extends Carrier> {
  rnd: Randomness;
  carrier: C | undefined;
  problem: Problem | undefined;
}

export type Sampler =
  | { readonly kind: 'never' }
  | { readonly kind: 'hash_seed'; readonly threshold: bigint; readonly seed: number; readonly logsByTraceId: boolean; readonly fromAttribute: string }
  | { readonly kind: 'equalizing'; readonly threshold: bigint }
  | { readonly kind: 'proportional'; readonly ratio: number; readonly precision: number; readonly unsampledThreshold: bigint };

export interface SamplerSettings {
  /** As a float32, as the Collector reads it. */
  percent: number;
  mode: Mode;
  hashSeed: number;
  precision: number;
  attributeSource: 'traceID' | 'record';
  fromAttribute: string;
}

/** The sampler of a percentage and mode; above 100 is 100, below 2^-56 (but not 0) is 2^-56. */
export function makeSampler(s: SamplerSettings): Sampler {
  const percent = Math.min(s.percent, 100);
  if (percent === 0) return { kind: 'never' };
  const ratio = Math.max(percent / 100, MIN_SAMPLING_PROBABILITY);
  switch (s.mode) {
    case 'equalizing':
      return { kind: 'equalizing', threshold: probabilityToThreshold(ratio, s.precision) as bigint };
    case 'proportional':
      return { kind: 'proportional', ratio, precision: s.precision, unsampledThreshold: probabilityToThreshold(ratio, s.precision) as bigint };
    case 'hash_seed': {
      const threshold = hashSeedThreshold(percent);
      if (threshold === undefined) return { kind: 'never' };
      return { kind: 'hash_seed', threshold, seed: s.hashSeed, logsByTraceId: s.attributeSource === 'traceID', fromAttribute: s.fromAttribute };
    }
  }
}

/** The threshold the mode keeps an item at, given what it carries. */
function decide(sampler: Sampler, carrier: Carrier | undefined): bigint {
  switch (sampler.kind) {
    case 'never':
      return NEVER_SAMPLE;
    case 'hash_seed':
      return sampler.threshold;
    case 'equalizing': {
      const arriving = carrier?.threshold();
      return arriving !== undefined && sampler.threshold < arriving ? arriving : sampler.threshold;
    }
    case 'proportional': {
      const arriving = carrier?.threshold();
      // Most items arrive unsampled: their threshold is the ratio's, computed once.
      if (arriving === undefined) return sampler.unsampledThreshold;
      // Below the smallest probability, the product is simply not sampled.
      return probabilityToThreshold(thresholdProbability(arriving) * sampler.ratio, sampler.precision) ?? NEVER_SAMPLE;
    }
  }
}

/** What a batch's decisions come to: counts by policy and outcome, and the problems met, for one log line. */
export class Report {
  readonly counts = new Map<string, { policy: string; sampled: boolean; count: number }>();
  problems = 0;
  /** Whether any problem was not one of the sampler's ordinary conditions. */
  unusual = false;
  first: string | undefined;

  count(policy: string, sampled: boolean): void {
    const key = sampled ? `${policy}\u0000t` : `${policy}\u0000f`;
    const entry = this.counts.get(key);
    if (entry === undefined) this.counts.set(key, { policy, sampled, count: 1 });
    else entry.count++;
  }

  problem(p: Problem): void {
    this.problems++;
    this.unusual ||= !p.ordinary;
    this.first ??= p.message;
  }
}

/** The items' randomness is consistent with the threshold they carry; a threshold that is not is cleared. */
function consistencyProblem(x: Extracted<Carrier>): Problem | undefined {
  if (x.rnd === MISSING) return MISSING_RANDOMNESS;
  const arriving = x.carrier?.threshold();
  if (arriving === undefined || arriving <= x.rnd.value) return undefined;
  x.carrier?.clearThreshold();
  return INCONSISTENT_ARRIVING;
}

/**
 * Whether to keep an item. `priority`: a threshold that overrides the mode's (a priority
 * attribute), or undefined. A kept item's carrier holds the threshold it was kept at, unless that
 * would raise the probability it arrived with.
 */
export function shouldSample(x: Extracted<Carrier>, sampler: Sampler, failClosed: boolean, priority: bigint | undefined, report: Report): boolean {
  const problem = x.problem ?? consistencyProblem(x);
  let threshold: bigint;
  if (problem !== undefined) {
    report.problem(problem);
    threshold = failClosed ? NEVER_SAMPLE : ALWAYS_SAMPLE;
  } else {
    threshold = decide(sampler, x.carrier);
  }
  let policy = x.rnd.policy;
  if (priority !== undefined) {
    threshold = priority;
    policy = 'sampling_priority';
  }
  const sampled = threshold <= x.rnd.value;
  if (sampled && x.carrier !== undefined && !x.carrier.updateThreshold(threshold)) report.problem(CANNOT_RAISE);
  report.count(policy, sampled);
  return sampled;
}
