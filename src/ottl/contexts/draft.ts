// Copy-on-write for statements that change rows: a row being transformed is a shallow copy made at
// its first change (the row that came is never written), and a resource or scope changed by one
// row is one new object for every row of the batch that had the original, as the Collector's
// statements change a resource that all the records under it share.
import { isAttributes, newAttributes, type AnyValue, type Attributes, type MutableAttributes } from '../../model/anyvalue.js';
import type { Resource, Scope } from '../../model/resource.js';
import type { Key } from '../ast.js';
import { OttlRuntimeError } from '../errors.js';
import { typeName } from '../values.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

interface Grouped {
  readonly resource: Resource;
  readonly scope: Scope;
}

/** A batch's new resources and scopes, by the original each replaces. */
export interface BatchCopies {
  readonly resources: Map<Resource, Mutable<Resource>>;
  readonly scopes: Map<Scope, Mutable<Scope>>;
}

/** A row being transformed: `row` is what statements read (the row that came, until a first change copies it). */
export interface Drafting<R extends Grouped> {
  row: R;
  original: R;
  drafted: boolean;
  readonly project: string;
  readonly copies: BatchCopies;
}

export function newCopies(): BatchCopies {
  return { resources: new Map(), scopes: new Map() };
}

export function draft<R extends Grouped>(c: Drafting<R>): Mutable<R> {
  if (!c.drafted) {
    c.row = { ...c.row };
    c.drafted = true;
  }
  return c.row as Mutable<R>;
}

export function draftResource<R extends Grouped>(c: Drafting<R>): Mutable<Resource> {
  const original = c.original.resource;
  let copy = c.copies.resources.get(original);
  if (copy === undefined) {
    copy = { ...original };
    c.copies.resources.set(original, copy);
  }
  if (c.row.resource !== copy) draft(c).resource = copy;
  return copy;
}

export function draftScope<R extends Grouped>(c: Drafting<R>): Mutable<Scope> {
  const original = c.original.scope;
  let copy = c.copies.scopes.get(original);
  if (copy === undefined) {
    copy = { ...original };
    c.copies.scopes.set(original, copy);
  }
  if (c.row.scope !== copy) draft(c).scope = copy;
  return copy;
}

/** `row` with the batch's new resource and scope in place of its originals, for rows done before they changed. */
export function withCopies<R extends Grouped>(row: R, copies: BatchCopies): R {
  const resource = copies.resources.get(row.resource);
  const scope = copies.scopes.get(row.scope);
  if (resource === undefined && scope === undefined) return row;
  return { ...row, resource: resource ?? row.resource, scope: scope ?? row.scope };
}

/**
 * `value` with `value` set at `keys` (maps by string keys, lists by index), copying each map or
 * list on the way: nothing that was there is changed. A missing map on the way is made, as the
 * Collector makes it.
 */
export function setIn(value: AnyValue, keys: readonly Key[], item: AnyValue): AnyValue {
  const [key, ...rest] = keys;
  if (key === undefined) return item;
  if (key.kind === 'string') {
    const base: Attributes = value !== null && isAttributes(value) ? value : newAttributes();
    if (value !== null && !isAttributes(value)) throw new OttlRuntimeError(`cannot set "${key.value}" in a ${typeName(value)}: only a map takes a string key`);
    const copy: MutableAttributes = Object.assign(newAttributes(), base);
    copy[key.value] = setIn(Object.hasOwn(base, key.value) ? (base[key.value] as AnyValue) : null, rest, item);
    return copy;
  }
  if (!Array.isArray(value)) throw new OttlRuntimeError(`cannot set [${key.value}] in a ${typeName(value)}: only a slice takes an integer key`);
  const list = value as readonly AnyValue[];
  if (key.value < 0n || key.value >= BigInt(list.length)) throw new OttlRuntimeError(`index ${key.value} is out of range for a slice of ${list.length}`);
  const copy = [...list];
  copy[Number(key.value)] = setIn(list[Number(key.value)] as AnyValue, rest, item);
  return copy;
}
