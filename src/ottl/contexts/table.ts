// A context made from a table of paths by their qualified names ("log.severity_text",
// "resource.attributes", "scope.name", "project"): a path as written is qualified by the context it
// names first (`resource.`, `instrumentation_scope.`, `span.`, ...) or, naming none, by the
// context's own name, as the Collector's contexts read paths with and without their prefix.
import type { Resource, Scope } from '../../model/resource.js';
import type { Key, PathField } from '../ast.js';
import { indexed, pathText, type Getter, type OttlContext, type Setter, type ValueGetter } from '../compile.js';
import { newAttributes, type AnyValue, type Attributes } from '../../model/anyvalue.js';
import { isMap, stored, type OttlValue } from '../values.js';
import { draftResource, draftScope, setOwned, type Drafting } from './draft.js';
import { OttlError } from '../errors.js';
import { OttlTime } from '../time.js';

export interface PathTable<C> {
  /** Paths read without keys: a row's value, or a time (`time`). */
  plain: Readonly<Record<string, ValueGetter<C>>>;
  /** Paths that take keys (["k"], [0]): a map or a list. A path in both reads the plain one without keys. */
  keyed: Readonly<Record<string, Getter<C>>>;
  /** Setters by the same names: of a plain path, or of a keyed one's whole value (a key is set in a copy of it). */
  set?: Readonly<Record<string, Setter<C>>>;
  /** Paths of the Collector's that otelgate does not read, with why: refused with that said rather than as unknown. */
  refused?: Readonly<Record<string, string>>;
}

/** What the transform sets on the row (or metric, resource, scope) it is at: `cache`, fresh for each. */
interface Cached {
  cache?: Attributes;
}

/** The cache of a context whose statements have set none, or of a condition (which cannot set one). */
const NO_CACHE: Attributes = newAttributes();

/**
 * `table` with the context's `cache` (also written `<context>.cache`), the Collector's scratch map:
 * read by key like attributes, set by statements (a map the statements made, set again in place).
 */
function withCache<C>(name: string, table: PathTable<C>): PathTable<C> {
  const path = `${name}.cache`;
  const keyed = { ...table.keyed, [path]: (c: C) => (c as Cached).cache ?? NO_CACHE };
  if (table.set === undefined) return { ...table, keyed };
  const set = (c: C, v: OttlValue): void => {
    if (isMap(v)) (c as Cached).cache = v;
  };
  return { ...table, keyed, set: { ...table.set, [path]: set } };
}

/** The paths of a row's resource and scope, under `resource.` and `scope.`. */
export function resourceAndScopePaths<C>(resource: (c: C) => Resource, scope: (c: C) => Scope): PathTable<C> {
  return {
    plain: {
      'resource.dropped_attributes_count': (c) => BigInt(resource(c).droppedAttributesCount),
      'resource.schema_url': (c) => resource(c).schemaUrl,
      'scope.name': (c) => scope(c).name,
      'scope.version': (c) => scope(c).version,
      'scope.dropped_attributes_count': (c) => BigInt(scope(c).droppedAttributesCount),
      'scope.schema_url': (c) => scope(c).schemaUrl,
    },
    keyed: {
      'resource.attributes': (c) => resource(c).attributes,
      'scope.attributes': (c) => scope(c).attributes,
    },
  };
}

/** A row's nanoseconds read as a time (`time`, `start_time`, ...), as the Collector's time paths read them. */
export const timeOf =
  <C>(nanos: (c: C) => bigint): ValueGetter<C> =>
  (c) =>
    new OttlTime(nanos(c));

/** A time set into a row's nanoseconds: its nanoseconds since the epoch, 0 (no time) for one before it; anything but a time is ignored. */
export const instant = (v: OttlValue): bigint | undefined => (v instanceof OttlTime ? (v.unixNano < 0n ? 0n : v.unixNano) : undefined);

/** An int64 into a uint32 field (counts, flags), wrapped as Go's uint32() conversion wraps it. */
export const uint32 = (v: OttlValue): number | undefined => (typeof v === 'bigint' ? Number(BigInt.asUintN(32, v)) : undefined);

/** Setters of the resource's and scope's paths, for rows being transformed (the batch's one new resource or scope per original). */
export function resourceAndScopeSetters<R extends { readonly attributes: Attributes; readonly resource: Resource; readonly scope: Scope }>(): Record<string, Setter<Drafting<R>>> {
  return {
    'resource.attributes': (c, v) => {
      if (isMap(v)) draftResource(c).attributes = v;
    },
    'resource.dropped_attributes_count': (c, v) => {
      const count = uint32(v);
      if (count !== undefined) draftResource(c).droppedAttributesCount = count;
    },
    'scope.attributes': (c, v) => {
      if (isMap(v)) draftScope(c).attributes = v;
    },
    'scope.name': (c, v) => {
      if (typeof v === 'string') draftScope(c).name = v;
    },
    'scope.version': (c, v) => {
      if (typeof v === 'string') draftScope(c).version = v;
    },
    'scope.dropped_attributes_count': (c, v) => {
      const count = uint32(v);
      if (count !== undefined) draftScope(c).droppedAttributesCount = count;
    },
  };
}

