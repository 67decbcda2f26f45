// The read API's parameters, parsed without a server: the row queries' as they were, and the
// aggregate paths' defaults (from a `now` the test gives), steps and durations in every form,
// limits, attribute matches, and each error with the parameter it names.
import { describe, expect, it } from 'vitest';
import { parseQuery, parseRead, parseView, QueryError, type View } from '../../src/query/params.js';

const S = 1_000_000_000n;
const HOUR = 3600n * S;
const NOW = 1_800_000_000_000_000_000n;

/** The QueryError a parse throws, as [parameter, message]. */
function refusal(parse: () => unknown): [string, string] {
  try {
    parse();
  } catch (error) {
    if (error instanceof QueryError) return [error.parameter, error.message];
    throw error;
  }
  throw new Error('no QueryError');
}

describe('parseQuery (the row paths)', () => {
  it('parses each filter, and defaults limit to 100', () => {
    expect(parseQuery('logs', [])).toEqual({ kind: 'rows', signal: 'logs', limit: 100 });
    expect(
      parseQuery('logs', [
        ['from', '5'],
        ['to', '2027-01-15T08:00:00Z'],
        ['service', 'web'],
        ['limit', '7'],
        ['severity_min', 'warn'],
        ['trace_id', 'abc'],
        ['q', 'x'],
      ]),
    ).toEqual({ kind: 'rows', signal: 'logs', from: 5n, to: 1_800_000_000_000_000_000n, service: 'web', limit: 7, severityMin: 13, traceId: 'abc', q: 'x' });
    expect(parseQuery('metrics', [['name', 'cpu']])).toEqual({ kind: 'rows', signal: 'metrics', limit: 100, name: 'cpu' });
  });

  it('leaves from and to unset when not given: the rows of all time', () => {
    expect(parseQuery('traces', [['limit', '1']])).toEqual({ kind: 'rows', signal: 'traces', limit: 1 });
  });

  it('names the parameter as the caller spells it', () => {
    expect(refusal(() => parseQuery('logs', [['severity_min', '0']], (n) => `--${n.replaceAll('_', '-')}`))[1]).toBe('--severity-min must be an integer from 1 to 24; got "0"');
  });
});

