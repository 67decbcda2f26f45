// The simple JSON log endpoint's records read straight from the body's bytes (JsonReader, from
// src/otlp/json/reader.ts), not through JSON.parse: each field comes out as the rows took it from
// JSON.parse's object of the record before, aliases, duplicates and all.
//
// A record is read in one pass. Each name keeps the value of its last occurrence (JSON.parse's
// reading of a name given twice), so a later duplicate just replaces an earlier one, and which of
// a field's two names counts (the first present and not null) is settled when the record ends.
// Strings, numbers, true and false, and a context object are read from the bytes. Any other value
// (an object or array where text is wanted, a timestamp that is no string or number, a context that
// is no object) is kept as where its bytes lie, and read with JSON.parse of just those bytes if the
// record uses it; so is a context whose JavaScript object would not list its keys in the order sent
// (flattenAt() says when). Those values come to flatten.ts as JSON.parse makes them, so every
// answer, stack overflows on absurd nesting included, is the one JSON.parse's object gave.
import { newAttributes, type MutableAttributes } from '../model/anyvalue.js';
import { NameTable, UNKNOWN } from '../otlp/json/names.js';
import { END, latin1Slice, LBRACE, LBRACKET, N, utf8Slice, type JsonReader } from '../otlp/json/reader.js';
import { double, LOWER_HEX } from '../otlp/json/values.js';
import { flatten, isJsonObject, jsonText } from './flatten.js';
import { parseTimestamp } from './time.js';

// Field k has the ids 2k and 2k+1: its name, then its alias ('' for none: it matches nothing).
const NAMES = [
  'message', 'body',
  'trace_id', 'traceId',
  'span_id', 'spanId',
  'service', 'service_name',
  'level', 'severity',
  'scope', '',
  'event', '',
  'timestamp', 'time',
  'context', 'attributes',
];
const RECORD = new NameTable(NAMES);
const IDS = NAMES.length;

/** The text fields, for SimpleRecord.text(). From SERVICE on, values repeat from record to record. */
export const MESSAGE = 0;
export const TRACE_ID = 1;
export const SPAN_ID = 2;
export const SERVICE = 3;
export const LEVEL = 4;
export const SCOPE = 5;
export const EVENT = 6;
const TIME = 7;
const CONTEXT = 8;

// What a name's value is in the record being read, and where it is kept.
/** Not sent, or null: the field's other name is tried. */
const ABSENT = 0;
/** A string, in texts (and for ids, in plainHex whether it is lower-case hex). */
const STRING = 1;
/** A number or a boolean as jsonText() writes it, in texts. */
const TEXT = 2;
/** A number, in numbers (a timestamp). */
const NUMBER = 3;
/** An object flattened, in maps (a context). */
const MAP = 4;
/** Anything else: its bytes, from starts to ends, for JSON.parse. */
const SLICE = 5;

const QUOTE = 0x22;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const T = 0x74;
const F = 0x66;

const NO_BODY = Buffer.alloc(0);

/**
 * One record's fields, each as the rows took it from JSON.parse's object: read() fills it, the
 * rest answer. One serves every record of every body (reading is synchronous), so that a body of
 * one record does not pay for its arrays; release() after each body.
 */
export class SimpleRecord {
  private readonly kinds = new Uint8Array(IDS);
  private readonly plainHex = new Uint8Array(IDS);
  private readonly texts = new Array<string | undefined>(IDS).fill(undefined);
  private readonly numbers = new Float64Array(IDS);
  private readonly maps = new Array<MutableAttributes | undefined>(IDS).fill(undefined);
  private readonly starts = new Int32Array(IDS);
  private readonly ends = new Int32Array(IDS);
  private buf: Buffer = NO_BODY;

  /** Reads the record object at the reader (at its '{'), which ends past it. */
  read(r: JsonReader): void {
    this.buf = r.buf;
    this.kinds.fill(ABSENT);
    r.openObject();
    for (let id = r.member(RECORD, UNKNOWN); id !== END; id = r.member(RECORD, id)) {
      if (id === UNKNOWN) r.skip();
      else if (id < TIME * 2) this.readText(r, id);
      else if (id < CONTEXT * 2) this.readTime(r, id);
      else this.readContext(r, id);
    }
  }

  private readText(r: JsonReader, id: number): void {
    const b = r.buf[r.pos];
    if (b === N) {
      r.literal('null');
      this.kinds[id] = ABSENT;
      return;
    }
    if (b === QUOTE) {
      this.kinds[id] = STRING;
      this.texts[id] = this.readString(r, id);
      return;
    }
    const text = scalarText(r);
    if (text === undefined) {
      this.keepSlice(r, id);
      return;
    }
    this.kinds[id] = TEXT;
    this.texts[id] = text;
  }

