// Copy-on-write for statements that change rows: a row being transformed is a shallow copy made at
// its first change (the row that came is never written), and a resource, scope or metric changed
// by one row is one new object for every row of the batch that had the original, as the
// Collector's statements change a resource that all the records under it share. The one thing
// changed in place that came with the batch is a row's own attributes map in an exclusive batch.
import { isAttributes, newAttributes, withAttributes, type AnyValue, type Attributes, type MutableAttributes } from '../../model/anyvalue.js';
import type { Metric } from '../../model/metrics.js';
import type { Resource, Scope } from '../../model/resource.js';
import type { Key } from '../ast.js';
import { OttlRuntimeError } from '../errors.js';
import { typeName } from '../values.js';

export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** What rows share: a resource and scope; a data point also its metric. */
interface Grouped {
  readonly attributes: Attributes;
  readonly resource: Resource;
  readonly scope: Scope;
  readonly metric?: Metric;
}

/**
 * A batch's new resources, scopes and metrics, by the original each replaces; scopes by their
 * resource too (a simple JSON request shares one scope object among its resources).
 */
export interface BatchCopies {
  readonly resources: Map<Resource, Mutable<Resource>>;
  readonly scopes: Map<Resource, Map<Scope, Mutable<Scope>>>;
  readonly metrics: Map<Metric, Mutable<Metric>>;
}

/** A row being transformed: `row` is what statements read (the row that came, until a first change copies it). */
export interface Drafting<R extends Grouped> {
  row: R;
  original: R;
  drafted: boolean;
  readonly project: string;
  readonly copies: BatchCopies;
  /** The row's place in the batch. */
  index: number;
  /**
   * Maps and lists the statements made in this batch, by the row that made each: a further change
   * by that row to one that is still where it put it is made in place instead of in another copy
   * (a map copied per statement was most of what three statements cost). A value set elsewhere is
   * copied if any row made it, so that nothing changed in place is held in two places.
   */
  readonly owners: Map<object, number>;
  /** The batch is exclusive (model/batch.ts): the attributes map each row came with is its own to change in place. */
  readonly exclusive: boolean;
  /**
   * A statement changed a map in place: the rows go on in a new array even when no row is new, so
   * that nothing takes them for the bytes they were decoded from (otlp/source.ts).
   */
  inPlace: boolean;
  /** The statements' `cache`: none until they set one, none again at the next row (and event, metric, resource or scope). */
  cache?: Attributes;
}

/** Whether `value` is the attributes map an exclusive batch's row came with, which the row may change in place. */
const cameWith = (d: Partial<Drafting<Grouped>>, value: object): boolean => d.exclusive === true && value === d.original?.attributes;

/** Whether `value` is a map or list this row's statements made, or its own that it came with, and may change in place. */
export function owns(c: unknown, value: AnyValue): boolean {
  const d = c as Partial<Drafting<Grouped>>;
  return d.owners !== undefined && typeof value === 'object' && value !== null && (cameWith(d, value) || d.owners.get(value) === d.index);
}

/** `map`, which the row owns (owns()), to be changed in place. */
export function inPlace(c: unknown, map: Attributes): MutableAttributes {
  (c as Drafting<Grouped>).inPlace = true;
  return map as MutableAttributes;
}

/**
 * Whether `value` may still change in place where it is: any row's statements made it, or it is
 * the row's own attributes map in an exclusive batch (no statement reads another row's).
 */
function madeHere(c: unknown, value: AnyValue): boolean {
  const d = c as Partial<Drafting<Grouped>>;
  return d.owners !== undefined && typeof value === 'object' && value !== null && (cameWith(d, value) || d.owners.has(value));
}

/**
 * `value` to be put somewhere else: a copy when statements made it (it may still change in place
 * where it is). Such maps are only ever the root of a path, so their insides are never changed in
 * place, and one level of copy is enough.
 */
export function copiedIfMadeHere(c: unknown, value: AnyValue): AnyValue {
  if (!madeHere(c, value)) return value;
  return Array.isArray(value) ? [...(value as AnyValue[])] : withAttributes(value as Attributes);
}

/** `value`, made by this row's statements, may be changed in place by its next ones. */
export function own<T extends AnyValue>(c: unknown, value: T): T {
  const d = c as Partial<Drafting<Grouped>>;
  if (typeof value === 'object' && value !== null && d.owners !== undefined) d.owners.set(value, d.index as number);
  return value;
}

/**
 * `value` set at `keys` in `current`, as setIn does, but in place where `current` is owned: in
 * a map the statements made, the last key is set without another copy.
 */
export function setOwned(c: unknown, current: AnyValue, keys: readonly Key[], item: AnyValue): AnyValue {
  const key = keys[0];
  if (keys.length === 1 && key !== undefined && key.kind === 'string' && current !== null && isAttributes(current) && owns(c, current)) {
    inPlace(c, current)[key.value] = item;
    return current;
  }
  return own(c, setIn(current, keys, item));
}

export function newCopies(): BatchCopies {
  return { resources: new Map(), scopes: new Map(), metrics: new Map() };
}

