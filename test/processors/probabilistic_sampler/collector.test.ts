// The sampler against the Collector's own test tables (processor/probabilisticsamplerprocessor/
// tracesprocessor_test.go and logsprocessor_test.go, opentelemetry-collector-contrib): the same
// settings and items must give the same decisions, tracestates and attributes. The Collector's
// tests build Config{} without its defaults (fail_closed false, sampling_precision 0, which is 14
// digits): `collectorSettings` does the same.
import { describe, expect, it } from 'vitest';
import type { AnyValue } from '../../../src/model/anyvalue.js';
import type { LogRow } from '../../../src/model/logs.js';
import type { SpanRow } from '../../../src/model/traces.js';
import { fnvHash, hashRandomness } from '../../../src/processors/probabilistic_sampler/hash.js';
import { sampleLogs } from '../../../src/processors/probabilistic_sampler/logs.js';
import { makeSampler, Report, type Mode, type SamplerSettings } from '../../../src/processors/probabilistic_sampler/sampler.js';
import { rValue } from '../../../src/processors/probabilistic_sampler/sampling.js';
import { sampleSpans } from '../../../src/processors/probabilistic_sampler/spans.js';
import { attrs, logRow, spanBatch } from '../../helpers/rows.js';
import { HASHED_AT_50_PERCENT } from './collector-cases.js';

interface CollectorConfig {
  pct: number;
  mode?: Mode;
  seed?: number;
  precision?: number;
  source?: 'traceID' | 'record';
  from?: string;
  priority?: string;
  failClosed?: boolean;
}

const collectorSettings = (c: CollectorConfig): SamplerSettings => ({
  percent: Math.fround(c.pct),
  mode: c.mode ?? 'hash_seed',
  hashSeed: c.seed ?? 0,
  precision: c.precision === undefined || c.precision === 0 ? 14 : c.precision,
  attributeSource: c.source ?? 'traceID',
  fromAttribute: c.from ?? '',
});

const BASE_SPAN = spanBatch().rows[0] as SpanRow;
const span = (traceId: string, traceState = '', attributes: Record<string, AnyValue> = {}): SpanRow => ({ ...BASE_SPAN, traceId, traceState, attributes: attrs(attributes) });

function spans(c: CollectorConfig, rows: readonly SpanRow[]): { kept: readonly SpanRow[]; report: Report } {
  const report = new Report();
  const settings = collectorSettings(c);
  return { kept: sampleSpans(rows, makeSampler(settings), c.failClosed ?? false, report), report };
}