describe('parseView (the aggregate paths)', () => {
  it('reads the hour before now when neither from nor to is given, in 60 buckets', () => {
    expect(parseView('log_counts', [], NOW)).toEqual({ kind: 'log_counts', from: NOW - HOUR, to: NOW, step: 60n * S });
  });

  it('reads the hour before `to`, or from `from` to now', () => {
    expect(parseView('metric_names', [['to', '7200000000000']], NOW)).toEqual({ kind: 'metric_names', from: 3_600_000_000_000n, to: 7_200_000_000_000n, limit: 1000 });
    expect(parseView('metric_names', [['from', String(NOW - 5n)]], NOW)).toMatchObject({ from: NOW - 5n, to: NOW });
  });

  it('starts at the epoch when `to` is less than an hour after it', () => {
    expect(parseView('error_groups', [['to', '1000']], NOW)).toEqual({ kind: 'error_groups', from: 0n, to: 1000n, step: S, limit: 100 });
  });

  it.each([
    ['1 h', HOUR, 60n * S],
    ['61 s', 61n * S, 2n * S],
    ['60 s', 60n * S, S],
    ['1 ns', 1n, S],
    ['31 days', 31n * 24n * HOUR, 31n * 24n * 60n * S],
  ])('defaults step to the range / 60 rounded up to a whole second: %s', (_name, range, step) => {
    expect(parseView('log_counts', [['from', String(NOW - range)], ['to', String(NOW)]], NOW)).toMatchObject({ step });
  });

  it.each([
    ['30s', 30n * S],
    ['1m', 60n * S],
    ['1h', HOUR],
    ['1.5s', 1_500_000_000n],
    ['1m30s', 90n * S],
    ['250ms', 250_000_000n],
    ['3600000000', 3_600_000_000n],
    ['1h0m0.001s', HOUR + 1_000_000n],
  ])('takes step %s', (text, step) => {
    expect(parseView('log_counts', [['from', String(NOW - 60n * S)], ['to', String(NOW)], ['step', text]], NOW)).toMatchObject({ step });
  });

  it('takes a step of exactly 1000 buckets, and refuses one of 1001, naming step and its smallest', () => {
    expect(parseView('log_counts', [['step', '3.6s']], NOW)).toMatchObject({ step: 3_600_000_000n });
    expect(refusal(() => parseView('log_counts', [['step', '3599999999']], NOW))).toEqual([
      'step',
      'step 3599999999 makes 1001 buckets of the range from from to to, more than 1000: give a step of at least 3600000000 ns, or a shorter range',
    ]);
  });

  it.each([
    ['250ms', 250_000_000n],
    ['1.5s', 1_500_000_000n],
    ['0', 0n],
    ['42', 42n],
    ['2h', 2n * HOUR],
    ['1µs', 1000n],
    ['1us', 1000n],
  ])('takes min_duration %s', (text, minDuration) => {
    expect(parseView('trace_summaries', [['min_duration', text]], NOW)).toMatchObject({ minDuration });
  });

  it.each([
    ['trace_summaries', { kind: 'trace_summaries', from: NOW - HOUR, to: NOW, errors: false, limit: 100 }],
    ['metric_names', { kind: 'metric_names', from: NOW - HOUR, to: NOW, limit: 1000 }],
    ['error_groups', { kind: 'error_groups', from: NOW - HOUR, to: NOW, step: 60n * S, limit: 100 }],
  ] as [View, object][])('%s: the defaults', (view, query) => {
    expect(parseView(view, [], NOW)).toEqual(query);
  });

  it('metric_series: name required; limit 100 and max_points 1000 by default', () => {
    expect(parseView('metric_series', [['name', 'cpu']], NOW)).toEqual({ kind: 'metric_series', from: NOW - HOUR, to: NOW, name: 'cpu', attributes: [], limit: 100, maxPoints: 1000 });
    expect(refusal(() => parseView('metric_series', [], NOW))).toEqual(['name', 'name is required here: the exact name of the metric whose series to read']);
  });

  it('trace_summaries: every filter', () => {
    expect(
      parseView(
        'trace_summaries',
        [
          ['service', 'web'],
          ['name', 'GET /'],
          ['min_duration', '1s'],
          ['errors', 'true'],
          ['limit', '1000'],
        ],
        NOW,
      ),
    ).toEqual({ kind: 'trace_summaries', from: NOW - HOUR, to: NOW, service: 'web', name: 'GET /', minDuration: S, errors: true, limit: 1000 });
  });

  it('log_counts: the /logs filters', () => {
    expect(
      parseView(
        'log_counts',
        [
          ['severity_min', 'error'],
          ['trace_id', 'req-1'],
          ['q', 'boom'],
        ],
        NOW,
      ),
    ).toMatchObject({ severityMin: 17, traceId: 'req-1', q: 'boom' });
  });

  it('attributes: each key with the JSON type of its value, keys with dots and quotes as they are', () => {
    expect(
      parseView('metric_series', [['name', 'm'], ['attributes', '{"http.route":"/a","code":200,"ratio":0.5,"ok":true,"no":false,"none":null,"list":[1,"x"],"map":{"k":1},"say \\"hi\\"":"x","__proto__":"p"}']], NOW),
    ).toMatchObject({
      attributes: [
        { key: 'http.route', type: 'text', value: '/a' },
        { key: 'code', type: 'number', value: 200 },
        { key: 'ratio', type: 'number', value: 0.5 },
        { key: 'ok', type: 'true' },
        { key: 'no', type: 'false' },
        { key: 'none', type: 'null' },
        { key: 'list', type: 'array', value: '[1,"x"]' },
        { key: 'map', type: 'object', value: '{"k":1}' },
        { key: 'say "hi"', type: 'text', value: 'x' },
        { key: '__proto__', type: 'text', value: 'p' },
      ],
    });
  });

  it.each([
    ['log_counts', [['step', '0']], 'step', 'step must be a duration of more than 0 (30s, 1m, 1h) or nanoseconds; got "0"'],
    ['log_counts', [['step', '0s']], 'step', 'step must be a duration of more than 0 (30s, 1m, 1h) or nanoseconds; got "0s"'],
    ['log_counts', [['step', '1d']], 'step', 'step must be a duration of more than 0 (30s, 1m, 1h) or nanoseconds; got "1d"'],
    ['error_groups', [['step', '9'.repeat(400) + 'h']], 'step', `step must be a duration of more than 0 (30s, 1m, 1h) or nanoseconds; got "${'9'.repeat(400)}h"`],
    ['trace_summaries', [['min_duration', '-1s']], 'min_duration', 'min_duration must be a duration (250ms, 1.5s) or nanoseconds; got "-1s"'],
    ['trace_summaries', [['min_duration', '3000000h']], 'min_duration', 'min_duration must be a duration (250ms, 1.5s) or nanoseconds; got "3000000h"'],
    ['trace_summaries', [['errors', 'TRUE']], 'errors', 'errors must be true or false; got "TRUE"'],
    ['metric_series', [['name', 'm'], ['attributes', '"x"']], 'attributes', 'attributes must be a JSON object of attribute values, like {"http.route":"/api"}; got ""x""'],
    ['metric_series', [['name', 'm'], ['attributes', JSON.stringify(Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, i])))]], 'attributes', 'attributes may name at most 32 attributes; got 33'],
    ['metric_series', [['name', 'm'], ['max_points', '1.5']], 'max_points', 'max_points must be an integer from 1 to 10000; got "1.5"'],
    ['metric_names', [['from', String(NOW - 31n * 24n * HOUR - 1n)]], 'from', 'from must be at most 31 days before to (now, when not given)'],
    ['metric_names', [['from', '0'], ['to', String(31n * 24n * HOUR + 1n)]], 'from', 'from must be at most 31 days before to'],
    ['metric_names', [['from', String(NOW)]], 'from', 'from must be before now (the default to)'],
    ['metric_names', [['from', '5'], ['to', '5']], 'to', 'to must be after from'],
    ['metric_names', [['step', '1m']], 'step', 'unknown parameter step; known here: from, to, service, limit'],
    ['error_groups', [['limit', '5'], ['limit', '6']], 'limit', 'limit is given more than once'],
  ] as [View, [string, string][], string, string][])('%s %j: refused, naming %s', (view, entries, parameter, message) => {
    expect(refusal(() => parseView(view, entries, NOW))).toEqual([parameter, message]);
  });

  it('names parameters as the caller spells them', () => {
    expect(refusal(() => parseView('log_counts', [['step', '1ns']], NOW, (n) => `--${n}`))).toEqual([
      '--step',
      '--step 1ns makes 3600000000000 buckets of the range from --from to --to, more than 1000: give a step of at least 3600000000 ns, or a shorter range',
    ]);
  });
});

describe('parseRead', () => {
  it('parses a row path as parseQuery does, and an aggregate path with now', () => {
    expect(parseRead('spans', [['name', 'x']], NOW)).toEqual(parseQuery('traces', [['name', 'x']]));
    expect(parseRead('log_counts', [], NOW)).toEqual(parseView('log_counts', [], NOW));
  });

  it('has no other paths', () => {
    expect(() => parseRead('traces', [], NOW)).toThrow(RangeError);
  });
});
