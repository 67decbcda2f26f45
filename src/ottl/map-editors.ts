// The editors that reshape a map or a list at a path, as the Collector's: limit, merge_maps,
// flatten and append. A map is changed in place only where the row owns it (contexts/draft.ts:
// owns(), through writable()); any other is left as it is and a new one is set.
import { newAttributes, type AnyValue, type Attributes, type MutableAttributes } from '../model/anyvalue.js';
import { get, path, type Getter } from './arguments.js';
import { copiedIfMadeHere } from './contexts/draft.js';
import { EditorSettingsError, filtered, mapAt, writable, type Editor } from './editing.js';
import { OttlRuntimeError } from './errors.js';
import { isMap, stored, typeName } from './values.js';

const STRATEGIES = new Set(['insert', 'update', 'upsert']);

/**
 * flatten's limits, which the Collector has not: the nesting it follows (a map of a million
 * levels would overflow the stack) and the size of what it makes (each key repeats its path, so
 * the keys of a deep map grow with the square of its depth).
 */
const FLATTEN_MAX_DEPTH = 100;
const FLATTEN_MAX_KEYS = 10_000;
const FLATTEN_MAX_KEY_BYTES = 1 << 20;

/**
 * A map flattened as the Collector's flatten (func_flatten.go): keys joined with '.', a list's
 * items under their index, maps and lists below `maxDepth` kept whole; with `conflicts`, a key
 * met again gets .0, .1, ... (and a list's items their list's key). As there, the items of a
 * list in a list are keyed without a '.' between the two indices (a.l.20 for a.l[2][0]).
 */
class Flattening {
  readonly out: MutableAttributes = newAttributes();
  private keys = 0;
  private keyBytes = 0;

  constructor(
    private readonly maxDepth: number,
    private readonly seen: Map<string, number> | undefined,
  ) {}

  map(map: Attributes, prefix: string, depth: number): void {
    const base = prefix === '' ? '' : `${prefix}.`;
    for (const key of Object.keys(map)) this.value(key, map[key] as AnyValue, depth, base);
  }

  private list(list: readonly AnyValue[], prefix: string, depth: number): void {
    list.forEach((item, i) => this.value(String(i), item, depth + 1, prefix));
  }

  private value(k: string, value: AnyValue, depth: number, prefix: string): void {
    const key = prefix + k;
    if (isMap(value) && depth < this.maxDepth) {
      this.descend(depth + 1);
      this.map(value, key, depth + 1);
    } else if (Array.isArray(value) && depth < this.maxDepth) {
      (value as readonly AnyValue[]).forEach((item, i) => {
        if (isMap(item) && depth + 1 < this.maxDepth) {
          this.descend(depth + 2);
          this.map(item, `${key}.${i}`, depth + 2);
        } else if (Array.isArray(item) && depth + 1 < this.maxDepth) {
          this.descend(depth + 2);
          this.list(item as readonly AnyValue[], `${key}.${i}`, depth + 2);
        } else {
          this.put(this.seen === undefined ? `${key}.${i}` : key, item);
        }
      });
    } else {
      this.put(key, value);
    }
  }

  private descend(depth: number): void {
    if (depth > FLATTEN_MAX_DEPTH) throw new OttlRuntimeError(`flatten: the map is nested deeper than ${FLATTEN_MAX_DEPTH} levels`);
  }

  private put(key: string, value: AnyValue): void {
    let at = key;
    if (this.seen !== undefined && Object.hasOwn(this.out, key)) {
      const n = this.seen.get(key) ?? 0;
      this.seen.set(key, n + 1);
      at = `${key}.${n}`;
    } else {
      this.seen?.set(key, 0);
    }
    this.keys++;
    this.keyBytes += Buffer.byteLength(at, 'utf8');
    if (this.keys > FLATTEN_MAX_KEYS || this.keyBytes > FLATTEN_MAX_KEY_BYTES) throw new OttlRuntimeError(`flatten: the result would have more than ${FLATTEN_MAX_KEYS} keys or ${FLATTEN_MAX_KEY_BYTES} bytes of keys`);
    this.out[at] = value;
  }
}

