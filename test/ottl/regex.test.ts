// Regular expressions from configs: what RE2 would take and JavaScript's engine could take
// exponential time on runs in linear time, or is refused when it cannot; and which can match
// nothing, where JavaScript's replace() and Go's differ.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { neverMatchesEmpty, replaceAllMatches, safeRegex, UnsafeRegexError } from '../../src/ottl/regex.js';
import { ROOT } from '../helpers/cli.js';

/**
 * What the built safeRegex(pattern).test(text) gives, in a process of its own: a match that never
 * ends cannot be stopped in this one, so the child is stopped after 20 s (the answer takes
 * milliseconds) and the test fails naming what happened.
 */
function testedApart(pattern: string, text: string): string {
  const code = `import(${JSON.stringify(join(ROOT, 'dist', 'ottl', 'regex.js'))}).then((m) => console.log(m.safeRegex(${JSON.stringify(pattern)}).test(${JSON.stringify(text)})))`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8', timeout: 20_000 });
  return child.signal === null ? child.stdout.trim() : `stopped by ${child.signal}: still matching after 20 s`;
}

describe('regular expressions from a config', () => {
  it('match alternatives that overlap under a repetition on a crafted input without backtracking forever, as RE2', () => {
    // 2^64 ways to split the digits between \w and \d: a backtracking engine alone never returns.
    expect(testedApart('(\\w|\\d)+$', `${'1'.repeat(64)}!`)).toBe('false');
    expect(testedApart('^(a|aa)*$', `${'a'.repeat(64)}b`)).toBe('false');
    expect(safeRegex('(\\w|\\d)+$').test('12ab')).toBe(true);
  });

  it('refuses such an alternation with (?i), which only the backtracking engine can run', () => {
    expect(() => safeRegex('(?i)(\\w|\\d)+$')).toThrow(UnsafeRegexError);
    expect(() => safeRegex('(?i)(\\w|\\d)+$')).toThrow(
      '"(?i)(\\\\w|\\\\d)+$": with (?i), an alternation inside a repetition without an upper bound, such as (a|b)+, could take exponential time on some input; write the alternatives as one class ([ab]+), or bound the repetition',
    );
    expect(safeRegex('(?i)^(get|post) /(a|b){1,3}$').test('GET /ab')).toBe(true);
    expect(safeRegex('(?i)[ab]+').test('AB')).toBe(true);
  });

  it('knows which patterns can match nothing (a position, an optional part, an empty branch)', () => {
    const never = ['a', '/[0-9]+$', '^(DEBUG|TRACE) ', '[Bb]earer [A-Za-z0-9._~+/=-]+', 'a{2,}', '(ab|c)+', '\\bword\\b', '(?i)x?y', 'password=[^\\s]*'];
    const can = ['', '^', '$', '\\b', 'a*', 'a?', '(a|)', '(?:ab)?', 'a{0,3}', '(a*|b+)', '^$', '(?m)^'];
    expect(never.map((p) => neverMatchesEmpty(safeRegex(p, 'g')))).toEqual(never.map(() => true));
    expect(can.map((p) => neverMatchesEmpty(safeRegex(p, 'g')))).toEqual(can.map(() => false));
  });

  it('replaces as Go does with JavaScript\'s own replace() wherever a pattern never matches nothing', () => {
    const patterns = ['/[0-9]+$', '[0-9]+', 'ab|b', '\\bfoo\\b', '(?i)x+y', 'a.c', '^a', 'c$', '[^a]+', '\\s+'];
    fc.assert(
      fc.property(fc.constantFrom(...patterns), fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'x', 'Y', '1', '2', '/', ' ', 'foo', '\u{1F600}') }), (pattern, text) => {
        const regex = safeRegex(pattern, 'g');
        expect(neverMatchesEmpty(regex)).toBe(true);
        expect(text.replace(regex, '<r>')).toBe(replaceAllMatches(text, regex, () => '<r>'));
      }),
      { numRuns: 2000 },
    );
  });
});
