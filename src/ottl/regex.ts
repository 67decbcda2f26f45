// Regular expressions from a config, compiled once: the Collector writes them in Go's RE2 syntax,
// which JavaScript reads alike except for leading flags ((?i), (?s), (?m)) and (?P<name>...)
// groups, translated here. RE2 never backtracks; JavaScript does, so a pattern that could take
// exponential time on some input (nested quantifiers, such as (a+)+) is refused at load
// (safe-regex2) rather than risked on every record.
import safeRegexCheck from 'safe-regex2';

export class UnsafeRegexError extends Error {}

const LEADING_FLAGS = /^\(\?([ims]+)\)/;
const FLAGS_ANYWHERE = /\(\?[a-zA-Z]*[-:)]/;

/** `pattern` (RE2 syntax) as a JavaScript RegExp; throws UnsafeRegexError with a reason for one that cannot be compiled safely. */
export function safeRegex(pattern: string, extraFlags = ''): RegExp {
  let source = pattern.replace(/\(\?P</g, '(?<');
  let flags = extraFlags;
  const leading = LEADING_FLAGS.exec(source);
  if (leading !== null) {
    flags += [...new Set(leading[1])].filter((f) => !flags.includes(f)).join('');
    source = source.slice(leading[0].length);
  }
  if (FLAGS_ANYWHERE.test(source.replace(/\(\?(<[A-Za-z_]|[:=!]|<[=!])/g, ''))) throw new UnsafeRegexError(`${JSON.stringify(pattern)}: flags are only supported at the start of a pattern, as (?i)`);
  let regex: RegExp;
  try {
    regex = new RegExp(source, flags);
  } catch (error) {
    throw new UnsafeRegexError(`${JSON.stringify(pattern)} is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!safeRegexCheck(regex)) throw new UnsafeRegexError(`${JSON.stringify(pattern)} could take exponential time on some input (a repetition inside a repetition, such as (a+)+); write it without nested repetition`);
  return regex;
}
