// OTLP/JSON common messages read straight from the bytes (reader.ts): AnyValue, KeyValue lists,
// Resource and InstrumentationScope.
//
// Each object is read in one pass, members in the order sent. JSON.parse's reading of an object
// (a name given twice: the last wins; both spellings of a field: lowerCamelCase wins unless null)
// is kept by reading the object again from where each winning value starts, only when a field
// does come twice. A value of the wrong type is skipped and remembered, so that a later
// duplicate can still stand in for it; the object fails only if none does.
import type { Building } from '../../model/building.js';
import { deeper, newAttributes, type AnyValue, type MutableAttributes } from '../../model/anyvalue.js';
import type { Resource, Scope } from '../../model/resource.js';
import { NameTable, UNKNOWN } from './names.js';
import { END, LBRACE, LBRACKET, N, ShapeError, type JsonReader } from './reader.js';
import { base64, bool, double, int32, int64, text } from './values.js';

/** What skips one record (or one resource or scope header) and no more: a wrong type, or nesting deeper than the stack. */
export function skipsRecord(error: unknown): boolean {
  return error instanceof ShapeError || error instanceof RangeError;
}

// AnyValue's members: id >> 1 is the kind, in the order today's decoders take them when one
// object holds several (string first, bytes last).
const ANY = new NameTable(['stringValue', 'string_value', 'boolValue', 'bool_value', 'intValue', 'int_value', 'doubleValue', 'double_value', 'arrayValue', 'array_value', 'kvlistValue', 'kvlist_value', 'bytesValue', 'bytes_value']);
const KINDS = 7;
const VALUES = new NameTable(['values']);
const KEY_VALUE = new NameTable(['key', 'value']);
const KEY = 0;

/** An AnyValue (an object, or null for the empty value). `repeats`: its string is likely met before (see attributes()). */
export function anyValue(r: JsonReader, repeats = false): AnyValue {
  if (r.null()) return null;
  if (r.buf[r.pos] !== LBRACE) throw new ShapeError('value is not an AnyValue object');
  const start = r.pos;
  r.openObject();
  let value: AnyValue = null;
  let seen = false;
  let failed = false;
  for (let id = r.member(ANY, UNKNOWN); id !== END; id = r.member(ANY, id)) {
    if (id === UNKNOWN) {
      r.skip();
      continue;
    }
    if (seen) {
      r.pos = start;
      return exactAnyValue(r, repeats);
    }
    seen = true;
    if (r.null()) continue;
    const at = r.pos;
    try {
      value = kindValue(r, id >> 1, repeats);
    } catch (error) {
      if (!(error instanceof ShapeError)) throw error;
      failed = true;
      r.pos = at;
      r.skip();
    }
  }
  if (failed) throw new ShapeError('an AnyValue member has the wrong type');
  return value;
}

/** An AnyValue holding more than one member: the first kind present, in ANY's order. */
function exactAnyValue(r: JsonReader, repeats: boolean): AnyValue {
  const at = r.members(ANY);
  const end = r.pos;
  let value: AnyValue = null;
  for (let kind = 0; kind < KINDS; kind++) {
    const p = r.pick(at, kind * 2, kind * 2 + 1);
    if (p === -1 || r.buf[p] === N) continue;
    r.pos = p;
    value = kindValue(r, kind, repeats);
    break;
  }
  r.pos = end;
  return value;
}

/** How deep kindValue() is in lists and maps (reading is synchronous: one value at a time). */
const depth = { now: 0 };
const tooDeep = (message: string): Error => new ShapeError(message);

function kindValue(r: JsonReader, kind: number, repeats: boolean): AnyValue {
  switch (kind) {
    case 0:
      return text(r, repeats);
    case 1:
      return bool(r);
    case 2:
      return int64(r);
    case 3:
      return double(r);
    case 4:
      return deeper(depth, tooDeep, () => {
        const values: AnyValue[] = [];
        listOf(r, values, arrayItems);
        return values;
      });
    case 5:
      return deeper(depth, tooDeep, () => {
        const map = newAttributes();
        listOf(r, map, attributes);
        return map;
      });
    default:
      return base64(r);
  }
}

/** ArrayValue and KeyValueList: an object whose `values` list is read into `into` (empty) by `read`. */
function listOf<T extends AnyValue[] | MutableAttributes>(r: JsonReader, into: T, read: (r: JsonReader, into: T) => void): void {
  if (r.buf[r.pos] !== LBRACE) throw new ShapeError('arrayValue or kvlistValue is not an object');
  const start = r.pos;
  r.openObject();
  let seen = false;
  let failed = false;
  for (let id = r.member(VALUES, UNKNOWN); id !== END; id = r.member(VALUES, id)) {
    if (id === UNKNOWN) {
      r.skip();
      continue;
    }
    if (seen) {
      // `values` twice: only the last counts.
      r.pos = start;
      const at = r.members(VALUES);
      const end = r.pos;
      if (Array.isArray(into)) into.length = 0;
      else for (const key of Object.keys(into)) delete into[key];
      r.pos = at[0] as number;
      read(r, into);
      r.pos = end;
      return;
    }
    seen = true;
    const at = r.pos;
    try {
      read(r, into);
    } catch (error) {
      if (!(error instanceof ShapeError)) throw error;
      failed = true;
      r.pos = at;
      r.skip();
    }
  }
  if (failed) throw new ShapeError('values has a member of the wrong type');
}

