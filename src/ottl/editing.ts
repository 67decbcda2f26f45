// What editors share: their shape, the error for an argument written in the statement that an
// editor cannot take, and the copy-on-write reading and filtering of a map at a path.
import { attribute, newAttributes, withAttributes, type AnyValue, type Attributes, type MutableAttributes } from '../model/anyvalue.js';
import type { Bound, Param, PathArgument } from './arguments.js';
import { inPlace, own, owns } from './contexts/draft.js';
import { OttlRuntimeError } from './errors.js';
import { isMap, typeName } from './values.js';

export type Action<C> = (ctx: C) => void;

/** An argument written in the statement that the editor cannot take (a negative limit, an unknown mode). */
export class EditorSettingsError extends Error {}

export interface Editor {
  params: Param[];
  bind(args: Bound[]): Action<never>;
}

/** The map at `target`, or an error naming what is there instead. */
export function mapAt(target: PathArgument, ctx: never, editor: string): Attributes {
  const value = target.get(ctx);
  if (!isMap(value)) throw new OttlRuntimeError(`${editor}: expected a map but got ${typeName(value)}`);
  return value;
}

/**
 * A map of the entries of `map` that `keep` keeps, or `map` itself when it keeps them all. Never
 * changed in place, not even a map the statements on this row made (whose copy they then own):
 * `delete` turns V8's fast object into a hash table, which cost more than the copy.
 */
export function filtered(ctx: never, map: Attributes, keep: (key: string) => boolean): Attributes {
  const keys = Object.keys(map);
  if (keys.every(keep)) return map;
  const out = newAttributes();
  for (const key of keys) if (keep(key)) out[key] = map[key] as AnyValue;
  return owns(ctx, map) ? own(ctx, out) : out;
}

/**
 * `map` without `key`: `map` itself when it has no such key (no scan of its keys: most records lack
 * the key a statement deletes).
 */
export function withoutKey(ctx: never, map: Attributes, key: string): Attributes {
  if (attribute(map, key) === undefined) return map;
  // One loop over V8's cached keys, without filtered()'s array of them and call a key.
  const out = newAttributes();
  for (const k in map) if (k !== key) out[k] = map[k] as AnyValue;
  return owns(ctx, map) ? own(ctx, out) : out;
}

/** A map to change: `map` itself when the row owns it (its statements made it, or it came with an exclusive batch's row), else a copy. */
export const writable = (ctx: never, map: Attributes): MutableAttributes => (owns(ctx, map) ? inPlace(ctx, map) : withAttributes(map));
