// OTTL's editors otelgate has, by the Collector's names, parameters and behaviour
// (pkg/ottl/ottlfuncs): each is bound once, when its statement is compiled, to a closure that
// changes the row being transformed through a path's setter. A map that came with the batch is
// never changed: a new one is set. Only a map the row owns (contexts/draft.ts: owns; one its
// statements made and put at a path's root, or its own attributes map in an exclusive batch) is
// changed in place, through writable(), which marks the change.
import { newAttributes, type AnyValue, type Attributes, type MutableAttributes } from '../model/anyvalue.js';
import { path, type Bound, type Getter, type Param } from './arguments.js';
import { copiedIfMadeHere } from './contexts/draft.js';
import { EditorSettingsError, filtered, mapAt, withoutKey, writable, type Editor } from './editing.js';
import { OttlRuntimeError } from './errors.js';
import { MAP_EDITORS } from './map-editors.js';
import { MATCH_EDITORS } from './match-editors.js';
import { neverMatchesEmpty, replaceAllMatches, safeRegex } from './regex.js';
import { isTimeKind, typeName } from './values.js';

export { EditorSettingsError, type Action, type Editor } from './editing.js';

/**
 * A Go regexp replacement template ($1, ${1}, $name, ${name}, $$) as a function of a match: Go
 * reads `$name` as the longest run of letters, digits and _, and a group that is not there as ''.
 */
function expander(template: string): (groups: readonly (string | undefined)[], named: Record<string, string | undefined> | undefined) => string {
  const parts: (string | { group: string })[] = [];
  const pattern = /\$(?:\$|\{([A-Za-z0-9_]+)\}|([A-Za-z0-9_]+))/g;
  let at = 0;
  for (let m = pattern.exec(template); m !== null; m = pattern.exec(template)) {
    parts.push(template.slice(at, m.index));
    parts.push(m[0] === '$$' ? '$' : { group: (m[1] ?? m[2]) as string });
    at = m.index + m[0].length;
  }
  parts.push(template.slice(at));
  return (groups, named) =>
    parts.map((part) => (typeof part === 'string' ? part : /^\d+$/.test(part.group) ? (groups[Number(part.group)] ?? '') : (named?.[part.group] ?? ''))).join('');
}

/**
 * The last template, whether it has no $ (it is the replacement itself), and its expander: a
 * statement's replacement is nearly always the same text, so it is looked at once, not per record.
 */
let lastTemplate: string | undefined;
let lastPlain = false;
let lastExpander: ReturnType<typeof expander> | undefined;

/**
 * `text` with every match of `regex` (global) replaced as Go's ReplaceAllString does with
 * `template`. `nonEmpty`: no match of `regex` is empty (neverMatchesEmpty).
 */
function replaceAll(text: string, regex: RegExp, template: string, nonEmpty: boolean): string {
  if (template !== lastTemplate) {
    lastPlain = !template.includes('$');
    lastExpander = lastPlain ? undefined : expander(template);
    lastTemplate = template;
  }
  if (lastPlain) return nonEmpty ? text.replace(regex, template) : replaceAllMatches(text, regex, () => template);
  const expand = lastExpander as ReturnType<typeof expander>;
  return replaceAllMatches(text, regex, (match) => expand(match, match.groups));
}

function replacementOf(getter: Getter, ctx: never, editor: string): string {
  const value = getter(ctx);
  if (typeof value !== 'string') throw new OttlRuntimeError(`${editor}: the replacement must be a string, not ${typeName(value)}`);
  return value;
}

/** Keys a map keeps: the map with the others gone (filtered, withoutKey). */
type KeysFilter = (ctx: never, map: Attributes) => Attributes;

/** The filter keeping the keys that `keep` keeps. */
const keeping =
  (keep: (key: string) => boolean): KeysFilter =>
  (ctx, map) =>
    filtered(ctx, map, keep);

/** An editor that sets the map at its target to what `filterOf(argument)` keeps of it (delete_key, keep_keys, ...). */
function keysEditor(name: string, param: Param, filterOf: (argument: Bound) => KeysFilter): Editor {
  return {
    params: [{ name: 'target', kind: 'path' }, param],
    bind([target, argument]) {
      const filter = filterOf(argument);
      return (ctx) => {
        const map = mapAt(path(target), ctx, name);
        const kept = filter(ctx, map);
        if (kept !== map) path(target).set(ctx, kept);
      };
    },
  };
}

/** The parameters replace_pattern and replace_all_patterns end with. */
const REPLACING: Param[] = [
  { name: 'regex', kind: 'literal string' },
  { name: 'replacement', kind: 'value' },
  // Read as what they are, so that using one is refused as unsupported, not as an unknown enum.
  { name: 'function', kind: 'function', optional: true },
  { name: 'replacementFormat', kind: 'literal string', optional: true },
];

