// Regular expressions from a config, compiled once. The Collector writes them in Go's RE2 syntax
// and runs them on RE2, which never backtracks; otelgate runs them on JavaScript's engine, which
// does. So a pattern is read as RE2 would read it where the two differ (leading flags such as
// (?i), (?P<name>...) groups, \A and \z), refused where otelgate would read it otherwise (\pL,
// \Q...\E, \x{...}, [[:alpha:]]) or where RE2 refuses it (lookarounds, backreferences), and
// refused when a repetition that has no upper bound holds another one, such as (a+)+ or (\w*x)*:
// those can take exponential time on a crafted input. Found by walking the pattern's syntax tree
// (ret, the parser safe-regex2 uses); counting only unbounded repetitions keeps (\.\d+)? and
// (\d{1,3}\.){3} allowed. Not found: an alternation of overlapping branches under a repetition,
// such as (\w|\d)+, which is as slow: V8's linear engine takes over such a match (below).
import v8 from 'node:v8';
import ret, { type Root, type Tokens } from 'ret';

// V8's linear-time engine takes over a match once it has backtracked 50,000 times, so a pattern the
// check below lets through but that backtracks badly anyway (alternatives that overlap under a
// repetition, such as (\w|\d)+) runs in linear time on a crafted input, as on RE2, instead of
// exponential. Process-wide, and set before any pattern of a config is compiled. A pattern with
// the i flag cannot run on that engine: for those an alternation under such a repetition is refused.
v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
v8.setFlagsFromString('--regexp-backtracks-before-fallback=50000');

// ret is CommonJS: its module.exports is the tokenizer, with `types` on it; its types describe an ES module.
const tokenizer = ret as unknown as typeof ret.tokenizer;
const { types } = ret;

export class UnsafeRegexError extends Error {}

const LOOKAROUNDS = (pattern: string) => `${JSON.stringify(pattern)}: lookarounds are not RE2 syntax, which the Collector's regular expressions are`;

const LEADING_FLAGS = /^\(\?([ims]+)\)/;

/** RE2's escapes that JavaScript reads otherwise, without the u flag: refused, never silently changed. */
const UNSUPPORTED_ESCAPES = new Set(['p', 'P', 'Q', 'E', 'C']);

/** The pattern with \A and \z as JavaScript writes them; throws for what otelgate cannot read as RE2 does. */
function translated(pattern: string, source: string): string {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    // ret reads lookbehinds as badly named groups; say what they are.
    if (c === '(' && (source.startsWith('(?<=', i) || source.startsWith('(?<!', i))) throw new UnsafeRegexError(LOOKAROUNDS(pattern));
    if (c === '[' && source.startsWith('[[:', i)) throw new UnsafeRegexError(`${JSON.stringify(pattern)}: POSIX classes such as [[:alpha:]] are not supported; write the class out, as [a-zA-Z]`);
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = source[i + 1] ?? '';
    if (UNSUPPORTED_ESCAPES.has(e) || (e === 'x' && source[i + 2] === '{')) throw new UnsafeRegexError(`${JSON.stringify(pattern)}: \\${e === 'x' ? 'x{...}' : e} is not supported in otelgate's regular expressions`);
    // JavaScript reads \k<name> as a backreference once the pattern names a group; RE2 has none.
    if (e === 'k') throw new UnsafeRegexError(`${JSON.stringify(pattern)}: backreferences are not RE2 syntax, which the Collector's regular expressions are`);
    out += e === 'A' ? '^' : e === 'z' ? '$' : `\\${e}`;
    i++;
  }
  return out;
}

/** Unbounded repetitions nested in `token`, at most. Refuses what RE2 has not. */
function nesting(pattern: string, token: Root | Tokens): number {
  switch (token.type) {
    case types.ROOT:
    case types.GROUP: {
      if ('followedBy' in token && (token.followedBy === true || token.notFollowedBy === true)) {
        throw new UnsafeRegexError(LOOKAROUNDS(pattern));
      }
      const branches = token.options ?? [token.stack ?? []];
      return Math.max(0, ...branches.flat().map((child) => nesting(pattern, child)));
    }
    case types.REPETITION: {
      const inner = nesting(pattern, token.value);
      return token.max === null || token.max === Infinity ? inner + 1 : inner;
    }
    case types.REFERENCE:
      throw new UnsafeRegexError(`${JSON.stringify(pattern)}: backreferences are not RE2 syntax, which the Collector's regular expressions are`);
    default:
      return 0;
  }
}

