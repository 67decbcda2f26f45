// OTTL's converters otelgate has, by the Collector's names, parameters and behaviour
// (pkg/ottl/ottlfuncs). Each is bound once, when its statement is compiled, to closures that take
// its arguments' values from the row.
import { hash } from 'node:crypto';
import { get, intOf, stringOf, type Converter, type Getter } from './arguments.js';
import { CASE_CONVERTERS } from './case.js';
import { OttlRuntimeError } from './errors.js';
import { PARSE_CONVERTERS } from './parse.js';
import { safeRegex } from './regex.js';
import { TIME_CONVERTERS } from './time-functions.js';
import { hex, isMap, stringLike, typeName, type OttlValue } from './values.js';

function is(test: (value: OttlValue) => boolean): Converter {
  return { params: [{ name: 'target', kind: 'value' }], bind: ([target]) => (ctx) => test(get(target)(ctx)) };
}

function textCase(name: string, change: (text: string) => string): Converter {
  return { params: [{ name: 'target', kind: 'value' }], bind: ([target]) => (ctx) => change(stringOf(get(target)(ctx), name)) };
}

/** Go's strings.Trim: `text` without the characters of `cutset` at either end (by code point). */
function trimmed(text: string, cutset: string): string {
  if (cutset === '') return text;
  const cut = new Set(cutset);
  const chars = [...text];
  let start = 0;
  let end = chars.length;
  while (start < end && cut.has(chars[start] as string)) start++;
  while (end > start && cut.has(chars[end - 1] as string)) end--;
  return start === 0 && end === chars.length ? text : chars.slice(start, end).join('');
}

function digest(name: string, algorithm: string): Converter {
  return {
    params: [{ name: 'target', kind: 'value' }],
    bind: ([target]) => (ctx) => hash(algorithm, stringOf(get(target)(ctx), name), 'hex'),
  };
}

/** Int(): a float64 truncated, a bool as 1 or 0, a decimal string parsed; nil for anything else, as the Collector. */
function toInt(value: OttlValue): OttlValue {
  switch (typeof value) {
    case 'bigint':
      return value;
    case 'number':
      return Number.isFinite(value) ? BigInt.asIntN(64, BigInt(Math.trunc(value))) : null;
    case 'boolean':
      return value ? 1n : 0n;
    case 'string':
      return /^[-+]?\d+$/.test(value) && BigInt(value) === BigInt.asIntN(64, BigInt(value)) ? BigInt(value) : null;
    default:
      return null;
  }
}

/** A decimal number as Go's strconv.ParseFloat reads it (hexadecimal and underscores aside), with inf and nan in any case. */
const GO_FLOAT = /^[-+]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|inf|infinity|nan)$/i;

/** Double(): an int64 as a float64, a bool as 1 or 0, a number in a string parsed; nil for anything else. */
function toDouble(value: OttlValue): OttlValue {
  switch (typeof value) {
    case 'number':
      return value;
    case 'bigint':
      return Number(value);
    case 'boolean':
      return value ? 1 : 0;
    case 'string': {
      if (!GO_FLOAT.test(value)) return null;
      const word = value.replace(/^[-+]/, '').toLowerCase();
      if (word === 'nan') return Number.NaN;
      if (word === 'inf' || word === 'infinity') return value.startsWith('-') ? -Infinity : Infinity;
      return Number(value);
    }
    default:
      return null;
  }
}

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = (1n << 64n) - 1n;

/** 64-bit FNV-1a of the UTF-8 bytes, as Go's hash/fnv New64a, read as an int64 (as the Collector returns it). */
function fnv1a(text: string): bigint {
  let hash = FNV_OFFSET;
  for (const byte of Buffer.from(text, 'utf8')) hash = ((hash ^ BigInt(byte)) * FNV_PRIME) & MASK_64;
  return BigInt.asIntN(64, hash);
}

/** A ByteSliceLikeGetter's bytes: a string's UTF-8, a number or bool big-endian as Go's binary.Write writes it; nil for nil. */
function bytesLike(value: OttlValue, converter: string): Uint8Array | null {
  if (value === null || value instanceof Uint8Array) return value;
  if (typeof value === 'string') return Buffer.from(value, 'utf8');
  if (typeof value === 'boolean') return Uint8Array.of(value ? 1 : 0);
  if (typeof value === 'bigint' || typeof value === 'number') {
    const bytes = Buffer.alloc(8);
    if (typeof value === 'bigint') bytes.writeBigInt64BE(value);
    else bytes.writeDoubleBE(value);
    return bytes;
  }
  throw new OttlRuntimeError(`${converter}: unsupported type: ${typeName(value)}`);
}

/** TraceID and SpanID: the id written as bytes in the statement, of its size only. */
function id(name: string, size: number): Converter {
  return {
    params: [{ name: 'bytes', kind: 'literal bytes' }],
    bind([bytes]) {
      const value = bytes as Uint8Array;
      if (value.length !== size) throw new Error(`${name === 'TraceID' ? 'traces' : 'span'} ids must be ${size} bytes`);
      return () => Uint8Array.from(value);
    },
  };
}