  private readString(r: JsonReader, id: number): string {
    const field = id >> 1;
    if (field === MESSAGE) return r.string();
    if (field === TRACE_ID || field === SPAN_ID) return this.readId(r, id);
    // Services, levels, scopes and events repeat from record to record: the same bytes give back
    // the same string, made once.
    return r.key(id);
  }

  /** An id's string, noting whether it is lower-case hex (then its own id: no test of the text is needed). */
  private readId(r: JsonReader, id: number): string {
    const { buf } = r;
    const start = r.pos + 1;
    let i = start;
    while (LOWER_HEX[buf[i] as number] === 1) i++;
    if (buf[i] === QUOTE) {
      this.plainHex[id] = 1;
      r.pos = i + 1;
      return latin1Slice.call(buf, start, i);
    }
    this.plainHex[id] = 0;
    return r.string();
  }

  private readTime(r: JsonReader, id: number): void {
    const b = r.buf[r.pos] as number;
    if (b === QUOTE) {
      this.kinds[id] = STRING;
      this.texts[id] = r.string();
    } else if (b === N) {
      r.literal('null');
      this.kinds[id] = ABSENT;
    } else if (b === MINUS || (b >= ZERO && b <= NINE)) {
      this.kinds[id] = NUMBER;
      this.numbers[id] = double(r);
    } else {
      this.keepSlice(r, id);
    }
  }

  private readContext(r: JsonReader, id: number): void {
    const b = r.buf[r.pos];
    if (b === N) {
      r.literal('null');
      this.kinds[id] = ABSENT;
      return;
    }
    if (b === LBRACE) {
      const start = r.pos;
      const map = newAttributes();
      if (flattenContext(r, map)) {
        this.kinds[id] = MAP;
        this.maps[id] = map;
        return;
      }
      // Given up past a member's name, the reader is as it was at the context, but for where it is.
      r.pos = start;
    }
    this.keepSlice(r, id);
  }

  /** Skips the value at the reader (checking it is JSON), keeping where it lies. */
  private keepSlice(r: JsonReader, id: number): void {
    this.starts[id] = r.pos;
    r.skip();
    this.ends[id] = r.pos;
    this.kinds[id] = SLICE;
  }

  /** Lets go of the body and of what was read from it, which the next body's reading would otherwise keep alive. */
  release(): void {
    this.buf = NO_BODY;
    this.texts.fill(undefined);
    this.maps.fill(undefined);
  }

  /** Of a field's two names, the one pick() took: the first present and not null; -1 for neither. */
  private chosen(field: number): number {
    const id = field * 2;
    if (this.kinds[id] !== ABSENT) return id;
    return this.kinds[id + 1] !== ABSENT ? id + 1 : -1;
  }

  /** A text field (MESSAGE to EVENT) as jsonText() made it of JSON.parse's value; undefined when not sent or null. */
  text(field: number): string | undefined {
    const id = this.chosen(field);
    if (id === -1) return undefined;
    return this.kinds[id] === SLICE ? jsonText(this.parsed(id)) : this.texts[id];
  }

  /** Whether an id (TRACE_ID, SPAN_ID) was sent as a string of lower-case hex digits. */
  isLowerHex(field: number): boolean {
    const id = this.chosen(field);
    return id !== -1 && this.kinds[id] === STRING && this.plainHex[id] === 1;
  }

  /** Whether a text field was sent as a string (a level is looked up by name only then). */
  isString(field: number): boolean {
    const id = this.chosen(field);
    return id !== -1 && this.kinds[id] === STRING;
  }

  /** The record's time as parseTimestamp() reads the value sent: undefined when none is usable. */
  time(): bigint | undefined {
    const id = this.chosen(TIME);
    if (id === -1) return undefined;
    const kind = this.kinds[id];
    if (kind === STRING) return parseTimestamp(this.texts[id]);
    if (kind === NUMBER) return parseTimestamp(this.numbers[id]);
    return parseTimestamp(this.parsed(id));
  }

  /** The record's attributes: its context flattened, else a new empty map. */
  attributes(): MutableAttributes {
    const id = this.chosen(CONTEXT);
    if (id === -1) return newAttributes();
    if (this.kinds[id] === MAP) return this.maps[id] as MutableAttributes;
    const value = this.parsed(id);
    return isJsonObject(value) ? flatten(value) : newAttributes();
  }

  /** A value kept as a slice, as JSON.parse makes it (its bytes are JSON: skip() checked them). */
  private parsed(id: number): unknown {
    return JSON.parse(utf8Slice.call(this.buf, this.starts[id] as number, this.ends[id] as number)) as unknown;
  }
}

