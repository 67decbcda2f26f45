// OTLP/JSON common messages read straight from the bytes (reader.ts): AnyValue, KeyValue lists,
// Resource and InstrumentationScope.
//
// Each object is read in one pass, members in the order sent. JSON.parse's reading of an object
// (a name given twice: the last wins; both spellings of a field: lowerCamelCase wins unless null)
// is kept by reading the object again from where each winning value starts, only when a field
// does come twice. A value of the wrong type is skipped and remembered, so that a later
// duplicate can still stand in for it; the object fails only if none does. AnyValue and KeyValue,
// which nest in each other up to 64 levels, are read once even then, keeping what the last
// occurrence of each member gave: reading a value again at each level would double the work with
// each level (2^60 readings for a body of a few kB with a name given twice at every level).
import type { Building } from '../../model/building.js';
import { deeper, newAttributes, type AnyValue, type MutableAttributes } from '../../model/anyvalue.js';
import type { Resource, Scope } from '../../model/resource.js';
import { NameTable, UNKNOWN } from './names.js';
import { END, LBRACE, LBRACKET, QUOTE, ShapeError, type JsonReader } from './reader.js';
import { base64, bool, double, int32, int64, text } from './values.js';

/** What skips one record (or one resource or scope header) and no more: a wrong type, or nesting deeper than the stack. */
export function skipsRecord(error: unknown): boolean {
  return error instanceof ShapeError || error instanceof RangeError;
}

/**
 * Reads the value of field `field` at the reader into `into`. A field is a member's id in its
 * NameTable over 2: a field's two spellings are ids 2k and 2k+1 (lowerCamelCase first); a field
 * with one spelling takes both, the second '' and never matched.
 */
export type FieldReader<T> = (r: JsonReader, into: T, field: number) => void;

/**
 * At '{': the object's fields into `into` (as made empty), in one pass, members in the order sent;
 * false, with the reader back at the '{', when a field comes twice: fieldsExact() then reads the
 * object into another empty `into`. A value of the wrong type is skipped and remembered, and
 * throws at the end unless a duplicate came. At most 32 fields. `bits`: each field's bit in the set
 * of fields seen, where the members of a oneof share one (so that an object holding two is read as
 * JSON.parse leaves it); else a bit each.
 */
export function fieldsOnce<T>(r: JsonReader, table: NameTable, into: T, read: FieldReader<T>, bits?: readonly number[]): boolean {
  const start = r.pos;
  let seen = 0;
  let failed = false;
  r.openObject();
  for (let id = r.member(table, UNKNOWN); id !== END; id = r.member(table, id)) {
    if (id === UNKNOWN) {
      r.skip();
      continue;
    }
    const field = id >> 1;
    const bit = bits === undefined ? 1 << field : (bits[field] as number);
    if ((seen & bit) !== 0) {
      r.pos = start;
      return false;
    }
    seen |= bit;
    const at = r.pos;
    try {
      read(r, into, field);
    } catch (error) {
      if (!(error instanceof ShapeError)) throw error;
      failed = true;
      r.pos = at;
      r.skip();
    }
  }
  if (failed) throw new ShapeError('a member has the wrong type');
  return true;
}

/** At '{': each field's winning value as JSON.parse would leave it, into `into` (as made empty); the reader ends past the object. */
export function fieldsExact<T>(r: JsonReader, table: NameTable, into: T, read: FieldReader<T>): void {
  const at = r.members(table);
  const end = r.pos;
  for (let field = 0; field < table.size >> 1; field++) {
    const p = r.pick(at, field * 2, field * 2 + 1);
    if (p === -1) continue;
    r.pos = p;
    read(r, into, field);
  }
  r.pos = end;
}

// AnyValue's members: id >> 1 is the kind, in the order today's decoders take them when one
// object holds several (string first, bytes last).
const ANY = new NameTable(['stringValue', 'string_value', 'boolValue', 'bool_value', 'intValue', 'int_value', 'doubleValue', 'double_value', 'arrayValue', 'array_value', 'kvlistValue', 'kvlist_value', 'bytesValue', 'bytes_value']);
const VALUES = new NameTable(['values']);
const KEY_VALUE = new NameTable(['key', 'value']);
const KEY = 0;

/** A member of the wrong type, as memberValue() answers. */
const WRONG: unique symbol = Symbol('a value of the wrong type');
type Reading = AnyValue | typeof WRONG;

