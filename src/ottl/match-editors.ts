// replace_match and replace_all_matches: a string that a glob pattern matches as a whole is
// replaced, as the Collector's; the replacement may first go through a converter given by name
// (SHA256) and then into a format ("prefix-%s").
import type { MutableAttributes } from '../model/anyvalue.js';
import { get, path, stringOf, type Bound, type FunctionArgument, type Getter, type Param } from './arguments.js';
import { EditorSettingsError, mapAt, writable, type Editor } from './editing.js';
import { OttlRuntimeError } from './errors.js';
import { compileGlob } from './glob.js';

const PARAMS: Param[] = [
  { name: 'pattern', kind: 'literal string' },
  { name: 'replacement', kind: 'value' },
  { name: 'function', kind: 'function', optional: true },
  { name: 'replacementFormat', kind: 'value', optional: true },
];

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
    if (!template.includes('%s')) throw new OttlRuntimeError(`replacementFormat must be format string containing a single %s and no other directives: ${template}`);
    return template.replace('%s', () => hashed);
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