export function draft<R extends Grouped>(c: Drafting<R>): Mutable<R> {
  if (!c.drafted) {
    c.row = { ...c.row };
    c.drafted = true;
  }
  return c.row as Mutable<R>;
}

/** The batch's one copy of `original` (made at the first change to it). */
function copyOf<T extends object>(copies: Map<T, Mutable<T>>, original: T): Mutable<T> {
  let copy = copies.get(original);
  if (copy === undefined) {
    copy = { ...original };
    copies.set(original, copy);
  }
  return copy;
}

/** The batch's new resource for the row's original one, put on the row. */
export function draftResource<R extends Grouped>(c: Drafting<R>): Mutable<Resource> {
  const copy = copyOf(c.copies.resources, c.original.resource);
  if (c.row.resource !== copy) draft(c).resource = copy;
  return copy;
}

/** The batch's new scope for the row's original one, put on the row. */
export function draftScope<R extends Grouped>(c: Drafting<R>): Mutable<Scope> {
  let scopes = c.copies.scopes.get(c.original.resource);
  if (scopes === undefined) c.copies.scopes.set(c.original.resource, (scopes = new Map()));
  const copy = copyOf(scopes, c.original.scope);
  if (c.row.scope !== copy) draft(c).scope = copy;
  return copy;
}

/**
 * The batch's new metric for the row's original one, put on the row: every point of a metric
 * shares it, as in the Collector, where a metric's statements change the one metric its points sit in.
 */
export function draftMetric<R extends Grouped & { readonly metric: Metric }>(c: Drafting<R>): Mutable<Metric> {
  const copy = copyOf(c.copies.metrics, c.original.metric);
  if (c.row.metric !== copy) draft(c).metric = copy;
  return copy;
}

/** The batch's new resource, scope and metric for the originals of `original`, if any. */
export function copiesFor<R extends Grouped>(original: R, copies: BatchCopies): { resource: Resource | undefined; scope: Scope | undefined; metric: Metric | undefined } {
  return {
    resource: copies.resources.get(original.resource),
    scope: copies.scopes.get(original.resource)?.get(original.scope),
    // Only a metrics batch has copies of metrics: a log or span batch costs no lookup.
    metric: copies.metrics.size > 0 && original.metric !== undefined ? copies.metrics.get(original.metric) : undefined,
  };
}

/** Whether any row of the batch changed a resource, scope or metric: most statements change none, and then no row looks one up. */
export function hasCopies(copies: BatchCopies): boolean {
  return copies.resources.size > 0 || copies.scopes.size > 0 || copies.metrics.size > 0;
}

/** The batch's new resource, scope and metric put on the row being transformed, where an earlier row changed the originals. */
export function adoptCopies<R extends Grouped>(c: Drafting<R>): void {
  if (!hasCopies(c.copies)) return;
  const { resource, scope, metric } = copiesFor(c.original, c.copies);
  if (resource !== undefined && c.row.resource !== resource) draft(c).resource = resource;
  if (scope !== undefined && c.row.scope !== scope) draft(c).scope = scope;
  if (metric !== undefined && c.row.metric !== metric) draft(c).metric = metric;
}

/** `row` (made from `original`) with the batch's new resource, scope and metric in place of the originals, for rows done before they changed. */
export function withCopies<R extends Grouped>(row: R, original: R, copies: BatchCopies): R {
  const { resource, scope, metric } = copiesFor(original, copies);
  const newResource = resource !== undefined && row.resource !== resource;
  const newScope = scope !== undefined && row.scope !== scope;
  const newMetric = metric !== undefined && row.metric !== metric;
  if (!newResource && !newScope && !newMetric) return row;
  const out = { ...row, resource: newResource ? resource : row.resource, scope: newScope ? scope : row.scope };
  return newMetric ? { ...out, metric } : out;
}

/**
 * `value` with `value` set at `keys` (maps by string keys, lists by index), copying each map or
 * list on the way: nothing that was there is changed. A missing map on the way is made, as the
 * Collector makes it.
 */
export function setIn(value: AnyValue, keys: readonly Key[], item: AnyValue, at = 0): AnyValue {
  const key = keys[at];
  if (key === undefined) return item;
  if (key.kind === 'string') {
    if (value !== null && !isAttributes(value)) throw new OttlRuntimeError(`cannot set "${key.value}" in a ${typeName(value)}: only a map takes a string key`);
    const copy: MutableAttributes = value === null ? newAttributes() : withAttributes(value);
    copy[key.value] = at + 1 === keys.length ? item : setIn(Object.hasOwn(copy, key.value) ? (copy[key.value] as AnyValue) : null, keys, item, at + 1);
    return copy;
  }
  if (!Array.isArray(value)) throw new OttlRuntimeError(`cannot set [${key.value}] in a ${typeName(value)}: only a slice takes an integer key`);
  const list = value as readonly AnyValue[];
  if (key.value < 0n || key.value >= BigInt(list.length)) throw new OttlRuntimeError(`index ${key.value} is out of range for a slice of ${list.length}`);
  const copy = [...list];
  copy[Number(key.value)] = setIn(list[Number(key.value)] as AnyValue, keys, item, at + 1);
  return copy;
}