/** Go's utf8-byte length of a string, as len() counts it. */
const byteLength = (text: string): bigint => BigInt(Buffer.byteLength(text, 'utf8'));

export const CONVERTERS: Readonly<Record<string, Converter>> = {
  IsString: is((v) => typeof v === 'string'),
  IsInt: is((v) => typeof v === 'bigint'),
  IsDouble: is((v) => typeof v === 'number'),
  IsBool: is((v) => typeof v === 'boolean'),
  IsMap: is(isMap),
  IsList: is((v) => Array.isArray(v)),
  IsMatch: {
    params: [
      { name: 'target', kind: 'value' },
      { name: 'pattern', kind: 'literal string' },
    ],
    bind([target, pattern]) {
      const regex = safeRegex(pattern as string);
      return (ctx) => {
        const text = stringLike(get(target)(ctx));
        return text !== undefined && regex.test(text);
      };
    },
  },
  ToLowerCase: textCase('ToLowerCase', (text) => text.toLowerCase()),
  ToUpperCase: textCase('ToUpperCase', (text) => text.toUpperCase()),
  // The cutset defaults to a space; an empty one trims nothing.
  Trim: {
    params: [
      { name: 'target', kind: 'value' },
      { name: 'replacement', kind: 'literal string', optional: true },
    ],
    bind: ([target, replacement]) => {
      const cutset = (replacement as string | undefined) ?? ' ';
      return (ctx) => trimmed(stringOf(get(target)(ctx), 'Trim'), cutset);
    },
  },
  Len: {
    params: [{ name: 'target', kind: 'value' }],
    bind: ([target]) => (ctx) => {
      const value = get(target)(ctx);
      if (typeof value === 'string') return byteLength(value);
      if (Array.isArray(value)) return BigInt(value.length);
      if (isMap(value)) return BigInt(Object.keys(value).length);
      throw new OttlRuntimeError(`Len: target must be a string, a slice or a map, not ${typeName(value)}`);
    },
  },
  Concat: {
    params: [
      { name: 'vals', kind: 'list of values' },
      { name: 'delimiter', kind: 'literal string' },
    ],
    bind([vals, delimiter]) {
      const getters = vals as Getter[];
      return (ctx) => getters.map((g) => stringLike(g(ctx)) ?? '<nil>').join(delimiter as string);
    },
  },
  Split: {
    params: [
      { name: 'target', kind: 'value' },
      { name: 'delimiter', kind: 'literal string' },
    ],
    bind: ([target, delimiter]) => (ctx) => {
      const value = get(target)(ctx);
      return value === null ? null : stringOf(value, 'Split').split(delimiter as string);
    },
  },
  Substring: {
    params: [
      { name: 'target', kind: 'value' },
      { name: 'start', kind: 'value' },
      { name: 'length', kind: 'value' },
    ],
    bind: ([target, start, length]) => (ctx) => {
      const text = stringOf(get(target)(ctx), 'Substring');
      const from = intOf(get(start)(ctx), 'Substring');
      const count = intOf(get(length)(ctx), 'Substring');
      if (from < 0n) throw new OttlRuntimeError(`Substring: invalid start ${from}, it must not be negative`);
      if (count <= 0n) throw new OttlRuntimeError(`Substring: invalid length ${count}, it must be above 0`);
      const bytes = Buffer.from(text, 'utf8');
      if (from + count > BigInt(bytes.length)) throw new OttlRuntimeError(`Substring: start ${from} and length ${count} go past the end of a string of ${bytes.length} bytes`);
      return bytes.subarray(Number(from), Number(from + count)).toString('utf8');
    },
  },
  Int: { params: [{ name: 'target', kind: 'value' }], bind: ([target]) => (ctx) => toInt(get(target)(ctx)) },
  Double: { params: [{ name: 'target', kind: 'value' }], bind: ([target]) => (ctx) => toDouble(get(target)(ctx)) },
  String: { params: [{ name: 'target', kind: 'value' }], bind: ([target]) => (ctx) => stringLike(get(target)(ctx)) ?? null },
  FNV: { params: [{ name: 'target', kind: 'value' }], bind: ([target]) => (ctx) => fnv1a(stringOf(get(target)(ctx), 'FNV')) },
  Hex: {
    params: [{ name: 'target', kind: 'value' }],
    bind: ([target]) => (ctx) => {
      const bytes = bytesLike(get(target)(ctx), 'Hex');
      return bytes === null ? '' : hex(bytes);
    },
  },
  TraceID: id('TraceID', 16),
  SpanID: id('SpanID', 8),
  ...CASE_CONVERTERS,
  ...PARSE_CONVERTERS,
  ...TIME_CONVERTERS,
  SHA256: digest('SHA256', 'sha256'),
  SHA1: digest('SHA1', 'sha1'),
  MD5: digest('MD5', 'md5'),
};
