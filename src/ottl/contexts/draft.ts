// Copy-on-write for statements that change rows: a row being transformed is a shallow copy made at
// its first change (the row that came is never written), and a resource, scope or metric changed
// by one row is one new object for every row of the batch that had the original, as the
// Collector's statements change a resource that all the records under it share. An exclusive
// batch's rows (model/batch.ts) are nobody else's: they, and the attributes map each came with,
// are changed in place instead.
import { attribute, isAttributes, newAttributes, withAttributes, type AnyValue, type Attributes, type MutableAttributes } from '../../model/anyvalue.js';
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

/** What a row shares, as it came. */
export type Origin = Pick<Grouped, 'resource' | 'scope' | 'metric'>;

/**
 * A batch's new resources, scopes and metrics, by the original each replaces; scopes by their
 * resource too (a simple JSON request shares one scope object among its resources).
 */
export interface BatchCopies {
  readonly resources: Map<Resource, Mutable<Resource>>;
  readonly scopes: Map<Resource, Map<Scope, Mutable<Scope>>>;
  readonly metrics: Map<Metric, Mutable<Metric>>;
}

/** A row being transformed, at one visit of it (one group of statements on one row). */
export interface Drafting<R extends Grouped> {
  /** What statements read and change: in an exclusive batch the row that came; otherwise that row until a first change copies it. */
  row: R;
  drafted: boolean;
  /**
   * What the row came with, for its resource, scope and metric: copies are found by the originals.
   * The row that came, until an exclusive batch's row, changed in place, takes a copy of one.
   */
  origin: Origin;
  readonly project: string;
  readonly copies: BatchCopies;
  /** The batch is exclusive (model/batch.ts): its rows are changed in place. */
  readonly exclusive: boolean;
  /**
   * The attributes map the row holds alone and may change in place: the one an exclusive batch's
   * row came with, or one the row's statements made for it at an earlier visit and left there
   * (held()); none for a row of a batch that is not exclusive until then.
   */
  held: Attributes | undefined;
  /**
   * Maps and lists this visit's statements made (the first `madeCount`): a further change by them
   * to one that is still where they put it is made in place instead of in another copy (a map
   * copied per statement was most of what three statements cost). A value set elsewhere is copied
   * if they made it, so that nothing changed in place is held in two places. Forgotten at each
   * visit (madeCount = 0): what an earlier visit made is copied on write again, as anything else.
   * A list searched, not a batch-wide Map: a visit makes a few at most, and emptying an array by
   * its length is a call into the runtime.
   */
  readonly made: object[];
  madeCount: number;
  /**
   * A statement changed something in place: the rows go on in a new array even when no row is
   * new, so that nothing takes them for the bytes they were decoded from (otlp/source.ts).
   */
  inPlace: boolean;
  /** The statements' `cache`: none until they set one, none again at the next row (and event, metric, resource or scope). */
  cache?: Attributes;
}

/** A context at `row`, the first of a batch (exclusive: the batch's, model/batch.ts); the transform moves it from row to row. */
export function newDraft<R extends Grouped>(row: R, project: string, exclusive: boolean): Drafting<R> {
  return {
    row,
    drafted: false,
    origin: row,
    project,
    copies: newCopies(),
    exclusive,
    held: exclusive ? row.attributes : undefined,
    made: [],
    madeCount: 0,
    inPlace: false,
    cache: undefined,
  };
}

/**
 * After a visit: the attributes map the row holds alone (its statements made it, or it is the
 * one it held before), or undefined when it may be held elsewhere too.
 */
export function held(c: Drafting<Grouped>): Attributes | undefined {
  const attributes = c.row.attributes;
  return attributes === c.held || madeNow(c, attributes) ? attributes : undefined;
}

/** Whether this visit's statements made `value`. */
function madeNow(d: Drafting<Grouped>, value: object): boolean {
  for (let i = 0; i < d.madeCount; i++) if (d.made[i] === value) return true;
  return false;
}

/**
 * Whether `value` may change in place: a map or list this visit's statements made, or the
 * attributes map the row holds alone.
 */
export function owns(c: unknown, value: AnyValue): boolean {
  const d = c as Partial<Drafting<Grouped>>;
  return d.made !== undefined && typeof value === 'object' && value !== null && (value === d.held || madeNow(d as Drafting<Grouped>, value));
}

/** `map`, which the row owns (owns()), to be changed in place. */
export function inPlace(c: unknown, map: Attributes): MutableAttributes {
  (c as Drafting<Grouped>).inPlace = true;
  return map as MutableAttributes;
}

/**
 * `value` to be put somewhere else: a copy when statements made it (it may still change in place
 * where it is). Such maps are only ever the root of a path, so their insides are never changed in
 * place, and one level of copy is enough.
 */
export function copiedIfMadeHere(c: unknown, value: AnyValue): AnyValue {
  if (!owns(c, value)) return value;
  return Array.isArray(value) ? [...(value as AnyValue[])] : withAttributes(value as Attributes);
}