/** Whether `token` has an alternation inside a repetition without an upper bound, such as (a|b)+. */
function alternationRepeated(token: Root | Tokens, repeated = false): boolean {
  switch (token.type) {
    case types.ROOT:
    case types.GROUP:
      if (repeated && (token.options?.length ?? 0) > 1) return true;
      return (token.options ?? [token.stack ?? []]).flat().some((child) => alternationRepeated(child, repeated));
    case types.REPETITION:
      return alternationRepeated(token.value, repeated || token.max === null || token.max === Infinity);
    default:
      return false;
  }
}

/** The fewest characters a match of `token` spans: none for a position (^, $, \b) or what may be left out. */
function minLength(token: Root | Tokens): number {
  switch (token.type) {
    case types.ROOT:
    case types.GROUP:
      return Math.min(...(token.options ?? [token.stack ?? []]).map((branch) => branch.reduce((sum, child) => sum + minLength(child), 0)));
    case types.REPETITION:
      return token.min * minLength(token.value);
    case types.POSITION:
    case types.REFERENCE:
      return 0;
    default:
      return 1;
  }
}

/**
 * Whether every match of `regex` (from safeRegex) has a character at least: then JavaScript's own
 * replace() with a replacement without `$` replaces what replaceAllMatches() does (they differ only
 * on empty matches), in V8's loop, without a match object a match.
 */
export function neverMatchesEmpty(regex: RegExp): boolean {
  return minLength(tokenizer(regex.source)) > 0;
}

/** `pattern` (RE2 syntax) as a JavaScript RegExp; throws UnsafeRegexError with a reason for one that cannot be used as written. */
export function safeRegex(pattern: string, extraFlags = ''): RegExp {
  let source = pattern.replace(/\(\?P</g, '(?<');
  let flags = extraFlags;
  const leading = LEADING_FLAGS.exec(source);
  if (leading !== null) {
    flags += [...new Set(leading[1])].filter((f) => !flags.includes(f)).join('');
    source = source.slice(leading[0].length);
  }
  source = translated(pattern, source);
  let regex: RegExp;
  try {
    regex = new RegExp(source, flags);
  } catch (error) {
    throw new UnsafeRegexError(`${JSON.stringify(pattern)} is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}`);
  }
  let tree: Root;
  try {
    tree = tokenizer(source);
  } catch (error) {
    throw new UnsafeRegexError(`${JSON.stringify(pattern)} is not RE2 syntax otelgate can read: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (nesting(pattern, tree) > 1) {
    throw new UnsafeRegexError(`${JSON.stringify(pattern)} could take exponential time on some input (a repetition without an upper bound inside another, such as (a+)+); write it without the nesting`);
  }
  if (flags.includes('i') && alternationRepeated(tree)) {
    throw new UnsafeRegexError(`${JSON.stringify(pattern)}: with (?i), an alternation inside a repetition without an upper bound, such as (a|b)+, could take exponential time on some input; write the alternatives as one class ([ab]+), or bound the repetition`);
  }
  return regex;
}

/**
 * `text` with every match of `regex` replaced by `replace(match)`, as Go's ReplaceAllString(Func)
 * does: an empty match right where the previous match ended is not one (JavaScript's replace
 * counts it, so `.*` would replace "abc" twice). `regex` must have the g flag.
 */
export function replaceAllMatches(text: string, regex: RegExp, replace: (match: RegExpExecArray) => string): string {
  let out = '';
  let at = 0;
  let previousEnd = -1;
  regex.lastIndex = 0;
  for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
    const start = m.index;
    const end = start + m[0].length;
    if (start === end) {
      // On by a character, as Go steps a rune: never between the halves of a surrogate pair.
      regex.lastIndex += (text.codePointAt(start) ?? 0) > 0xffff ? 2 : 1;
      if (start === previousEnd) continue;
    }
    out += text.slice(at, start) + replace(m);
    at = end;
    previousEnd = end;
  }
  return previousEnd === -1 ? text : out + text.slice(at);
}
