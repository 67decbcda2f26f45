// OTTL's converters otelgate has, by the Collector's names, parameters and behaviour
// (pkg/ottl/ottlfuncs). Each is bound once, when its statement is compiled, to closures that take
// its arguments' values from the row.
import { createHash } from 'node:crypto';
import { isAttributes, type AnyValue } from '../model/anyvalue.js';
import { OttlRuntimeError } from './errors.js';
import { safeRegex } from './regex.js';
import { stringLike, typeName } from './values.js';

/** How a value is had from the thing being evaluated; the context type does not matter to a converter. */
export type Getter = (ctx: never) => AnyValue;

/**
 * A parameter: any value from the row; a path the function reads and sets; a string or an integer
 * written in the statement; a list of values, or of strings, written in the statement.
 */
export type ParamKind = 'value' | 'path' | 'literal string' | 'literal int' | 'list of values' | 'list of strings';

/** A path argument: read and set. */
export interface PathArgument {
  get: Getter;
  set: (ctx: never, value: AnyValue) => void;
}

export interface Param {
  name: string;
  kind: ParamKind;
  optional?: boolean;
}

/** An argument as bound, by its kind; undefined when an optional one is not given. */
export type Bound = Getter | PathArgument | string | bigint | Getter[] | string[] | undefined;

export interface Converter {
  params: Param[];
  /** The converter's closure over its bound arguments; may throw an OttlError-worthy message as a plain Error at bind time. */
  bind(args: Bound[]): Getter;
}

const get = (arg: Bound): Getter => arg as Getter;

/** A StringGetter's value: a string, else an error naming what it got. */
function stringOf(value: AnyValue, converter: string): string {
  if (typeof value !== 'string') throw new OttlRuntimeError(`${converter}: expected string but got ${typeName(value)}`);
  return value;
}

function intOf(value: AnyValue, converter: string): bigint {
  if (typeof value !== 'bigint') throw new OttlRuntimeError(`${converter}: expected int64 but got ${typeName(value)}`);
  return value;
}

function is(test: (value: AnyValue) => boolean): Converter {
  return { params: [{ name: 'target', kind: 'value' }], bind: ([target]) => (ctx) => test(get(target)(ctx)) };
}

function textCase(name: string, change: (text: string) => string): Converter {
  return { params: [{ name: 'target', kind: 'value' }], bind: ([target]) => (ctx) => change(stringOf(get(target)(ctx), name)) };
}

function digest(name: string, algorithm: string): Converter {
  return {
    params: [{ name: 'target', kind: 'value' }],
    bind: ([target]) => (ctx) => createHash(algorithm).update(stringOf(get(target)(ctx), name)).digest('hex'),
  };
}

/** Int(): a float64 truncated, a bool as 1 or 0, a decimal string parsed; nil for anything else, as the Collector. */
function toInt(value: AnyValue): AnyValue {
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
function toDouble(value: AnyValue): AnyValue {
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

/** Go's utf8-byte length of a string, as len() counts it. */
const byteLength = (text: string): bigint => BigInt(Buffer.byteLength(text, 'utf8'));

export const CONVERTERS: Readonly<Record<string, Converter>> = {
  IsString: is((v) => typeof v === 'string'),
  IsInt: is((v) => typeof v === 'bigint'),
  IsDouble: is((v) => typeof v === 'number'),
  IsBool: is((v) => typeof v === 'boolean'),
  IsMap: is((v) => isAttributes(v)),
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
  Len: {
    params: [{ name: 'target', kind: 'value' }],
    bind: ([target]) => (ctx) => {
      const value = get(target)(ctx);
      if (typeof value === 'string') return byteLength(value);
      if (Array.isArray(value)) return BigInt(value.length);
      if (value !== null && isAttributes(value)) return BigInt(Object.keys(value).length);
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
  SHA256: digest('SHA256', 'sha256'),
  SHA1: digest('SHA1', 'sha1'),
  MD5: digest('MD5', 'md5'),
};
