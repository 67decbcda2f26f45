import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/config/duration.js';

describe('parseDuration', () => {
  it.each([
    ['0', 0],
    ['5s', 5_000],
    ['500ms', 500],
    ['1m30s', 90_000],
    ['2h', 7_200_000],
    ['1.5s', 1_500],
    ['250us', 0.25],
    ['1000ns', 0.001],
    ['1h1m1s1ms', 3_661_001],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBeCloseTo(ms, 9);
  });

  it.each(['', '5', 's', '5 s', '5sec', '-5s', '1m30', 'five seconds'])('%j is not a duration', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});
