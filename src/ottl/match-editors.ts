// replace_match and replace_all_matches: a string that a glob pattern matches as a whole is
// replaced, as the Collector's; the replacement may first go through a converter given by name
// (SHA256) and then into a format ("prefix-%s").
import type { MutableAttributes } from '../model/anyvalue.js';
import { get, path, stringOf, type Bound, type FunctionArgument, type Getter, type Param } from './arguments.js';
import { EditorSettingsError, mapAt, writable, type Editor } from './editing.js';
import { OttlRuntimeError, quoted } from './errors.js';
import { compileGlob } from './glob.js';

const PARAMS: Param[] = [
  { name: 'pattern', kind: 'literal string' },
  { name: 'replacement', kind: 'value' },
  { name: 'function', kind: 'function', optional: true },
  { name: 'replacementFormat', kind: 'value', optional: true },
];

/** A verb of Go's fmt: flags, width, precision; the verb itself follows. */
const VERB = /%([-+# 0]*)(\d*)(?:\.(\d*))?/y;

/**
 * Go's fmt.Sprintf(format, arg) for one string argument, as the Collector formats the replacement:
 * %% is %, the first verb takes the argument (%s and %v as it is, %q quoted, %x and %X in hex, with
 * width, precision and the - and 0 flags; any other verb as %!d(string=...)), a verb after it is
 * %!s(MISSING), and an argument no verb took is appended as %!(EXTRA string=...).
 */
function sprintf(format: string, arg: string): string {
  let out = '';
  let used = false;
  let i = 0;
  while (i < format.length) {
    const at = format.indexOf('%', i);
    if (at < 0) {
      out += format.slice(i);
      break;
    }
    out += format.slice(i, at);
    VERB.lastIndex = at;
    const [spec, flags = '', width = '', precision] = VERB.exec(format) as RegExpExecArray;
    const verb = String.fromCodePoint(format.codePointAt(at + spec.length) ?? 0);
    i = at + spec.length + verb.length;
    if (at + spec.length === format.length) {
      out += '%!(NOVERB)';
      break;
    }
    if (verb === '%') {
      out += '%';
      continue;
    }
    if (used) {
      out += `%!${verb}(MISSING)`;
      continue;
    }
    used = true;
    let text: string;
    if (verb === 's' || verb === 'v') text = precision === undefined ? arg : [...arg].slice(0, Number(precision)).join('');
    else if (verb === 'q') text = JSON.stringify(arg);
    else if (verb === 'x' || verb === 'X') {
      const bytes = Buffer.from(arg, 'utf8');
      const hex = bytes.subarray(0, precision === undefined ? bytes.length : Number(precision)).toString('hex');
      text = verb === 'X' ? hex.toUpperCase() : hex;
    } else {
      out += `%!${verb}(string=${arg})`;
      continue;
    }
    const padding = Math.max(0, Number(width || '0') - [...text].length);
    const minus = flags.includes('-');
    out += minus ? text + ' '.repeat(padding) : (flags.includes('0') ? '0' : ' ').repeat(padding) + text;
  }
  return used ? out : `${out}%!(EXTRA string=${arg})`;
}

/** The replacement's text for a row: the replacement, or what the function makes of it, put into the format. */
function replacementFor(editor: string, replacement: Bound, fn: Bound, format: Bound): (ctx: never) => string {
  if (fn === undefined) return (ctx) => stringOf(get(replacement)(ctx), editor);
  let input = '';
  const apply = (fn as FunctionArgument)(() => input);
  return (ctx) => {
    input = stringOf(get(replacement)(ctx), editor);
    const hashed = apply(ctx);
    if (typeof hashed !== 'string') throw new OttlRuntimeError('replacement value is not a string');
    if (format === undefined) return hashed;
    const template = stringOf((format as Getter)(ctx), editor);
    if (!template.includes('%s')) throw new OttlRuntimeError(`replacementFormat must be format string containing a single %s and no other directives: ${quoted(template)}`);
    return sprintf(template, hashed);
  };
}

function globOf(editor: string, pattern: Bound): (text: string) => boolean {
  try {
    return compileGlob(pattern as string);
  } catch (error) {
    throw new EditorSettingsError(`the pattern supplied to ${editor} is not a valid pattern: ${(error as Error).message}`);
  }
}

export const MATCH_EDITORS: Readonly<Record<string, Editor>> = {
  replace_match: {
    params: [{ name: 'target', kind: 'path' }, ...PARAMS],
    bind([target, pattern, replacement, fn, format]) {
      const matches = globOf('replace_match', pattern);
      const replacementText = replacementFor('replace_match', replacement, fn, format);
      return (ctx) => {
        const text = replacementText(ctx);
        const value = path(target).get(ctx);
        if (typeof value === 'string' && matches(value) && value !== text) path(target).set(ctx, text);
      };
    },
  },
  replace_all_matches: {
    params: [{ name: 'target', kind: 'path' }, ...PARAMS],
    bind([target, pattern, replacement, fn, format]) {
      const matches = globOf('replace_all_matches', pattern);
      const replacementText = replacementFor('replace_all_matches', replacement, fn, format);
      return (ctx) => {
        const map = mapAt(path(target), ctx, 'replace_all_matches');
        const text = replacementText(ctx);
        let out: MutableAttributes | undefined;
        for (const key of Object.keys(map)) {
          const value = map[key];
          if (typeof value !== 'string' || value === text || !matches(value)) continue;
          out ??= writable(ctx, map);
          out[key] = text;
        }
        if (out !== undefined) path(target).set(ctx, out);
      };
    },
  },
};