/** The part of `table` whose qualified names start with one of `prefixes` (a resource context's paths of a row's table). */
export function pathsUnder<C>(table: PathTable<C>, prefixes: readonly string[]): PathTable<C> {
  const keep = <T>(record: Readonly<Record<string, T>> | undefined): Record<string, T> =>
    Object.fromEntries(Object.entries(record ?? {}).filter(([name]) => name === 'project' || prefixes.some((p) => name.startsWith(`${p}.`))));
  return { plain: keep(table.plain), keyed: keep(table.keyed), set: keep(table.set), refused: keep(table.refused) };
}

export const mergedPaths = <C>(...tables: PathTable<C>[]): PathTable<C> => ({
  plain: Object.assign({}, ...tables.map((t) => t.plain)) as Record<string, ValueGetter<C>>,
  keyed: Object.assign({}, ...tables.map((t) => t.keyed)) as Record<string, Getter<C>>,
  set: Object.assign({}, ...tables.map((t) => t.set ?? {})) as Record<string, Setter<C>>,
  refused: Object.assign({}, ...tables.map((t) => t.refused ?? {})) as Record<string, string>,
});

/** The context names a path may start with, as written, and the prefix each stands for; the context's own is added. */
const NAMED: Readonly<Record<string, string>> = { resource: 'resource', instrumentation_scope: 'scope', scope: 'scope' };

/**
 * `name`'s context over `table`. `others`: further contexts its paths may name (a span event's
 * `span.`). Paths that name no context and are not the context's own stand as they are (`project`).
 */
export function tableContext<C>(name: string, paths: PathTable<C>, others: readonly string[] = []): OttlContext<C> {
  const table = withCache(name, paths);
  const prefixes: Record<string, string> = { ...NAMED, [name]: name };
  for (const other of others) prefixes[other] = other;
  const own = `${name}.`;
  /** The path's qualified name and keys; throws for keys anywhere but on the last field. */
  const resolve = (fields: readonly PathField[]): { qualified: string; joined: string; keys: Key[] } => {
    const first = (fields[0] as PathField).name;
    const named = fields.length > 1 ? prefixes[first] : undefined;
    const rest = named === undefined ? fields : fields.slice(1);
    const joined = rest.map((f) => f.name).join('.');
    const mine = `${own}${joined}`;
    const qualified = named !== undefined ? `${named}.${joined}` : mine in table.plain || mine in table.keyed || (table.refused !== undefined && mine in table.refused) ? mine : joined;
    // Keys are read on the last field only (attributes["a"]["b"]).
    const early = fields.slice(0, -1).find((f) => f.keys.length > 0);
    if (early !== undefined) throw new OttlError(early.column, `${pathText(fields)}: only the last field of a path takes keys`);
    return { qualified, joined, keys: (fields[fields.length - 1] as PathField).keys };
  };
  return {
    name,
    paths: [...new Set([...Object.keys(table.plain), ...Object.keys(table.keyed)])].map((p) => (p.startsWith(own) ? p.slice(own.length) : p)),
    path(fields: readonly PathField[]): ValueGetter<C> | undefined {
      const { qualified, joined, keys } = resolve(fields);
      const plain = Object.hasOwn(table.plain, qualified) ? table.plain[qualified] : undefined;
      const keyed = Object.hasOwn(table.keyed, qualified) ? table.keyed[qualified] : undefined;
      const refused = table.refused !== undefined && Object.hasOwn(table.refused, qualified) ? table.refused[qualified] : undefined;
      if (refused !== undefined) throw new OttlError((fields[0] as PathField).column, `${pathText(fields)} ${refused}`);
      if (keys.length === 0) return plain ?? keyed;
      if (keyed !== undefined) return (c: C): AnyValue => indexed(keyed(c), keys);
      if (plain !== undefined) throw new OttlError((keys[0] as Key).column, `${pathText(fields)}: ${joined} takes no keys`);
      return undefined;
    },
    setter(fields: readonly PathField[]): Setter<C> | undefined {
      const { qualified, keys } = resolve(fields);
      const set = table.set !== undefined && Object.hasOwn(table.set, qualified) ? table.set[qualified] : undefined;
      if (set === undefined || keys.length === 0) return set;
      const whole = Object.hasOwn(table.keyed, qualified) ? table.keyed[qualified] : undefined;
      // A path read as text and by keys (trace_state) is set as text only: its keys are a view.
      if (whole === undefined || Object.hasOwn(table.plain, qualified)) return undefined;
      return (c, value) => set(c, setOwned(c, whole(c), keys, stored(value, 'set')));
    },
  };
}
