// Sampling spans, as the Collector's tracesprocessor.go: the randomness is the trace id's (hashed
// with the seed in hash_seed mode, its last 56 bits in the others, where the tracestate's rv comes
// first), the `sampling.priority` attribute forces a span in or out, and a kept span's tracestate
// says the threshold it was kept at (`ot=th:`; in hash_seed mode also its `rv`). A kept span whose
// tracestate changed is a new row: the one that came may be seen by another pipeline.
import type { AnyValue } from '../../model/anyvalue.js';
import { keepRows } from '../../model/rewrite.js';
import type { SpanRow } from '../../model/traces.js';
import { fnvHashHex, hashRandomness } from './hash.js';
import { consistent, emptyTraceId, MISSING, RANDOMNESS_IN_USE, Report, THRESHOLD_IN_USE, shouldSample, type Carrier, type Extracted, type Randomness, type Sampler } from './sampler.js';
import { ALL_PROBABILITIES_RANDOMNESS, ALWAYS_SAMPLE, NEVER_SAMPLE, SamplingProblem, rValue } from './sampling.js';
import { parseTraceState, serializeTraceState, updateThreshold, type W3CTraceState } from './tracestate.js';


class TraceStateCarrier implements Carrier {
  constructor(readonly state: W3CTraceState) {}

  threshold(): bigint | undefined {
    return this.state.ot.tValue === '' ? undefined : this.state.ot.threshold;
  }

  randomness(): bigint | undefined {
    return this.state.ot.rValue === '' ? undefined : this.state.ot.randomness;
  }

  setRandomness(value: bigint): void {
    this.state.ot.randomness = value;
    this.state.ot.rValue = rValue(value);
  }

  clearThreshold(): void {
    this.state.ot.tValue = '';
    this.state.ot.threshold = ALWAYS_SAMPLE;
  }

  updateThreshold(threshold: bigint): boolean {
    return updateThreshold(this.state.ot, threshold);
  }
}

function extract(sampler: Sampler, row: SpanRow): Extracted<TraceStateCarrier> {
  const parsed = parseTraceState(row.traceState);
  const carrier = parsed instanceof SamplingProblem ? undefined : new TraceStateCarrier(parsed);
  const problem = parsed instanceof SamplingProblem ? { message: parsed.message, ordinary: false } : undefined;
  switch (sampler.kind) {
    case 'never':
      // The randomness is never used; one that every threshold keeps spares a "missing randomness".
      return { rnd: { value: ALL_PROBABILITIES_RANDOMNESS, policy: 'sampling_priority' }, carrier, problem };
    case 'hash_seed': {
      const rnd: Randomness = emptyTraceId(row.traceId) ? MISSING : { value: hashRandomness(fnvHashHex(row.traceId, sampler.seed)), policy: 'trace_id_hash' };
      if (carrier === undefined) return { rnd, carrier, problem };
      // OpenTelemetry sampling values already there are left alone: this mode is not theirs.
      if (carrier.randomness() !== undefined) return { rnd, carrier: undefined, problem: RANDOMNESS_IN_USE };
      if (carrier.threshold() !== undefined) return { rnd, carrier: undefined, problem: THRESHOLD_IN_USE };
      carrier.setRandomness(rnd.value);
      return { rnd, carrier, problem: undefined };
    }
    case 'equalizing':
    case 'proportional':
      return consistent(carrier, row.traceId, problem);
  }
}

/** The OpenTracing `sampling.priority` convention: above 0 keeps the span, 0 drops it, anything else leaves it to the sampler. */
function spanPriority(row: SpanRow): bigint | undefined {
  const value: AnyValue | undefined = row.attributes['sampling.priority'];
  let priority: number;
  if (typeof value === 'bigint') priority = value === 0n ? 0 : value > 0n ? 1 : -1;
  else if (typeof value === 'number') priority = value;
  else if (typeof value === 'string') priority = goParseFloatSign(value);
  else return undefined;
  if (priority === 0) return NEVER_SAMPLE;
  if (priority > 0) return ALWAYS_SAMPLE;
  return undefined;
}

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const HEX_FLOAT = /^[+-]?0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?\d+$/;
const SPECIAL = /^[+-]?(inf|infinity)$/i;

/** The sign of a number Go's strconv.ParseFloat reads (0, 1 or -1), NaN where it reads none or it overflows. */
function goParseFloatSign(text: string): number {
  if (SPECIAL.test(text)) return text.startsWith('-') ? -1 : 1;
  if (DECIMAL.test(text)) {
    const value = Number(text);
    return Number.isFinite(value) ? Math.sign(value) : Number.NaN;
  }
  if (HEX_FLOAT.test(text)) {
    const mantissa = text.replace(/^[+-]?0[xX]/, '').replace(/[pP].*$/, '');
    if (/^[0.]*$/.test(mantissa)) return 0;
    return text.startsWith('-') ? -1 : 1;
  }
  return Number.NaN;
}

/** The spans kept, in their order; the same array when all are kept unchanged. */
export function sampleSpans(rows: readonly SpanRow[], sampler: Sampler, failClosed: boolean, report: Report): readonly SpanRow[] {
  return keepRows(rows, (row) => {
    const x = extract(sampler, row);
    if (!shouldSample(x, sampler, failClosed, spanPriority(row), report)) return undefined;
    if (x.carrier === undefined) return row;
    const traceState = serializeTraceState(x.carrier.state);
    return traceState === row.traceState ? row : { ...row, traceState };
  });
}