function logs(c: CollectorConfig, rows: readonly LogRow[]): { kept: readonly LogRow[]; report: Report } {
  const report = new Report();
  const settings = collectorSettings(c);
  const s = { sampler: makeSampler(settings), failClosed: c.failClosed ?? false, priorityAttribute: c.priority ?? '', precision: settings.precision };
  return { kept: sampleLogs(rows, s, report), report };
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('the hash of hash_seed mode', () => {
  it('is the Collector\'s FNV-1a of the seed and the bytes (TestEmptyHashFunction)', () => {
    expect(fnvHash(new Uint8Array(0), 0) & 0x3fff).toBe(0x3515);
    expect(fnvHash(new Uint8Array(16), 0) & 0x3fff).toBe(0x2455);
  });

  it('keeps at 50 percent exactly the trace ids the Collector keeps, seed by seed (TestHashingFunction, 100 cases)', () => {
    const decided = HASHED_AT_50_PERCENT.map(([seed, traceId]) => spans({ pct: 50, seed }, [span(traceId)]).kept.length === 1);
    expect(decided).toEqual(HASHED_AT_50_PERCENT.map(([, , sampled]) => sampled));
    expect(decided.filter(Boolean)).toHaveLength(47);
  });

  it('writes ot=rv and th on the spans it keeps, th as 14-bit rounding gives it (TestHashSeedTraceState)', () => {
    const traceIds = Array.from({ length: 400 }, (_, i) => hex(Buffer.from(Array.from({ length: 16 }, (_, j) => (i * 131 + j * 17 + ((i * j) % 251)) & 0xff))));
    for (const [pct, th] of [
      [100, '0'],
      [75, '4'],
      [50, '8'],
      [25, 'c'],
      [10, 'e668'],
      [100 / 3, 'aaac'],
    ] as const) {
      const { kept } = spans({ pct, seed: 4312, precision: 4 }, traceIds.map((id) => span(id)));
      expect(kept.length).toBeGreaterThan(9);
      for (const row of kept) {
        const [, rv, t] = /^ot=rv:([0-9a-f]{14});th:([0-9a-f]+)$/.exec(row.traceState) ?? [];
        expect(t).toBe(th);
        expect(BigInt(`0x${(t as string).padEnd(14, '0')}`) <= BigInt(`0x${rv as string}`)).toBe(true);
      }
    }
  });
});

describe('spans in the consistent modes, as the Collector\'s Test_tracesamplerprocessor_TraceState', () => {
  const DEFAULT_TID = 'fefefefefefefefefe80000000000000';
  const IMPROBABLE = '111111111111111111ffffffffffffff';
  type Expect = string | false;
  // name, config, trace id, tracestate, attributes, kept tracestate (false: dropped) in equalizing and in proportional mode.
  const cases: [string, CollectorConfig, string, string, Record<string, AnyValue>, Expect, Expect][] = [
    ['100 percent', { pct: 100 }, DEFAULT_TID, '', {}, 'ot=th:0', 'ot=th:0'],
    ['50 percent sampled', { pct: 50 }, DEFAULT_TID, '', {}, 'ot=th:8', 'ot=th:8'],
    ['25 percent sampled', { pct: 25 }, 'ddddddddddddddddddc0000000000000', '', {}, 'ot=th:c', 'ot=th:c'],
    ['25 percent unsampled', { pct: 25 }, 'ddddddddddddddddddb0000000000000', '', {}, false, false],
    ['1 percent sampled', { pct: 1 }, DEFAULT_TID, 'ot=rv:FD70A3D70A3D71', {}, 'ot=rv:FD70A3D70A3D71;th:fd70a3d70a3d71', 'ot=rv:FD70A3D70A3D71;th:fd70a3d70a3d71'],
    ['1 percent sampled with rvalue and precision 4', { pct: 1, precision: 4 }, DEFAULT_TID, 'ot=rv:FD70A3D70A3D71', {}, 'ot=rv:FD70A3D70A3D71;th:fd70a', 'ot=rv:FD70A3D70A3D71;th:fd70a'],
    ['1 percent sampled with rvalue and precision 3', { pct: 1, precision: 3 }, DEFAULT_TID, 'ot=rv:FD70A3D70A3D71', {}, false, false],
    ['1 percent not sampled with rvalue', { pct: 1 }, DEFAULT_TID, 'ot=rv:FD70A3D70A3D70', {}, false, false],
    ['49 percent not sampled with default tid', { pct: 49 }, DEFAULT_TID, '', {}, false, false],
    ['1 percent sampled with rvalue', { pct: 1 }, DEFAULT_TID, 'ot=rv:fd70B000000000', {}, 'ot=rv:fd70B000000000;th:fd70a3d70a3d71', 'ot=rv:fd70B000000000;th:fd70a3d70a3d71'],
    ['1 percent sampled with tid', { pct: 1, precision: 4 }, 'a0a0a0a0a0a0a0a0a0fe000000000000', '', {}, 'ot=th:fd70a', 'ot=th:fd70a'],
    ['sampled by priority', { pct: 1 }, DEFAULT_TID, '', { 'sampling.priority': 2n }, 'ot=th:0', 'ot=th:0'],
    ['not sampled by priority', { pct: 99 }, DEFAULT_TID, '', { 'sampling.priority': 0n }, false, false],
    ['incoming 50 percent with rvalue', { pct: 50 }, DEFAULT_TID, 'ot=rv:90000000000000;th:80000000000000', {}, 'ot=rv:90000000000000;th:8', false],
    ['incoming 50 percent at 25 percent not sampled', { pct: 25 }, DEFAULT_TID, 'ot=th:8', {}, false, false],
    ['incoming 50 percent at 25 percent sampled', { pct: 25 }, 'ffffffffffffffffffffffffffffffff', 'ot=th:8', {}, 'ot=th:c', 'ot=th:e'],
    ['equalizing vs proportional', { pct: 50 }, DEFAULT_TID, 'ot=rv:c0000000000000;th:8', {}, 'ot=rv:c0000000000000;th:8', 'ot=rv:c0000000000000;th:c'],
    ['inconsistent arriving threshold', { pct: 100 }, DEFAULT_TID, 'ot=rv:40000000000000;th:8', {}, 'ot=rv:40000000000000;th:0', 'ot=rv:40000000000000;th:0'],
    ['inconsistent arriving threshold not sampled', { pct: 1, failClosed: true }, DEFAULT_TID, 'ot=rv:40000000000000;th:8', {}, false, false],
    ['40 percent precision 3 with rvalue', { pct: 40, precision: 3 }, DEFAULT_TID, 'ot=rv:a0000000000000', {}, 'ot=rv:a0000000000000;th:99a', 'ot=rv:a0000000000000;th:99a'],
    ['arriving 50 percent sampled at 40 percent precision 6 with tid', { pct: 40, precision: 6 }, 'a0a0a0a0a0a0a0a0a0d0000000000000', 'ot=th:8', {}, 'ot=th:99999a', 'ot=th:cccccd'],
    ['arriving 50 percent sampled at 40 percent partly sampled', { pct: 40, precision: 3 }, 'a0a0a0a0a0a0a0a0a0b0000000000000', 'ot=th:8', {}, 'ot=th:99a', false],
    ['arriving 50 percent sampled at 40 percent not sampled', { pct: 40, precision: 3 }, 'a0a0a0a0a0a0a0a0a080000000000000', 'ot=th:8', {}, false, false],
    ['200 percent equals 100 percent', { pct: 200 }, DEFAULT_TID, '', {}, 'ot=th:0', 'ot=th:0'],
    ['tiny probability rounding', { pct: 100 * 2 ** -14 }, IMPROBABLE, 'ot=th:fffc', {}, 'ot=th:fffc', 'ot=th:fffffff'],
    ['almost 100pct sampling', { pct: (1 - 8e-7) * 100, precision: 10 }, IMPROBABLE, '', {}, 'ot=th:00000cccccccd', 'ot=th:00000cccccccd'],
    ['probability underflow', { pct: 2 ** -4 }, IMPROBABLE, 'ot=th:fffffffffffff8', {}, 'ot=th:fffffffffffff8', false],
  ];

  it.each(cases)('%s', (_name, config, traceId, traceState, attributes, equalizing, proportional) => {
    for (const [mode, expected] of [
      ['equalizing', equalizing],
      ['proportional', proportional],
    ] as const) {
      const { kept } = spans({ ...config, mode, seed: 4312 }, [span(traceId, traceState, attributes)]);
      expect(kept.map((row) => row.traceState), mode).toEqual(expected === false ? [] : [expected]);
    }
  });

  it.each([
    ['missing randomness', '00000000000000000000000000000000', '', 'missing randomness'],
    ['invalid r-value', DEFAULT_TID, 'ot=rv:abababababababab', 'r-value must have 14 hex digits'],
    ['invalid t-value', DEFAULT_TID, 'ot=th:abababababababab', 't-value exceeds 14 hex digits'],
    ['t-value syntax', DEFAULT_TID, 'ot=th:-1', 'invalid syntax'],
    ['inconsistent t-value trace ID', 'ffffffffffffffffff70000000000000', 'ot=th:8', 'inconsistent arriving threshold'],
    ['inconsistent t-value r-value', DEFAULT_TID, 'ot=th:8;rv:70000000000000', 'inconsistent arriving threshold'],
  ])('fail_closed drops a span with %s (Test_tracesamplerprocessor_TraceStateErrors)', (_name, traceId, traceState, message) => {
    for (const mode of ['equalizing', 'proportional'] as const) {
      const { kept, report } = spans({ pct: 100, mode, failClosed: true }, [span(traceId, traceState)]);
      expect(kept).toEqual([]);
      expect(report.first).toContain(message);
    }
  });
});

describe('spans without randomness and with sampling.priority', () => {
  it.each([
    [0, true, false],
    [62, true, false],
    [100, true, false],
    [0, false, false],
    [62, false, true],
    [100, false, true],
  ])('at %d percent with fail_closed %s, a span without trace id is kept: %s (Test_tracessamplerprocessor_MissingRandomness)', (pct, failClosed, sampled) => {
    const { kept, report } = spans({ pct, seed: 4312, failClosed }, [span('')]);
    expect(kept).toHaveLength(sampled ? 1 : 0);
    expect(report.first).toBe(pct === 0 ? undefined : 'missing randomness');
  });

  it.each([
    [0, 2n, true],
    [0, 1, true],
    [0, '1', true],
    [100, 0n, false],
    [100, 0, false],
    [100, '0', false],
    [100, '0.0', false],
    [0, '0.5', true],
    [100, '-0.5', true],
    [100, 'NaN', true],
    [0, 'inf', true],
    [100, '0x0p+0', false],
    [100, -1n, true],
  ] as const)('at %d percent, sampling.priority %s keeps the span: %s, in every mode (Test_tracesamplerprocessor_SpanSamplingPriority)', (pct, priority, sampled) => {
    for (const mode of ['hash_seed', 'equalizing', 'proportional'] as const) {
      const { kept } = spans({ pct, mode, seed: 4312 }, [span('01000000000000000000000000000000', '', { 'sampling.priority': priority })]);
      expect(kept.length, mode).toBe(sampled ? 1 : 0);
    }
  });
});

describe('log records, as the Collector\'s logsprocessor_test.go', () => {
  /** TestLogsSampling's 100 records: trace id 8 zero bytes then 8 times i, rando, foo and bar on even ones, priority on every 4th. */
  const RECORDS: LogRow[] = Array.from({ length: 100 }, (_, i) => {
    const traceId = new Uint8Array(16).fill(i, 8);
    const values: Record<string, AnyValue> = { rando: BigInt(fnvHash(traceId, 123)) };
    // bar is pdata's TraceID.String(): '' for the all-zero id.
    if (i % 2 === 0) Object.assign(values, { foo: traceId, bar: i === 0 ? '' : hex(traceId) });
    if (i % 4 === 0) values['priority'] = 100;
    return { ...logRow(i), traceId: hex(traceId), attributes: attrs(values) };
  });

  it.each([
    ['happy_path', { pct: 100 }, 100],
    ['nothing', { pct: 0, failClosed: true }, 0],
    ['roughly half', { pct: 50, source: 'traceID', mode: 'hash_seed', failClosed: true }, 45],
    ['sampling_source no sampling', { pct: 0, source: 'record', from: 'foo' }, 0],
    ['sampling_source all sampling', { pct: 100, source: 'record', from: 'foo' }, 100],
    ['sampling_source sampling', { pct: 50, source: 'record', from: 'foo', failClosed: true }, 23],
    ['sampling_source sampling as string', { pct: 50, source: 'record', from: 'bar', failClosed: true }, 29],
    ['sampling_priority_0_record', { pct: 0, priority: 'priority', source: 'record', from: 'rando' }, 25],
    ['sampling_priority_50_record', { pct: 50, priority: 'priority', source: 'record', from: 'rando' }, 64],
    ['sampling_priority_100_record', { pct: 100, priority: 'priority', source: 'record', from: 'rando' }, 100],
    ['sampling_priority_0_traceid', { pct: 0, priority: 'priority', source: 'traceID' }, 25],
    ['sampling_priority_50_traceid', { pct: 50, priority: 'priority', source: 'traceID' }, 57],
    ['sampling_priority_100_traceid', { pct: 100, priority: 'priority', source: 'traceID' }, 100],
    ['sampling_priority with sampling field', { pct: 0, source: 'record', from: 'foo', priority: 'priority' }, 25],
  ] as [string, CollectorConfig, number][])('%s keeps as many of 100 as the Collector (TestLogsSampling)', (_name, config, received) => {
    expect(logs(config, RECORDS).kept).toHaveLength(received);
  });

  const DEFAULT_TID = 'fefefefefefefefefe80000000000000';
  const record = (traceId: string, values: Record<string, AnyValue>): LogRow => ({ ...logRow(0), traceId, attributes: attrs(values) });
  const tidBytes = Buffer.from(DEFAULT_TID, 'hex');

  it.each([
    ['100 percent traceID', { pct: 100, mode: 'proportional' }, DEFAULT_TID, { ignored: 'value' }, { 'sampling.threshold': '0', ignored: 'value' }, undefined],
    ['100 percent traceID hash_seed', { pct: 100, mode: 'hash_seed', seed: 22 }, DEFAULT_TID, { K: 'V' }, { K: 'V', 'sampling.threshold': '0', 'sampling.randomness': rValue(hashRandomness(fnvHash(tidBytes, 22))) }, undefined],
    ['100 percent attribute', { pct: 100, source: 'record', from: 'veryrandom', seed: 49 }, '', { veryrandom: '1234' }, { 'sampling.threshold': '0', 'sampling.randomness': rValue(hashRandomness(fnvHash(Buffer.from('1234'), 49))), veryrandom: '1234' }, undefined],
    ['0 percent traceID', { pct: 0 }, DEFAULT_TID, {}, false, undefined],
    ['10 percent priority sampled incoming randomness', { pct: 0, priority: 'veryrandom', precision: 6 }, DEFAULT_TID, { 'sampling.randomness': 'e6147c00000000', veryrandom: 10.125 }, { 'sampling.randomness': 'e6147c00000000', 'sampling.threshold': 'e6147b', veryrandom: 10.125 }, undefined],
    ['25 percent incoming', { pct: 50, mode: 'proportional' }, 'fefefefefefefefefef0000000000000', { 'sampling.threshold': 'c' }, { 'sampling.threshold': 'e' }, undefined],
    ['25 percent arriving inconsistent', { pct: 50, mode: 'equalizing', failClosed: true }, 'fefefefefefefefefeb0000000000000', { 'sampling.threshold': 'c' }, false, 'inconsistent arriving threshold'],
    ['25 percent arriving equalizing', { pct: 50, mode: 'equalizing', priority: 'prio' }, 'fefefefefefefefefefefefefefefefe', { 'sampling.threshold': 'c', prio: 37n }, { 'sampling.threshold': 'c', prio: 37n }, 'cannot raise existing sampling probability'],
    ['hash_seed with spec randomness', { pct: 100, mode: 'hash_seed' }, DEFAULT_TID, { 'sampling.randomness': 'f2341234123412' }, { 'sampling.randomness': 'f2341234123412' }, 'item has sampling randomness'],
  ] as [string, CollectorConfig, string, Record<string, AnyValue>, Record<string, AnyValue> | false, string | undefined][])('%s (TestLogsSamplingState)', (_name, config, traceId, values, expected, problem) => {
    const { kept, report } = logs(config, [record(traceId, values)]);
    expect(kept.map((row) => ({ ...row.attributes }))).toEqual(expected === false ? [] : [expected]);
    if (problem === undefined) expect(report.first).toBeUndefined();
    else expect(report.first).toContain(problem);
  });

  it.each(['hash_seed', 'equalizing', 'proportional'] as const)('%s: a record without randomness is kept only when fail_closed is false and the percentage is not 0 (TestLogsMissingRandomness)', (mode) => {
    for (const source of ['record', 'traceID'] as const) {
      for (const [pct, failClosed, sampled] of [
        [0, true, false],
        [50, true, false],
        [100, true, false],
        [0, false, false],
        [50, false, true],
        [100, false, true],
      ] as const) {
        const { kept, report } = logs({ pct, mode, seed: 4312, failClosed, source, from: 'unused' }, [record('', { unused: '' })]);
        expect(kept.length, `${source} ${pct} ${failClosed}`).toBe(sampled ? 1 : 0);
        expect(report.first).toBe(pct === 0 ? undefined : 'missing randomness');
      }
    }
  });
});