/** `value`, made by this visit's statements, may be changed in place by its next ones. */
export function own<T extends AnyValue>(c: unknown, value: T): T {
  const d = c as Partial<Drafting<Grouped>>;
  if (typeof value === 'object' && value !== null && d.made !== undefined) d.made[(d.madeCount as number)++] = value;
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

function newCopies(): BatchCopies {
  return { resources: new Map(), scopes: new Map(), metrics: new Map() };
}

/** The row to change: the row itself in an exclusive batch, else a copy made at the first change. */
export function draft<R extends Grouped>(c: Drafting<R>): Mutable<R> {
  if (!c.drafted) {
    if (c.exclusive) c.inPlace = true;
    else c.row = { ...c.row };
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

/**
 * The row, to take a copy of something it shares: an exclusive batch's row keeps what it came
 * with apart first, since it changes in place.
 */
function sharing<R extends Grouped>(c: Drafting<R>): Mutable<R> {
  if (c.exclusive && c.origin === c.row) c.origin = { resource: c.row.resource, scope: c.row.scope, metric: c.row.metric };
  return draft(c);
}

/** The batch's new resource for the row's original one, put on the row. */
export function draftResource<R extends Grouped>(c: Drafting<R>): Mutable<Resource> {
  const copy = copyOf(c.copies.resources, c.origin.resource);
  if (c.row.resource !== copy) sharing(c).resource = copy;
  return copy;
}

/** The batch's new scope for the row's original one, put on the row. */
export function draftScope<R extends Grouped>(c: Drafting<R>): Mutable<Scope> {
  let scopes = c.copies.scopes.get(c.origin.resource);
  if (scopes === undefined) c.copies.scopes.set(c.origin.resource, (scopes = new Map()));
  const copy = copyOf(scopes, c.origin.scope);
  if (c.row.scope !== copy) sharing(c).scope = copy;
  return copy;
}

/**
 * The batch's new metric for the row's original one, put on the row: every point of a metric
 * shares it, as in the Collector, where a metric's statements change the one metric its points sit in.
 */
export function draftMetric<R extends Grouped & { readonly metric: Metric }>(c: Drafting<R>): Mutable<Metric> {
  const copy = copyOf(c.copies.metrics, c.origin.metric as Metric);
  if (c.row.metric !== copy) sharing(c).metric = copy;
  return copy;
}

/** The batch's new resource, scope and metric for those a row came with, if any. */
function copiesFor(copies: BatchCopies, origin: Origin): { resource: Resource | undefined; scope: Scope | undefined; metric: Metric | undefined } {
  return {
    resource: copies.resources.get(origin.resource),
    scope: copies.scopes.get(origin.resource)?.get(origin.scope),
    // Only a metrics batch has copies of metrics: a log or span batch costs no lookup.
    metric: copies.metrics.size > 0 && origin.metric !== undefined ? copies.metrics.get(origin.metric) : undefined,
  };
}

/** Whether any row of the batch changed a resource, scope or metric: most statements change none, and then no row looks one up. */
export function hasCopies(copies: BatchCopies): boolean {
  return copies.resources.size > 0 || copies.scopes.size > 0 || copies.metrics.size > 0;
}

/** The batch's new resource, scope and metric put on the row being transformed, where an earlier row changed the originals. */
export function adoptCopies<R extends Grouped>(c: Drafting<R>): void {
  if (!hasCopies(c.copies)) return;
  const { resource, scope, metric } = copiesFor(c.copies, c.origin);
  if (resource !== undefined && c.row.resource !== resource) sharing(c).resource = resource;
  if (scope !== undefined && c.row.scope !== scope) sharing(c).scope = scope;
  if (metric !== undefined && c.row.metric !== metric) sharing(c).metric = metric;
}

/**
 * `row`, which came with `origin`, with the batch's new resource, scope and metric in their place,
 * for rows done before they changed: changed in place when `inPlace` (an exclusive batch's).
 */
export function withCopies<R extends Grouped>(row: R, origin: Origin, copies: BatchCopies, inPlace: boolean): R {
  const found = copiesFor(copies, origin);
  const newResource = found.resource !== undefined && row.resource !== found.resource;
  const newScope = found.scope !== undefined && row.scope !== found.scope;
  const newMetric = found.metric !== undefined && row.metric !== found.metric;
  if (!newResource && !newScope && !newMetric) return row;
  const out = (inPlace ? row : { ...row }) as Mutable<R>;
  if (newResource) out.resource = found.resource as Resource;
  if (newScope) out.scope = found.scope as Scope;
  if (newMetric) (out as Mutable<Grouped>).metric = found.metric;
  return out;
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
    copy[key.value] = at + 1 === keys.length ? item : setIn(attribute(copy, key.value) ?? null, keys, item, at + 1);
    return copy;
  }
  if (!Array.isArray(value)) throw new OttlRuntimeError(`cannot set [${key.value}] in a ${typeName(value)}: only a slice takes an integer key`);
  const list = value as readonly AnyValue[];
  if (key.value < 0n || key.value >= BigInt(list.length)) throw new OttlRuntimeError(`index ${key.value} is out of range for a slice of ${list.length}`);
  const copy = [...list];
  copy[Number(key.value)] = setIn(list[Number(key.value)] as AnyValue, keys, item, at + 1);
  return copy;
}
