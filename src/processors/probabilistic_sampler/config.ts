// Settings of the probabilistic_sampler processor: the Collector's names, defaults and checks
// (config.go, factory.go). sampling_percentage is a float32 there, and so it is read here: the same
// percentage keeps the same items.
import Type, { type Static } from 'typebox';
import type { SettingsProblem } from '../../runtime/component.js';
import { MODES, type SamplerSettings } from './sampler.js';
import { MIN_SAMPLING_PROBABILITY, NUM_HEX_DIGITS } from './sampling.js';

const ATTRIBUTE_SOURCES = ['traceID', 'record'] as const;

export const probabilisticSamplerSchema = Type.Object(
  {
    sampling_percentage: Type.Number({ default: 0, description: 'The percentage of spans or log records kept, read as a float32: 0 keeps none, 100 or more keeps all.' }),
    hash_seed: Type.Integer({ minimum: 0, maximum: 0xffffffff, default: 0, description: 'hash_seed mode: mixed into the hash of the trace id (or attribute). Every gateway of one tier needs the same seed; tiers that sample again need different ones.' }),
    mode: Type.Enum(MODES, {
      default: 'hash_seed',
      description: 'hash_seed: the FNV hash of the seed and the trace id decides (the Collector\'s default). proportional: the trace id\'s randomness (W3C), each span\'s arriving probability multiplied by the percentage. equalizing: the same, every span brought down to at most the percentage.',
    }),
    fail_closed: Type.Boolean({ default: true, description: 'An item whose randomness is missing or whose sampling values do not parse is dropped (true) or kept (false). A priority decides after it.' }),
    sampling_precision: Type.Integer({ minimum: 1, maximum: NUM_HEX_DIGITS, default: 4, description: 'Hex digits of the threshold written in `ot=th:` and sampling.threshold, 1 to 14 (more are used near 0 and 100 %).' }),
    attribute_source: Type.Enum(ATTRIBUTE_SOURCES, { default: 'traceID', description: 'Logs: where the randomness comes from: the trace id, or the record attribute from_attribute (hash_seed mode).' }),
    from_attribute: Type.String({ default: '', description: 'Logs, hash_seed mode: the record attribute hashed when attribute_source is record, or when the record has no trace id.' }),
    sampling_priority: Type.String({ default: '', description: 'Logs: a record attribute holding the record\'s own percentage (int or double), which replaces sampling_percentage for it; 0 or absent leaves it to the sampler.' }),
  },
  { additionalProperties: false },
);

export type ProbabilisticSamplerConfig = Static<typeof probabilisticSamplerSchema>;

const RANGE = 'give a percentage from 0 (keep nothing) to 100 (keep everything)';

export function validateProbabilisticSampler(config: ProbabilisticSamplerConfig): SettingsProblem[] {
  const percent = Math.fround(config.sampling_percentage);
  const path = ['sampling_percentage'];
  if (!Number.isFinite(percent)) return [{ path, message: `${config.sampling_percentage} is not a percentage a float32 holds; ${RANGE}` }];
  if (percent < 0) return [{ path, message: `the sampling rate is negative (${config.sampling_percentage}); ${RANGE}` }];
  if (percent > 0 && percent / 100 < MIN_SAMPLING_PROBABILITY) {
    return [{ path, message: `the sampling rate is too small (${config.sampling_percentage}): the smallest one is 2^-56, about ${(MIN_SAMPLING_PROBABILITY * 100).toPrecision(3)} percent; use 0 to keep nothing` }];
  }
  return [];
}

/** The settings the sampler takes, the percentage made a float32. */
export function samplerSettings(config: ProbabilisticSamplerConfig): SamplerSettings {
  return {
    percent: Math.fround(config.sampling_percentage),
    mode: config.mode,
    hashSeed: config.hash_seed,
    precision: config.sampling_precision,
    attributeSource: config.attribute_source,
    fromAttribute: config.from_attribute,
  };
}
