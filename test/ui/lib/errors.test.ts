import { describe, expect, it } from 'vitest';
import { perBucket } from '../../../ui/src/lib/buckets.js';
import { groupLogFilters } from '../../../ui/src/lib/errors.js';
import { splitStack } from '../../../ui/src/lib/stack.js';

describe('perBucket', () => {
  it('spreads an answer’s non-zero buckets over its range, zeros between', () => {
    const answer = { step_nano: '60', from: '1000', to: '1300' };
    expect(
      perBucket(answer, [
        { time_unix_nano: '1000', count: 2 },
        { time_unix_nano: '1180', count: 1 },
      ]),
    ).toEqual([2, 0, 0, 1, 0]);
  });

  it('counts a last bucket cut short by the range’s end, and leaves out rows outside the range', () => {
    const answer = { step_nano: '60', from: '1000', to: '1130' };
    expect(
      perBucket(answer, [
        { time_unix_nano: '1120', count: 3 },
        { time_unix_nano: '940', count: 9 },
        { time_unix_nano: '1180', count: 9 },
      ]),
    ).toEqual([0, 0, 3]);
    expect(perBucket({ step_nano: '0', from: '0', to: '10' }, [])).toEqual([]);
  });
});

describe('splitStack', () => {
  it('takes the first line as the heading (a Python traceback’s last) and keeps every other line, indentation and all', () => {
    expect(splitStack('\nTypeError: x is undefined\n    at renderCart (/app.js:12:5)\r\n    at main (/app.js:3:1)\n\n')).toEqual({
      heading: 'TypeError: x is undefined',
      lines: ['    at renderCart (/app.js:12:5)', '    at main (/app.js:3:1)'],
    });
    expect(splitStack('Error: alone')).toEqual({ heading: 'Error: alone', lines: [] });
    expect(splitStack('Traceback (most recent call last):\n  File "app.py", line 3, in main\nValueError: bad\n')).toEqual({
      heading: 'ValueError: bad',
      lines: ['Traceback (most recent call last):', '  File "app.py", line 3, in main'],
    });
    expect(splitStack('')).toEqual({ heading: '', lines: [] });
  });
});

describe('groupLogFilters', () => {
  const group = (message: string, services: string[], body: string) => ({ exception_message: message, services, latest: { body } });

  it('looks for the exception message in the group’s one service', () => {
    expect(groupLogFilters(group('x is undefined', ['web'], 'TypeError: x is undefined'))).toEqual({ q: 'x is undefined', service: 'web' });
  });

  it('keeps every service of a group that has several, and looks for no whole body', () => {
    expect(groupLogFilters(group('x is undefined', ['checkout', 'web'], 'TypeError: x is undefined'))).toEqual({ q: 'x is undefined' });
    expect(groupLogFilters(group('', ['web'], 'TypeError at /very/long/path with every detail of this one event'))).toEqual({ service: 'web' });
    expect(groupLogFilters(group('not in the body', [], 'something else'))).toEqual({});
    expect(groupLogFilters(group('x', [''], 'x'))).toEqual({ q: 'x' });
  });
});
