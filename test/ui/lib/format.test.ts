import { describe, expect, it } from 'vitest';
import { attributeText, formatDuration, formatNumber, formatTime, severityBand, spanKindName, spanStatusName } from '../../../ui/src/lib/format.js';
import { localInputToNanos, nanosToLocalInput, rangeFromParams, rangeToParams, resolveRange } from '../../../ui/src/lib/range.js';

describe('format', () => {
  it('writes a nanosecond time to the millisecond in the zone (UTC under vitest), none for 0', () => {
    expect(formatTime('1800000000123456789')).toBe('2027-01-15 08:00:00.123');
    expect(formatTime('0')).toBe('');
  });

  it('writes durations in the largest unit that keeps them at least 1', () => {
    expect([850n, 12_500n, 1_234_567n, 4_500_000_000n, 192_000_000_000n, 7_560_000_000_000n, 0n].map((n) => formatDuration(n))).toEqual([
      '850 ns',
      '12.5 µs',
      '1.23 ms',
      '4.5 s',
      '3.2 min',
      '2.1 h',
      '0 ns',
    ]);
    expect(formatDuration('1000000')).toBe('1 ms');
  });

  it('bands severity numbers by four', () => {
    expect([0, 1, 4, 5, 9, 12, 13, 17, 21, 24, 25, -1].map(severityBand)).toEqual([
      'unspecified',
      'trace',
      'trace',
      'debug',
      'info',
      'info',
      'warn',
      'error',
      'fatal',
      'fatal',
      'unspecified',
      'unspecified',
    ]);
  });

  it('names span kinds and status codes, and shows a number OTLP does not define as itself', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(spanKindName)).toEqual(['unspecified', 'internal', 'server', 'client', 'producer', 'consumer', 'kind 6']);
    expect([0, 1, 2, 3].map(spanStatusName)).toEqual(['unset', 'ok', 'error', 'status 3']);
  });

  it('writes a measured number: an integer in full, 3 decimals from 1 up, 6 significant digits below, nothing for none', () => {
    expect([57_671_680, 118.366666, 0.25, 2 / 60, -1.5, 1e-7, Number.POSITIVE_INFINITY, 0].map(formatNumber)).toEqual([
      '57671680',
      '118.367',
      '0.25',
      '0.0333333',
      '-1.5',
      '1e-7',
      'Infinity',
      '0',
    ]);
    expect([null, undefined, Number.NaN].map(formatNumber)).toEqual(['', '', '']);
  });

  it('writes an attribute value: a string as itself, anything else as its JSON text', () => {
    expect(['GET /', '', 42, true, null, ['a', 1], { k: 'v' }].map(attributeText)).toEqual(['GET /', '', '42', 'true', 'null', '["a",1]', '{"k":"v"}']);
  });
});

describe('range', () => {
  it('resolves a preset against now and a custom range as given', () => {
    expect(resolveRange({ preset: '15m' }, 1_800_000_000_000)).toEqual({ from: 1_799_999_100_000_000_000n, to: 1_800_000_000_000_000_000n });
    expect(resolveRange({ from: '5', to: '9' }, 0)).toEqual({ from: 5n, to: 9n });
  });

  it('reads and writes the URL: a preset as range (the default left out), custom as from/to', () => {
    expect(rangeFromParams(new URLSearchParams('range=24h'))).toEqual({ preset: '24h' });
    expect(rangeFromParams(new URLSearchParams('from=10&to=20&range=24h'))).toEqual({ from: '10', to: '20' });
    expect(rangeFromParams(new URLSearchParams('from=20&to=10'))).toEqual({ preset: '1h' });
    expect(rangeFromParams(new URLSearchParams('range=2y'))).toEqual({ preset: '1h' });
    const params = new URLSearchParams('from=1&to=2&service=web');
    rangeToParams({ preset: '7d' }, params);
    expect(params.toString()).toBe('service=web&range=7d');
    rangeToParams({ preset: '1h' }, params);
    expect(params.toString()).toBe('service=web');
    rangeToParams({ from: '3', to: '4' }, params);
    expect(params.toString()).toBe('service=web&from=3&to=4');
  });

  it('converts nanoseconds to a datetime-local value in the zone (UTC under vitest), in its normal form, and back, to the millisecond', () => {
    expect(nanosToLocalInput('1800000000123456789')).toBe('2027-01-15T08:00:00.123');
    expect(['1800000000120000000', '1800000007000000000', '1800000060000000000'].map(nanosToLocalInput)).toEqual(['2027-01-15T08:00:00.12', '2027-01-15T08:00:07', '2027-01-15T08:01']);
    expect(localInputToNanos('2027-01-15T08:00:00.123')).toBe('1800000000123000000');
    expect(localInputToNanos('2027-01-15T08:00:07')).toBe('1800000007000000000');
    expect(localInputToNanos('2027-01-15T08:01')).toBe('1800000060000000000');
    expect(localInputToNanos('2027-01-15T08:00:00.5')).toBe('1800000000500000000');
    expect(localInputToNanos('0050-03-01T00:00')).toBe(String(BigInt(Date.parse('0050-03-01T00:00:00Z')) * 1_000_000n));
    expect(['', '2027-01-15', '2027-01-15 08:00', 'now', '2027-01-15T08:00:00.1234'].map(localInputToNanos)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });
});
