// Sampling log records, as the Collector's logsprocessor.go: the randomness is the trace id's, or in
// hash_seed mode a chosen attribute's (attribute_source: record, from_attribute), the record's
// `sampling.randomness` and `sampling.threshold` attributes are the span's rv and th, and a
// priority attribute (sampling_priority) sets the record's own percentage. A kept record says the
// threshold it was kept at in `sampling.threshold` (in hash_seed mode also `sampling.randomness`),
// as a new row with new attributes.
import { withAttributes, type AnyValue, type Attributes } from '../../model/anyvalue.js';
import type { LogRow } from '../../model/logs.js';
import { keepRows } from '../../model/rewrite.js';
import { anyValueText } from '../../ottl/values.js';
import { fnvHash, fnvHashHex, hashRandomness } from './hash.js';
import { consistent, emptyTraceId, MISSING, RANDOMNESS_IN_USE, Report, THRESHOLD_IN_USE, shouldSample, type Carrier, type Extracted, type Problem, type Randomness, type Sampler } from './sampler.js';
import { ALL_PROBABILITIES_RANDOMNESS, SamplingProblem, probabilityToThreshold, rValue, rValueToRandomness, tValue, tValueToThreshold } from './sampling.js';

const THRESHOLD_KEY = 'sampling.threshold';
const RANDOMNESS_KEY = 'sampling.randomness';

/** The sampling.* attributes of a record; what a kept record changes of them. */
class AttributeCarrier implements Carrier {
  private tValue = '';
  private thresholdValue = 0n;
  private rValue = '';
  private randomnessValue = 0n;
  /** Attribute changes: a value to set, or undefined to remove. */
  readonly changes = new Map<string, string | undefined>();

  /** The carrier, or the problems of the values that did not parse. */
  static read(attributes: Attributes): AttributeCarrier | Problem {
    const carrier = new AttributeCarrier();
    const problems: string[] = [];
    const th = attributes[THRESHOLD_KEY];
    if (typeof th === 'string' && th !== '') {
      const threshold = tValueToThreshold(th);
      if (threshold instanceof SamplingProblem) problems.push(threshold.message);
      else {
        carrier.tValue = th;
        carrier.thresholdValue = threshold;
      }
    }
    const rv = attributes[RANDOMNESS_KEY];
    if (typeof rv === 'string' && rv !== '') {
      const randomness = rValueToRandomness(rv);
      if (randomness instanceof SamplingProblem) problems.push(randomness.message);
      else {
        carrier.rValue = rv;
        carrier.randomnessValue = randomness;
      }
    }
    return problems.length === 0 ? carrier : { message: problems.join('; '), ordinary: false };
  }

  threshold(): bigint | undefined {
    return this.tValue === '' ? undefined : this.thresholdValue;
  }

  randomness(): bigint | undefined {
    return this.rValue === '' ? undefined : this.randomnessValue;
  }

  setRandomness(value: bigint): void {
    this.randomnessValue = value;
    this.rValue = rValue(value);
    this.changes.set(RANDOMNESS_KEY, this.rValue);
  }

  clearThreshold(): void {
    this.tValue = '';
    this.changes.set(THRESHOLD_KEY, undefined);
  }

  updateThreshold(threshold: bigint): boolean {
    const arriving = this.threshold();
    if (arriving !== undefined && threshold < arriving) return false;
    this.changes.set(THRESHOLD_KEY, tValue(threshold));
    return true;
  }

  /** `attributes` with the changes made, in a new map. */
  applied(attributes: Attributes): Attributes {
    const out = withAttributes(attributes);
    for (const [key, value] of this.changes) {
      if (value === undefined) delete out[key];
      else out[key] = value;
    }
    return out;
  }
}

/** The bytes of an attribute the Collector hashes: bytes as they are, anything else as its text (pcommon's AsString). */
function valueBytes(value: AnyValue): Uint8Array {
  return value instanceof Uint8Array ? value : Buffer.from(anyValueText(value), 'utf8');
}

function extract(sampler: Sampler, row: LogRow): Extracted<AttributeCarrier> {
  const read = AttributeCarrier.read(row.attributes);
  const carrier = read instanceof AttributeCarrier ? read : undefined;
  const problem = read instanceof AttributeCarrier ? undefined : read;
  switch (sampler.kind) {
    case 'never':
      return { rnd: { value: ALL_PROBABILITIES_RANDOMNESS, policy: 'sampling_priority' }, carrier, problem };
    case 'hash_seed': {
      let rnd: Randomness = MISSING;
      if (sampler.logsByTraceId && !emptyTraceId(row.traceId)) rnd = { value: hashRandomness(fnvHashHex(row.traceId, sampler.seed)), policy: 'trace_id_hash' };
      if (rnd === MISSING && sampler.fromAttribute !== '' && Object.hasOwn(row.attributes, sampler.fromAttribute)) {
        const bytes = valueBytes(row.attributes[sampler.fromAttribute] as AnyValue);
        if (bytes.length > 0) rnd = { value: hashRandomness(fnvHash(bytes, sampler.seed)), policy: sampler.fromAttribute };
      }
      if (carrier === undefined) return { rnd, carrier, problem };
      // OpenTelemetry sampling values already there are left alone: this mode is not theirs.
      if (carrier.randomness() !== undefined) return { rnd, carrier: undefined, problem: RANDOMNESS_IN_USE };
      if (carrier.threshold() !== undefined) return { rnd, carrier: undefined, problem: THRESHOLD_IN_USE };
      if (rnd !== MISSING) carrier.setRandomness(rnd.value);
      return { rnd, carrier, problem: undefined };
    }
    case 'equalizing':
    case 'proportional':
      return consistent(carrier, row.traceId, problem);
  }
}

/** The threshold of a record's priority attribute (a percentage, int or double), when it gives a valid one. */
function logPriority(row: LogRow, attribute: string, precision: number): bigint | undefined {
  if (attribute === '') return undefined;
  const value = row.attributes[attribute];
  const percent = typeof value === 'number' ? value : typeof value === 'bigint' ? Number(value) : 0;
  if (percent === 0) return undefined;
  return probabilityToThreshold(percent / 100, precision);
}

export interface LogSampling {
  sampler: Sampler;
  failClosed: boolean;
  priorityAttribute: string;
  precision: number;
}

/** The records kept, in their order; the same array when all are kept unchanged. */
export function sampleLogs(rows: readonly LogRow[], s: LogSampling, report: Report): readonly LogRow[] {
  return keepRows(rows, (row) => {
    const x = extract(s.sampler, row);
    if (!shouldSample(x, s.sampler, s.failClosed, logPriority(row, s.priorityAttribute, s.precision), report)) return undefined;
    if (x.carrier === undefined || x.carrier.changes.size === 0) return row;
    return { ...row, attributes: x.carrier.applied(row.attributes) };
  });
}