export const MAP_EDITORS: Readonly<Record<string, Editor>> = {
  limit: {
    params: [
      { name: 'target', kind: 'path' },
      { name: 'limit', kind: 'literal int' },
      { name: 'priority_keys', kind: 'list of strings' },
    ],
    bind([target, limitArg, keysArg]) {
      const limit = limitArg as bigint;
      const priority = new Set(keysArg as string[]);
      if (limit < 0n) throw new EditorSettingsError(`invalid limit for limit function, ${limit} cannot be negative`);
      if (limit < BigInt((keysArg as string[]).length)) throw new EditorSettingsError(`invalid limit for limit function, ${limit} cannot be less than number of priority attributes ${(keysArg as string[]).length}`);
      return (ctx) => {
        const map = path(target).get(ctx);
        // As the Collector: anything but a map is left as it is.
        if (!isMap(map)) return;
        const keys = Object.keys(map);
        if (BigInt(keys.length) <= limit) return;
        // The priority keys present, then the others in the map's order, up to the limit.
        let count = BigInt(keys.filter((key) => priority.has(key)).length);
        const kept = new Set(keys.filter((key) => priority.has(key) || (count < limit && count++ >= 0n)));
        path(target).set(ctx, filtered(ctx, map, (key) => kept.has(key)));
      };
    },
  },
  merge_maps: {
    params: [
      { name: 'target', kind: 'path' },
      { name: 'source', kind: 'value' },
      { name: 'strategy', kind: 'literal string' },
    ],
    bind([target, source, strategyArg]) {
      const strategy = strategyArg as string;
      if (!STRATEGIES.has(strategy)) throw new EditorSettingsError(`invalid value for strategy, ${strategy}, must be 'insert', 'update' or 'upsert'`);
      return (ctx) => {
        const map = mapAt(path(target), ctx, 'merge_maps');
        const from = get(source)(ctx);
        if (!isMap(from)) throw new OttlRuntimeError(`merge_maps: expected pcommon.Map but got ${typeName(from)}`);
        const keys = Object.keys(from).filter((key) => (strategy === 'insert' ? !Object.hasOwn(map, key) : strategy === 'update' ? Object.hasOwn(map, key) : true));
        if (keys.length === 0) return;
        const out = writable(ctx, map);
        for (const key of keys) out[key] = from[key] as AnyValue;
        path(target).set(ctx, out);
      };
    },
  },
  flatten: {
    params: [
      { name: 'target', kind: 'path' },
      { name: 'prefix', kind: 'literal string', optional: true },
      { name: 'depth', kind: 'literal int', optional: true },
      { name: 'resolveConflicts', kind: 'literal bool', optional: true },
    ],
    bind([target, prefix, depthArg, conflicts]) {
      const depth = depthArg as bigint | undefined;
      if (depth !== undefined && depth < 1n) throw new EditorSettingsError(`invalid depth '${depth}' for flatten function, must be greater than 0`);
      const maxDepth = depth === undefined ? Infinity : Number(depth);
      return (ctx) => {
        const map = mapAt(path(target), ctx, 'flatten');
        const flattening = new Flattening(maxDepth, conflicts === true ? new Map() : undefined);
        flattening.map(map, (prefix as string | undefined) ?? '', 0);
        path(target).set(ctx, flattening.out);
      };
    },
  },
  append: {
    params: [
      { name: 'target', kind: 'path' },
      { name: 'value', kind: 'value', optional: true },
      { name: 'values', kind: 'list of values', optional: true },
    ],
    bind([target, value, values]) {
      if (value === undefined && values === undefined) throw new EditorSettingsError("at least one of the optional arguments ('value' or 'values') must be provided");
      const getters: Getter[] = [...(value === undefined ? [] : [value as Getter]), ...((values as Getter[] | undefined) ?? [])];
      return (ctx) => {
        const current = stored(path(target).get(ctx), 'append');
        if (isMap(current)) throw new OttlRuntimeError('append: unsupported type of target field: "Map"');
        const list: AnyValue[] = current === null ? [] : Array.isArray(current) ? [...(current as readonly AnyValue[])] : [current];
        // As set and list literals: a map or list this row's statements made, and may still change in
        // place where it is, goes in as a copy (append(attributes["l"], attributes) would hold itself).
        for (const getter of getters) list.push(copiedIfMadeHere(ctx, stored(getter(ctx), 'append')));
        path(target).set(ctx, list);
      };
    },
  },
};
