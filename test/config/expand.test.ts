import { describe, expect, it } from 'vitest';
import { expandEnv, type ExpandProblem } from '../../src/config/expand.js';

const env = { PORT: '4318', HOST: 'localhost', EMPTY: '', FLAG: 'true', LIST: '[a, b]' };

function expand(value: unknown): { value: unknown; problems: ExpandProblem[] } {
  const problems: ExpandProblem[] = [];
  return { value: expandEnv(value, env, problems), problems };
}

describe('expandEnv', () => {
  it.each([
    ['${env:PORT}', 4318],
    ['${PORT}', 4318],
    ['${env:FLAG}', true],
    ['${env:HOST}:${env:PORT}', 'localhost:4318'],
    ['http://${HOST}:${PORT}/v1', 'http://localhost:4318/v1'],
    ['${env:MISSING:-7}', 7],
    ['${env:MISSING:-a b}', 'a b'],
    ['${env:EMPTY:-fallback}', 'fallback'],
    ['x-${env:MISSING:-def}', 'x-def'],
    ['$${env:PORT}', '${env:PORT}'],
    ['cost: $$5', 'cost: $5'],
    ['$PORT', '$PORT'],
    ['no references', 'no references'],
    ['${env:LIST}', ['a', 'b']],
  ])('%j expands to %j', (input, expected) => {
    const { value, problems } = expand(input);
    expect(value).toEqual(expected);
    expect(problems).toEqual([]);
  });

  it('walks maps and lists and reports the path of an unset variable as a warning', () => {
    const { value, problems } = expand({ exporters: { debug: { list: ['${env:NOPE}', 'ok'] } } });
    expect(value).toEqual({ exporters: { debug: { list: ['', 'ok'] } } });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ path: ['exporters', 'debug', 'list', 0], severity: 'warning' });
    expect(problems[0]?.message).toContain('NOPE is not set');
  });

  it('gives an unset or empty variable the empty string, as its warning says, also as a whole value', () => {
    for (const input of ['${env:NOPE}', '${NOPE}', '${env:EMPTY}', '${env:NOPE:-}']) expect(expand(input).value).toBe('');
    expect(expand('a${env:NOPE}b').value).toBe('ab');
    expect(expand('${env:NOPE}').problems.map((p) => p.message)).toEqual([
      'environment variable NOPE is not set; it expands to the empty string (set it, or give a default as ${env:NOPE:-default})',
    ]);
  });

  it('rejects providers other than env and malformed names', () => {
    const { problems } = expand({ a: '${file:/etc/passwd}', b: '${env:1BAD}' });
    expect(problems.map((p) => [p.path, p.severity])).toEqual([
      [['a'], 'error'],
      [['b'], 'error'],
    ]);
    expect(problems[0]?.message).toContain('unsupported config provider "file"');
  });

  it('leaves keys alone', () => {
    expect(expand({ '${env:HOST}': 1 }).value).toEqual({ '${env:HOST}': 1 });
  });
});
