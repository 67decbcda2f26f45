// The W3C tracestate as the Collector's pkg/sampling reads and writes it: what parses, what is
// refused and with which message, and the order members are written back in.
import { describe, expect, it } from 'vitest';
import { probabilityToThreshold, tValue } from '../../../src/processors/probabilistic_sampler/sampling.js';
import { SamplingProblem } from '../../../src/processors/probabilistic_sampler/sampling.js';
import { parseTraceState, serializeTraceState, updateThreshold } from '../../../src/processors/probabilistic_sampler/tracestate.js';

const roundTrip = (input: string): string => {
  const parsed = parseTraceState(input);
  return parsed instanceof SamplingProblem ? `refused: ${parsed.message}` : serializeTraceState(parsed);
};

const members = (n: number): string => Array.from({ length: n }, (_, i) => `k${i}=v`).join(',');

describe('the tracestate', () => {
  it.each([
    ['', ''],
    ['vendor=x , \tother=y', 'vendor=x,other=y'],
    ['vendor=x,,ot=th:8', 'ot=th:8,vendor=x'],
    ['ot=k:v;th:80;rv:FD70A3D70A3D71', 'ot=rv:FD70A3D70A3D71;th:80;k:v'],
    ['tenant1@sys=a b', 'tenant1@sys=a b'],
    ['ot=x:1.5-_A', 'ot=x:1.5-_A'],
    [members(31), members(31)],
    [`${members(31)},`, members(31)],
    [members(32), 'refused: invalid tracestate size'],
    [`${'k'.repeat(257)}=v`, 'refused: invalid tracestate size'],
    [`${'a'.repeat(200)}=${'v'.repeat(256)},${'b'.repeat(200)}=${'v'.repeat(256)},${'c'.repeat(200)}=${'v'.repeat(200)}`, 'refused: invalid tracestate size'],
    // A W3C value holds at most 256 characters: a longer ot member is a syntax error before it is an OTel size error.
    [`ot=x:${'a'.repeat(260)}`, 'refused: invalid syntax'],
    ['Vendor=x', 'refused: invalid syntax'],
    ['vendor=', 'refused: invalid syntax'],
    ['vendor=x=y', 'refused: invalid syntax'],
    ['ot=th:8;', 'refused: invalid syntax'],
    ['ot=TH:8', 'refused: invalid syntax'],
    ['ot=th:8,ot=rv:abc', 'refused: r-value must have 14 hex digits'],
    ['ot=th:', 'refused: t-value is empty'],
    ['ot=th:0x8', 'refused: strconv.ParseUint: parsing "0x8": invalid syntax'],
  ])('%j is written back as %j', (input, output) => {
    expect(roundTrip(input)).toBe(output);
  });

  it('keeps a threshold that an update would lower, and writes a raised one without its trailing zeros', () => {
    const state = parseTraceState('ot=th:80000000000000') as Exclude<ReturnType<typeof parseTraceState>, SamplingProblem>;
    expect(updateThreshold(state.ot, 0n)).toBe(false);
    expect(serializeTraceState(state)).toBe('ot=th:80000000000000');
    expect(updateThreshold(state.ot, 0xc0000000000000n)).toBe(true);
    expect(serializeTraceState(state)).toBe('ot=th:c');
  });

  it('writes the thresholds of probabilities with the digits near 0 and 1 that the Collector adds', () => {
    const th = (p: number, precision: number): string => tValue(probabilityToThreshold(p, precision) as bigint);
    expect([th(0.5, 4), th(0.25, 4), th(0.01, 4), th(0.01, 3), th(0.4, 3), th(1, 4), th(2 ** -56, 4)]).toEqual(['8', 'c', 'fd70a', 'fd71', '99a', '0', 'ffffffffffffff']);
    expect(probabilityToThreshold(0, 4)).toBeUndefined();
    expect(probabilityToThreshold(2 ** -57, 4)).toBeUndefined();
  });
});
