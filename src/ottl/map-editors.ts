// The editors that reshape a map or a list at a path, as the Collector's: limit, merge_maps,
// flatten and append. A map that came with the batch is never changed: a new one is set.
import { newAttributes, type AnyValue, type Attributes, type MutableAttributes } from '../model/anyvalue.js';
import { get, path, type Getter } from './arguments.js';
import { EditorSettingsError, filtered, mapAt, writable, type Editor } from './editing.js';
import { OttlRuntimeError } from './errors.js';
import { isMap, stored, typeName } from './values.js';

const STRATEGIES = new Set(['insert', 'update', 'upsert']);

/**
 * `map` flattened into `out` as the Collector's flatten: keys joined with '.', a list's items under
 * their index, maps and lists below `depth` kept whole; with `conflicts`, a key met again gets .0,
 * .1, ... (and a list's items their list's key).
 */
function flattenInto(out: MutableAttributes, map: Attributes, prefix: string, depth: number, maxDepth: number, seen: Map<string, number> | undefined): void {
  const base = prefix === '' ? '' : `${prefix}.`;
  for (const key of Object.keys(map)) flattenValue(out, base + key, map[key] as AnyValue, depth, maxDepth, seen);
}

function put(out: MutableAttributes, key: string, value: AnyValue, seen: Map<string, number> | undefined): void {
  if (seen === undefined || !Object.hasOwn(out, key)) {
    seen?.set(key, 0);
    out[key] = value;
    return;
  }
  const n = seen.get(key) ?? 0;
  seen.set(key, n + 1);
  out[`${key}.${n}`] = value;
}

function flattenValue(out: MutableAttributes, key: string, value: AnyValue, depth: number, maxDepth: number, seen: Map<string, number> | undefined): void {
  if (isMap(value) && depth < maxDepth) {
    flattenInto(out, value, key, depth + 1, maxDepth, seen);
  } else if (Array.isArray(value) && depth < maxDepth) {
    (value as readonly AnyValue[]).forEach((item, i) => {
      if (isMap(item) && depth + 1 < maxDepth) flattenInto(out, item, `${key}.${i}`, depth + 2, maxDepth, seen);
      else if (Array.isArray(item) && depth + 1 < maxDepth) (item as readonly AnyValue[]).forEach((inner, j) => flattenValue(out, `${key}.${i}.${j}`, inner, depth + 3, maxDepth, seen));
      else put(out, seen === undefined ? `${key}.${i}` : key, item, seen);
    });
  } else {
    put(out, key, value, seen);
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
        const out = newAttributes();
        flattenInto(out, map, (prefix as string | undefined) ?? '', 0, maxDepth, conflicts === true ? new Map() : undefined);
        path(target).set(ctx, out);
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
        for (const getter of getters) list.push(stored(getter(ctx), 'append'));
        path(target).set(ctx, list);
      };
    },
  },
};