/** The regex of a replacing editor, global; its optional arguments (`function`, `replacementFormat`) are not supported yet. */
function replacing(editor: string, pattern: Bound, optional: readonly Bound[]): RegExp {
  if (optional.some((arg) => arg !== undefined)) throw new EditorSettingsError(`the function and replacementFormat arguments of ${editor} are not supported in otelgate yet`);
  return safeRegex(pattern as string, 'g');
}

/** Go's byte-length truncation of a string, at a character boundary rather than inside one. */
function truncated(text: string, limit: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= limit) return text;
  let end = limit;
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

export const EDITORS: Readonly<Record<string, Editor>> = {
  set: {
    params: [
      { name: 'target', kind: 'path' },
      { name: 'value', kind: 'value' },
    ],
    bind([target, value]) {
      const get = value as Getter;
      return (ctx) => {
        const v = get(ctx);
        // As the Collector: no path takes nil, so setting nil changes nothing. A map or list
        // statements made is set as a copy: it may still change in place where it is. A time
        // goes to the path as it is: only time paths take one, the others refuse it.
        if (v === null) return;
        path(target).set(ctx, isTimeKind(v) ? v : copiedIfMadeHere(ctx, v));
      };
    },
  },
  delete_key: keysEditor('delete_key', { name: 'key', kind: 'literal string' }, (key) => (ctx, map) => withoutKey(ctx, map, key as string)),
  delete_matching_keys: keysEditor('delete_matching_keys', { name: 'pattern', kind: 'literal string' }, (pattern) => {
    const regex = safeRegex(pattern as string);
    return keeping((k) => !regex.test(k));
  }),
  keep_keys: keysEditor('keep_keys', { name: 'keys', kind: 'list of strings' }, (keys) => {
    const keep = new Set(keys as string[]);
    return keeping((k) => keep.has(k));
  }),
  keep_matching_keys: keysEditor('keep_matching_keys', { name: 'pattern', kind: 'literal string' }, (pattern) => {
    const regex = safeRegex(pattern as string);
    return keeping((k) => regex.test(k));
  }),
  replace_pattern: {
    params: [{ name: 'target', kind: 'path' }, ...REPLACING],
    bind(args) {
      const [target, pattern, replacement] = args;
      const regex = replacing('replace_pattern', pattern, args.slice(3));
      const nonEmpty = neverMatchesEmpty(regex);
      return (ctx) => {
        const value = path(target).get(ctx);
        // As the Collector: a target that is not a string is left as it is.
        if (typeof value !== 'string') return;
        const replaced = replaceAll(value, regex, replacementOf(replacement as Getter, ctx, 'replace_pattern'), nonEmpty);
        if (replaced !== value) path(target).set(ctx, replaced);
      };
    },
  },
  replace_all_patterns: {
    params: [{ name: 'target', kind: 'path' }, { name: 'mode', kind: 'literal string' }, ...REPLACING],
    bind(args) {
      const [target, mode, pattern, replacement] = args;
      if (mode !== 'key' && mode !== 'value') throw new EditorSettingsError(`mode must be "key" or "value", not ${JSON.stringify(mode)}`);
      const regex = replacing('replace_all_patterns', pattern, args.slice(4));
      const nonEmpty = neverMatchesEmpty(regex);
      return (ctx) => {
        const map = mapAt(path(target), ctx, 'replace_all_patterns');
        const template = replacementOf(replacement as Getter, ctx, 'replace_all_patterns');
        let changed = false;
        const out: MutableAttributes = newAttributes();
        for (const key of Object.keys(map)) {
          const value = map[key] as AnyValue;
          if (mode === 'key') {
            const renamed = replaceAll(key, regex, template, nonEmpty);
            changed ||= renamed !== key;
            out[renamed] = value;
          } else {
            const replaced = typeof value === 'string' ? replaceAll(value, regex, template, nonEmpty) : value;
            changed ||= replaced !== value;
            out[key] = replaced;
          }
        }
        if (changed) path(target).set(ctx, out);
      };
    },
  },
  truncate_all: {
    params: [
      { name: 'target', kind: 'path' },
      { name: 'limit', kind: 'literal int' },
    ],
    bind([target, limit]) {
      if ((limit as bigint) < 0n) throw new EditorSettingsError(`invalid limit for truncate_all function, ${limit as bigint} cannot be negative`);
      const bytes = Number(limit as bigint);
      return (ctx) => {
        const map = mapAt(path(target), ctx, 'truncate_all');
        let out: MutableAttributes | undefined;
        for (const key of Object.keys(map)) {
          const value = map[key] as AnyValue;
          if (typeof value !== 'string') continue;
          const cut = truncated(value, bytes);
          if (cut === value) continue;
          out ??= writable(ctx, map);
          out[key] = cut;
        }
        if (out !== undefined) path(target).set(ctx, out);
      };
    },
  },
  ...MAP_EDITORS,
  ...MATCH_EDITORS,
};
