// ConvertCase: lower and upper as Go's strings package, snake and camel as github.com/iancoleman/strcase
// v0.3.0 (which the Collector uses) computes them: over the UTF-8 bytes, ASCII letters and digits
// only, acronyms as words (CPUUtilization is cpu_utilization), and no acronyms configured.
import { get, stringOf, type Converter } from './arguments.js';
import { isDigitCode } from './chars.js';

const isUpper = (b: number): boolean => b >= 65 && b <= 90;
const isLower = (b: number): boolean => b >= 97 && b <= 122;
const isSeparator = (b: number): boolean => b === 32 || b === 95 || b === 45 || b === 46;
const UNDERSCORE = 95;

/** strcase.ToSnake. */
function toSnake(text: string): string {
  const s = Buffer.from(text.trim(), 'utf8');
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const original = s[i] as number;
    const upper = isUpper(original);
    const lower = isLower(original);
    const v = upper ? original + 32 : original;
    const next = s[i + 1];
    if (next !== undefined) {
      const digit = isDigitCode(v);
      const changes = (upper && (isLower(next) || isDigitCode(next))) || (lower && (isUpper(next) || isDigitCode(next))) || (digit && (isUpper(next) || isLower(next)));
      if (changes) {
        // A capital that starts a word after an acronym (the U of CPUUtilization) begins a new word.
        if (upper && isLower(next) && i > 0 && isUpper(s[i - 1] as number)) out.push(UNDERSCORE);
        out.push(v);
        if (lower || digit || isDigitCode(next)) out.push(UNDERSCORE);
        continue;
      }
    }
    out.push(isSeparator(v) ? UNDERSCORE : v);
  }
  return Buffer.from(out).toString('utf8');
}

/** strcase.ToCamel: a capital at the start and after a separator or a digit; what is neither letter nor digit is dropped. */
function toCamel(text: string): string {
  const s = Buffer.from(text.trim(), 'utf8');
  const out: number[] = [];
  let capNext = true;
  let prevIsCap = false;
  for (let i = 0; i < s.length; i++) {
    let v = s[i] as number;
    const upper = isUpper(v);
    const lower = isLower(v);
    if (capNext) {
      if (lower) v -= 32;
    } else if (prevIsCap && upper) {
      v += 32;
    }
    prevIsCap = upper;
    if (upper || lower) {
      out.push(v);
      capNext = false;
    } else if (isDigitCode(v)) {
      out.push(v);
      capNext = true;
    } else {
      capNext = isSeparator(v);
    }
  }
  return Buffer.from(out).toString('utf8');
}

const CASES: Readonly<Record<string, (text: string) => string>> = {
  lower: (text) => text.toLowerCase(),
  upper: (text) => text.toUpperCase(),
  snake: toSnake,
  camel: toCamel,
};

export const CASE_CONVERTERS: Readonly<Record<string, Converter>> = {
  ConvertCase: {
    params: [
      { name: 'target', kind: 'value' },
      { name: 'toCase', kind: 'literal string' },
    ],
    bind([target, toCase]) {
      const change = Object.hasOwn(CASES, toCase as string) ? CASES[toCase as string] : undefined;
      if (change === undefined) throw new Error(`invalid case: ${toCase as string}, allowed cases are: lower, upper, snake, camel`);
      return (ctx) => {
        const text = stringOf(get(target)(ctx), 'ConvertCase');
        return text === '' ? text : change(text);
      };
    },
  },
};
