// What converters and editors are made of: their parameters, how each argument is bound when a
// statement is compiled, and the checks of an argument's value that their Collector counterparts
// make (StringGetter, IntGetter, TimeGetter, ...), with the Collector's messages.
import { OttlRuntimeError } from './errors.js';
import { OttlDuration, OttlTime } from './time.js';
import { typeName, type OttlValue } from './values.js';

/** How a value is had from the thing being evaluated; the context type does not matter to a converter. */
export type Getter = (ctx: never) => OttlValue;

/**
 * A parameter: any value from the row; a path the function reads and sets; a string, an integer,
 * a boolean or bytes written in the statement; a list of values, or of strings, written in the
 * statement; a converter passed by its name (SHA256).
 */
export type ParamKind = 'value' | 'path' | 'literal string' | 'literal int' | 'literal bool' | 'literal bytes' | 'list of values' | 'list of strings' | 'function';

/** A path argument: read and set. */
export interface PathArgument {
  get: Getter;
  set: (ctx: never, value: OttlValue) => void;
}

export interface Param {
  name: string;
  kind: ParamKind;
  optional?: boolean;
}

/** A converter given by name, bound to one getter for its only argument. */
export type FunctionArgument = (input: Getter) => Getter;

/** An argument as bound, by its kind; undefined when an optional one is not given. */
export type Bound = Getter | PathArgument | string | bigint | boolean | Uint8Array | Getter[] | string[] | FunctionArgument | undefined;

export interface Converter {
  params: Param[];
  /** The converter's closure over its bound arguments; may throw an OttlError-worthy message as a plain Error at bind time. */
  bind(args: Bound[]): Getter;
}

export const get = (arg: Bound): Getter => arg as Getter;
export const path = (arg: Bound): PathArgument => arg as PathArgument;

/** A StringGetter's value: a string, else an error naming what it got. */
export function stringOf(value: OttlValue, converter: string): string {
  if (typeof value !== 'string') throw new OttlRuntimeError(`${converter}: expected string but got ${typeName(value)}`);
  return value;
}

export function intOf(value: OttlValue, converter: string): bigint {
  if (typeof value !== 'bigint') throw new OttlRuntimeError(`${converter}: expected int64 but got ${typeName(value)}`);
  return value;
}

export function timeOf(value: OttlValue, converter: string): OttlTime {
  if (!(value instanceof OttlTime)) throw new OttlRuntimeError(`${converter}: expected time but got ${typeName(value)}`);
  return value;
}

export function durationOf(value: OttlValue, converter: string): OttlDuration {
  if (!(value instanceof OttlDuration)) throw new OttlRuntimeError(`${converter}: expected duration but got ${typeName(value)}`);
  return value;
}