/**
 * An AnyValue (an object, or null for the empty value): the first kind present, in ANY's order.
 * `repeats`: its string is likely met before (see attributes()).
 */
export function anyValue(r: JsonReader, repeats = false): AnyValue {
  if (r.null()) return null;
  if (r.buf[r.pos] !== LBRACE) throw new ShapeError('value is not an AnyValue object');
  r.openObject();
  // The usual object has one member; with several, each id's last reading is kept (undefined:
  // absent or null), and the smallest id with one wins, as pick() would choose.
  let only: Reading | undefined;
  let onlyId = UNKNOWN;
  let readings: (Reading | undefined)[] | undefined;
  for (let id = r.member(ANY, UNKNOWN); id !== END; id = r.member(ANY, id)) {
    if (id === UNKNOWN) {
      r.skip();
      continue;
    }
    const reading = r.null() ? undefined : memberValue(r, id >> 1, repeats);
    if (onlyId === UNKNOWN) {
      onlyId = id;
      only = reading;
      continue;
    }
    if (readings === undefined) {
      readings = new Array<Reading | undefined>(ANY.size);
      readings[onlyId] = only;
    }
    readings[id] = reading;
  }
  const value = readings === undefined ? only : readings.find((reading) => reading !== undefined);
  if (value === WRONG) throw new ShapeError('an AnyValue member has the wrong type');
  return value ?? null;
}

/** The value of an AnyValue member of `kind`, or WRONG (the reader past it either way). */
function memberValue(r: JsonReader, kind: number, repeats: boolean): Reading {
  const at = r.pos;
  try {
    return kindValue(r, kind, repeats);
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error;
    r.pos = at;
    r.skip();
    return WRONG;
  }
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
 * Where JsonReader.key() keeps its guesses for strings likely to repeat. Kinds of attribute lists
 * alternate in a body (a span's attributes, then its events'): each kind has places of its own,
 * one for each of its first 16 keys, so that a key is guessed from the last list of its kind.
 * Other strings that repeat from record to record (span and event names) have a place each.
 */
export const GUESSES = { attributes: 0, eventAttributes: 16, linkAttributes: 32, spanName: 48, eventName: 49 } as const;
const LIST_PLACES = 16;

/**
 * A list of KeyValue into `into`; a later duplicate key wins. null is the empty list. `places`: its
 * kind's (GUESSES). `repeats`: the values are likely met before (a metric's points carry few
 * distinct ones), and their strings are read through the reader's cache.
 */
export function attributes(r: JsonReader, into: MutableAttributes, places: number = GUESSES.attributes, repeats = false): void {
  if (r.null()) return;
  if (r.buf[r.pos] !== LBRACKET) throw new ShapeError('attributes is not a list');
  r.openArray();
  for (let index = 0; r.item(); index++) keyValue(r, into, places + (index & (LIST_PLACES - 1)), repeats);
}

function keyValue(r: JsonReader, into: MutableAttributes, place: number, repeats: boolean): void {
  if (r.buf[r.pos] !== LBRACE) throw new ShapeError('attribute is not a {key, value} object');
  r.openObject();
  let key = '';
  let value: AnyValue = null;
  // The members whose last occurrence had the wrong type: a later one stands in for an earlier one.
  let wrong = 0;
  for (let id = r.member(KEY_VALUE, UNKNOWN); id !== END; id = r.member(KEY_VALUE, id)) {
    if (id === UNKNOWN) {
      r.skip();
      continue;
    }
    const at = r.pos;
    try {
      if (id === KEY) key = repeatedText(r, place);
      else value = anyValue(r, repeats);
      wrong &= ~(1 << id);
    } catch (error) {
      if (!(error instanceof ShapeError)) throw error;
      wrong |= 1 << id;
      r.pos = at;
      r.skip();
    }
  }
  if (wrong !== 0) throw new ShapeError('an attribute has a member of the wrong type');
  into[key] = value;
}

/** A string likely to repeat (an attribute key, a span's name), as text() reads it: the same bytes give the same string. `place`: see GUESSES. */
export function repeatedText(r: JsonReader, place: number): string {
  if (r.null()) return '';
  if (r.buf[r.pos] !== QUOTE) throw new ShapeError('not a string');
  return r.key(place);
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
