// The converters that read structure out of text, as the Collector's: ParseJSON, ParseKeyValue
// (with its quoting rules, internal/coreinternal/parseutils) and ExtractPatterns.
import { newAttributes, type AnyValue, type MutableAttributes } from '../model/anyvalue.js';
import { get, stringOf, type Converter } from './arguments.js';
import { OttlRuntimeError, quoted } from './errors.js';
import { safeRegex } from './regex.js';

/**
 * ParseJSON's nesting and ParseKeyValue's pairs, which the Collector does not limit: a document
 * nested a million deep would overflow the stack, and a million pairs make a map of a million keys.
 */
const MAX_JSON_DEPTH = 64;
const MAX_PAIRS = 1000;
/** Bad pairs listed in ParseKeyValue's error, before "and N more". */
const LISTED_ERRORS = 5;

/** A parsed JSON value as pdata holds it: every number a double, objects as maps. */
function fromJson(value: unknown, depth = 1): AnyValue {
  if (value === null || typeof value !== 'object') return value as AnyValue;
  if (depth > MAX_JSON_DEPTH) throw new OttlRuntimeError(`ParseJSON: the document is nested deeper than ${MAX_JSON_DEPTH} levels`);
  if (Array.isArray(value)) return value.map((item: unknown) => fromJson(item, depth + 1));
  const map = newAttributes();
  for (const [key, item] of Object.entries(value)) map[key] = fromJson(item, depth + 1);
  return map;
}

/** pcommon's names of a value type, for ParseJSON's message about a document that is no object or array. */
const PDATA_TYPE: Readonly<Record<string, string>> = { string: 'Str', number: 'Double', boolean: 'Bool', object: 'Empty' };

function parseJson(text: string): AnyValue {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new OttlRuntimeError(`ParseJSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (parsed === null || typeof parsed !== 'object') throw new OttlRuntimeError(`could not convert parsed value of type ${JSON.stringify(PDATA_TYPE[typeof parsed])} to JSON object`);
  return fromJson(parsed);
}

/**
 * parseutils.SplitString: `input` split at `delimiter` outside quotes (" or '), the quotes that
 * open and close a value dropped, a backslash keeping the next character from closing one; empty
 * parts dropped.
 */
function splitQuoted(input: string, delimiter: string): string[] {
  const parts: string[] = [];
  const push = (part: string): void => {
    if (parts.length === MAX_PAIRS) throw new OttlRuntimeError(`ParseKeyValue: more than ${MAX_PAIRS} pairs`);
    parts.push(part);
  };
  let current = '';
  let quote = '';
  let escaped = false;
  for (let i = 0; i < input.length; i++) {
    if (quote === '' && input.startsWith(delimiter, i)) {
      if (current !== '') push(current);
      current = '';
      i += delimiter.length - 1;
      continue;
    }
    const c = input[i] as string;
    if (!escaped) {
      if (quote === '' && (c === '"' || c === "'")) {
        quote = c;
        continue;
      }
      if (c === quote) {
        quote = '';
        continue;
      }
      escaped = c === '\\';
    } else {
      escaped = false;
    }
    current += c;
  }
  if (quote !== '') throw new OttlRuntimeError(`splitting source ${quoted(input)} into pairs failed: never reached the end of a quoted value`);
  if (current !== '') push(current);
  return parts;
}

function parseKeyValue(source: string, delimiter: string, pairDelimiter: string): AnyValue {
  if (source === '') throw new OttlRuntimeError('cannot parse from empty target');
  const map: MutableAttributes = newAttributes();
  const errors: string[] = [];
  let bad = 0;
  for (const pair of splitQuoted(source, pairDelimiter)) {
    const at = pair.indexOf(delimiter);
    if (at < 0) {
      if (bad++ < LISTED_ERRORS) errors.push(`cannot split ${quoted(pair)} into 2 items, got 1 item(s)`);
      continue;
    }
    map[pair.slice(0, at).trim()] = pair.slice(at + delimiter.length).trim();
  }
  if (bad > LISTED_ERRORS) errors.push(`and ${bad - LISTED_ERRORS} more`);
  if (errors.length > 0) throw new OttlRuntimeError(errors.join('; '));
  return map;
}

/** The names of `regex`'s named groups, in the order they open. */
function groupNames(regex: RegExp): string[] {
  return [...regex.source.matchAll(/(?<!\\)\(\?<([A-Za-z_][A-Za-z0-9_]*)>/g)].map((m) => m[1] as string);
}

export const PARSE_CONVERTERS: Readonly<Record<string, Converter>> = {
  ParseJSON: { params: [{ name: 'target', kind: 'value' }], bind: ([target]) => (ctx) => parseJson(stringOf(get(target)(ctx), 'ParseJSON')) },
  ParseKeyValue: {
    params: [
      { name: 'target', kind: 'value' },
      { name: 'delimiter', kind: 'literal string', optional: true },
      { name: 'pair_delimiter', kind: 'literal string', optional: true },
    ],
    bind([target, d, p]) {
      // As the Collector: an empty delimiter is the default one.
      const delimiter = (d as string | undefined) || '=';
      const pairDelimiter = (p as string | undefined) || ' ';
      if (pairDelimiter === delimiter) throw new Error(`pair delimiter ${JSON.stringify(pairDelimiter)} cannot be equal to delimiter ${JSON.stringify(delimiter)}`);
      return (ctx) => parseKeyValue(stringOf(get(target)(ctx), 'ParseKeyValue'), delimiter, pairDelimiter);
    },
  },
  ExtractPatterns: {
    params: [
      { name: 'target', kind: 'value' },
      { name: 'pattern', kind: 'literal string' },
    ],
    bind([target, pattern]) {
      const regex = safeRegex(pattern as string);
      const names = groupNames(regex);
      if (names.length === 0) throw new Error('at least 1 named capture group must be supplied in the given regex');
      return (ctx) => {
        const match = regex.exec(stringOf(get(target)(ctx), 'ExtractPatterns'));
        const map = newAttributes();
        if (match === null) return map;
        for (const name of names) map[name] = match.groups?.[name] ?? '';
        return map;
      };
    },
  },
};