function arrayItems(r: JsonReader, into: AnyValue[]): void {
  if (r.null()) return;
  if (r.buf[r.pos] !== LBRACKET) throw new ShapeError('arrayValue.values is not a list');
  r.openArray();
  while (r.item()) into.push(anyValue(r));
}

/**
 * A list of KeyValue into `into`; a later duplicate key wins. null is the empty list. `repeats`:
 * the values are likely met before (a metric's points carry few distinct ones), and their strings
 * are read through the reader's cache.
 */
export function attributes(r: JsonReader, into: MutableAttributes, repeats = false): void {
  if (r.null()) return;
  if (r.buf[r.pos] !== LBRACKET) throw new ShapeError('attributes is not a list');
  r.openArray();
  for (let index = 0; r.item(); index++) keyValue(r, into, index, repeats);
}

function keyValue(r: JsonReader, into: MutableAttributes, index: number, repeats: boolean): void {
  if (r.buf[r.pos] !== LBRACE) throw new ShapeError('attribute is not a {key, value} object');
  const start = r.pos;
  r.openObject();
  let key = '';
  let value: AnyValue = null;
  let seen = 0;
  let failed = false;
  for (let id = r.member(KEY_VALUE, UNKNOWN); id !== END; id = r.member(KEY_VALUE, id)) {
    if (id === UNKNOWN) {
      r.skip();
      continue;
    }
    const bit = 1 << id;
    if ((seen & bit) !== 0) {
      r.pos = start;
      const at = r.members(KEY_VALUE);
      const end = r.pos;
      key = '';
      value = null;
      if (at[KEY] !== -1) {
        r.pos = at[KEY] as number;
        key = readKey(r, index);
      }
      if (at[1] !== -1) {
        r.pos = at[1] as number;
        value = anyValue(r, repeats);
      }
      r.pos = end;
      into[key] = value;
      return;
    }
    seen |= bit;
    const at = r.pos;
    try {
      if (id === KEY) key = readKey(r, index);
      else value = anyValue(r, repeats);
    } catch (error) {
      if (!(error instanceof ShapeError)) throw error;
      failed = true;
      r.pos = at;
      r.skip();
    }
  }
  if (failed) throw new ShapeError('an attribute has a member of the wrong type');
  into[key] = value;
}

function readKey(r: JsonReader, index: number): string {
  if (r.null()) return '';
  if (r.buf[r.pos] !== 0x22) throw new ShapeError('attribute key is not a string');
  return r.key(index);
}

const RESOURCE = new NameTable(['attributes', 'droppedAttributesCount', 'dropped_attributes_count']);
const SCOPE = new NameTable(['name', 'version', 'attributes', 'droppedAttributesCount', 'dropped_attributes_count']);

/** Resource, into `res` (empty); anything but an object is an empty resource. Read once per resource, so always as JSON.parse would. */
export function readResource(r: JsonReader, res: Building<Resource>): void {
  if (r.buf[r.pos] !== LBRACE) {
    r.skip();
    return;
  }
  const at = r.members(RESOURCE);
  const end = r.pos;
  if (at[0] !== -1) {
    r.pos = at[0] as number;
    attributes(r, res.attributes);
  }
  const dropped = r.pick(at, 1, 2);
  if (dropped !== -1) {
    r.pos = dropped;
    res.droppedAttributesCount = int32(r);
  }
  r.pos = end;
}

/** InstrumentationScope, into `sc` (empty); anything but an object is an empty scope. */
export function readScope(r: JsonReader, sc: Building<Scope>): void {
  if (r.buf[r.pos] !== LBRACE) {
    r.skip();
    return;
  }
  const at = r.members(SCOPE);
  const end = r.pos;
  if (at[0] !== -1) {
    r.pos = at[0] as number;
    sc.name = text(r);
  }
  if (at[1] !== -1) {
    r.pos = at[1] as number;
    sc.version = text(r);
  }
  if (at[2] !== -1) {
    r.pos = at[2] as number;
    attributes(r, sc.attributes);
  }
  const dropped = r.pick(at, 3, 4);
  if (dropped !== -1) {
    r.pos = dropped;
    sc.droppedAttributesCount = int32(r);
  }
  r.pos = end;
}