/** At a string, a number, true or false: the text jsonText() makes of JSON.parse's value; undefined (the reader unmoved) at anything else. */
function scalarText(r: JsonReader): string | undefined {
  const b = r.buf[r.pos] as number;
  if (b === QUOTE) return r.string();
  if (b === T) {
    r.literal('true');
    return 'true';
  }
  if (b === F) {
    r.literal('false');
    return 'false';
  }
  // The double JSON.parse reads, written by String(): 1e2 is "100", 1.50 is "1.5".
  if (b === MINUS || (b >= ZERO && b <= NINE)) return String(double(r));
  return undefined;
}

/** Nesting flattenAt() follows; a deeper context is flattened from JSON.parse's object, whose recursion decides how deep is too deep. */
const MAX_DEPTH = 32;

/** Members whose values are objects that flattenAt() takes in one object; one with more is flattened from JSON.parse's object. */
const MAX_OBJECTS = 16;

/**
 * The context being flattened: the keys read so far (key()'s index), and in objectKeys[0, objects)
 * the keys of members whose values are objects, for each object being read, outer ones first.
 */
const context = { keys: 0, objects: 0 };
const objectKeys = new Array<string>(MAX_DEPTH * MAX_OBJECTS).fill('');

function flattenContext(r: JsonReader, into: MutableAttributes): boolean {
  context.keys = 0;
  context.objects = 0;
  return flattenAt(r, into, '', 0);
}

/**
 * Flattens the object at the reader into `into` as flatten() does JSON.parse's object of it: key
 * by key in the order sent. False, the reader somewhere inside past a member's name, where that
 * order or reading could differ: a key given twice in one object (JSON.parse keeps its first place
 * and its last value), a key of digits only (JavaScript lists integer-like keys first, in numeric
 * order), more than MAX_DEPTH levels or MAX_OBJECTS objects in one, an array JSON.stringify could
 * not write. A name met twice from different paths ("a.b" and {"a":{"b"}}) is taken for a
 * duplicate too: rare, and exact either way.
 */
function flattenAt(r: JsonReader, into: MutableAttributes, prefix: string, depth: number): boolean {
  // This object's keys of objects start here; a nested object's come after them while it is read.
  const first = context.objects;
  r.openObject();
  for (let key = r.memberKey(context.keys); key !== undefined; key = r.memberKey(context.keys)) {
    const name = dotted(prefix, key, context.keys++);
    // A key given twice: as a value's name (into has it), or as an object's.
    if (digitsOnly(key) || into[name] !== undefined || objectKeyIn(key, first)) return false;
    if (r.buf[r.pos] === LBRACE) {
      const objects = context.objects;
      if (depth === MAX_DEPTH || objects - first === MAX_OBJECTS) return false;
      objectKeys[objects] = key;
      context.objects = objects + 1;
      if (!flattenAt(r, into, name, depth + 1)) return false;
      context.objects = objects + 1;
      continue;
    }
    const text = leafText(r);
    if (text === undefined) return false;
    into[name] = text;
  }
  return true;
}

// The dotted names of the last context, by key index: records of one sender nest the same keys
// the same way, and a name made again would be joined, and hashed when stored, again.
const NAME_SLOTS = 64;
const namePrefixes = new Array<string>(NAME_SLOTS).fill('');
const nameKeys = new Array<string>(NAME_SLOTS).fill('');
const names = new Array<string>(NAME_SLOTS).fill('');

/** `prefix.key`, or `key` at the top; `index`: the key's place in its context. */
function dotted(prefix: string, key: string, index: number): string {
  if (prefix === '') return key;
  if (index >= NAME_SLOTS) return `${prefix}.${key}`;
  if (nameKeys[index] === key && namePrefixes[index] === prefix) return names[index] as string;
  const name = `${prefix}.${key}`;
  namePrefixes[index] = prefix;
  nameKeys[index] = key;
  names[index] = name;
  return name;
}

function objectKeyIn(key: string, first: number): boolean {
  for (let i = first; i < context.objects; i++) if (objectKeys[i] === key) return true;
  return false;
}

function digitsOnly(key: string): boolean {
  if (key.length === 0) return false;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < ZERO || c > NINE) return false;
  }
  return true;
}

/** A context value that is no object, as flatten() writes it; undefined for an array JSON.stringify fails on. */
function leafText(r: JsonReader): string | undefined {
  const b = r.buf[r.pos];
  if (b === N) {
    r.literal('null');
    return 'null';
  }
  if (b === LBRACKET) return stringified(r);
  return scalarText(r) ?? r.fail('expected a value');
}

/**
 * The value at the reader as JSON.stringify writes JSON.parse's value of it (white space gone,
 * strings and numbers written JavaScript's way); undefined where that throws (nesting too deep for
 * the stack), which the record's reading of it as a whole then repeats, or not if it is not used.
 */
function stringified(r: JsonReader): string | undefined {
  const start = r.pos;
  r.skip();
  try {
    return JSON.stringify(JSON.parse(utf8Slice.call(r.buf, start, r.pos)));
  } catch {
    return undefined;
  }
}
