// OTTL's values over otelgate's AnyValue (int64 is a bigint, float64 a number, nil is null), and
// the rules that the Collector's pkg/ottl applies to them: comparison across types (compare.go),
// arithmetic (math.go) and the text a "string-like" argument makes of a value.
import { isAttributes, type AnyValue, type Attributes } from '../model/anyvalue.js';
import type { CompareOp, MathOp } from './ast.js';
import { OttlRuntimeError } from './errors.js';
import { OttlDuration, OttlTime, timeMath } from './time.js';

/** A value while a statement is evaluated: a row's, or a time or duration that only converters and math make. */
export type OttlValue = AnyValue | OttlTime | OttlDuration;

/** Whether `value` is a time or a duration, which no row may hold. */
export const isTimeKind = (value: OttlValue): value is OttlTime | OttlDuration => value instanceof OttlTime || value instanceof OttlDuration;

/** `value` as a row may hold it; a time or duration is refused (the Collector's setters cannot store one either). */
export function stored(value: OttlValue, where: string): AnyValue {
  if (isTimeKind(value)) throw new OttlRuntimeError(`${where}: a ${typeName(value)} cannot be stored; convert it first, with UnixNano(...) or the like`);
  return value;
}

/** Whether `value` is a map (a time or a duration is not, though it is an object). */
export const isMap = (value: OttlValue): value is Attributes => value !== null && !isTimeKind(value) && isAttributes(value);

/** Bytes as lower-case hex. */
export const hex = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');

/** The name of a value's type, for errors. */
export function typeName(value: OttlValue): string {
  if (value === null) return 'nil';
  if (typeof value === 'bigint') return 'int64';
  if (typeof value === 'number') return 'float64';
  if (typeof value === 'string' || typeof value === 'boolean') return typeof value === 'string' ? 'string' : 'bool';
  if (value instanceof Uint8Array) return 'bytes';
  if (value instanceof OttlTime) return 'time.Time';
  if (value instanceof OttlDuration) return 'time.Duration';
  return Array.isArray(value) ? 'slice' : 'map';
}

/**
 * Go orders strings by their UTF-8 bytes, JavaScript by UTF-16 units: the two differ only between
 * a character above U+FFFF (a surrogate pair) and one from U+E000 to U+FFFF.
 */
function utf8Order(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) return Buffer.compare(Buffer.from(a.slice(i), 'utf8'), Buffer.from(b.slice(i), 'utf8'));
    return x - y;
  }
  return a.length - b.length;
}

function ordered<T extends string | number | bigint>(a: T, b: T, op: CompareOp): boolean {
  switch (op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
  }
}

/** Deep equality of two values, as reflect.DeepEqual on their raw forms (an int64 is never equal to a float64). */
export function sameValue(a: AnyValue, b: AnyValue): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (a instanceof Uint8Array || b instanceof Uint8Array) return a instanceof Uint8Array && b instanceof Uint8Array && Buffer.compare(a, b) === 0;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item: AnyValue, i: number) => sameValue(item, b[i] as AnyValue));
  }
  if (!isAttributes(a) || !isAttributes(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => key in b && sameValue(a[key] as AnyValue, b[key] as AnyValue));
}

/**
 * `a op b` by OTTL's comparison rules: nil equals only nil; numbers compare across int64 and
 * float64; strings, bytes and bools order among their own kind; maps and slices are only equal or
 * not; values of different types are only "not equal".
 */
export function compareValues(a: OttlValue, b: OttlValue, op: CompareOp): boolean {
  if (a === null || b === null) return a === null && b === null ? op === '==' || op === '<=' || op === '>=' : op === '!=';
  const ta = typeof a;
  const tb = typeof b;
  // Times compare by instant, durations by length, each only with its own kind. (Tested only for
  // objects: a filter's comparisons of strings and numbers pay nothing for them.)
  if (ta === 'object' || tb === 'object') {
    if (a instanceof OttlTime || b instanceof OttlTime) return a instanceof OttlTime && b instanceof OttlTime ? ordered(a.unixNano, b.unixNano, op) : op === '!=';
    if (a instanceof OttlDuration || b instanceof OttlDuration) return a instanceof OttlDuration && b instanceof OttlDuration ? ordered(a.nanos, b.nanos, op) : op === '!=';
  }
  if ((ta === 'bigint' || ta === 'number') && (tb === 'bigint' || tb === 'number')) {
    return ta === tb ? ordered(a as number, b as number, op) : ordered(Number(a), Number(b), op);
  }
  if (ta === 'string' && tb === 'string') return op === '==' || op === '!=' ? ordered(a as string, b as string, op) : ordered(utf8Order(a as string, b as string), 0, op);
  if (ta === 'boolean' && tb === 'boolean') return ordered(Number(a), Number(b), op);
  if (a instanceof Uint8Array && b instanceof Uint8Array) return ordered(Buffer.compare(a, b), 0, op);
  if (typeof a === 'object' && typeof b === 'object' && !(a instanceof Uint8Array) && !(b instanceof Uint8Array) && Array.isArray(a) === Array.isArray(b)) {
    // Times and durations have been answered above: these are maps or slices.
    const same = sameValue(a as AnyValue, b as AnyValue);
    return op === '==' ? same : op === '!=' ? !same : false;
  }
  return op === '!=';
}

/** `a op b` for int64 and float64 (an int64 with a float64 is a float64), as the Collector's math. */
export function mathValues(a: OttlValue, op: MathOp, b: OttlValue): OttlValue {
  if (typeof a === 'object' || typeof b === 'object') {
    const timed = timeMath(a, op, b);
    if (timed !== undefined) return timed;
  }
  if (typeof a !== 'bigint' && typeof a !== 'number') throw new OttlRuntimeError(`${typeName(a)} must be int64 or float64 in ${op}`);
  if (typeof b !== 'bigint' && typeof b !== 'number') throw new OttlRuntimeError(`${typeName(b)} must be int64 or float64 in ${op}`);
  if (typeof a === 'bigint' && typeof b === 'bigint') {
    if (op === '/' && b === 0n) throw new OttlRuntimeError('attempted to divide by 0');
    const result = op === '+' ? a + b : op === '-' ? a - b : op === '*' ? a * b : a / b;
    return BigInt.asIntN(64, result);
  }
  const x = Number(a);
  const y = Number(b);
  if (op === '/' && y === 0) throw new OttlRuntimeError('attempted to divide by 0');
  return op === '+' ? x + y : op === '-' ? x - y : op === '*' ? x * y : x / y;
}

/** A float64 as Go's strconv.FormatFloat(v, 'f', -1, 64) writes it: the shortest digits that read back, never an exponent. */
function floatText(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  const text = String(value);
  const e = text.indexOf('e');
  if (e < 0) return text;
  const sign = text.startsWith('-') ? '-' : '';
  const mantissa = text.slice(sign.length, e).replace('.', '');
  const point = text.slice(sign.length, e).indexOf('.');
  const exponent = Number(text.slice(e + 1)) + (point < 0 ? mantissa.length : point);
  if (exponent <= 0) return `${sign}0.${'0'.repeat(-exponent)}${mantissa}`;
  return `${sign}${mantissa.padEnd(exponent, '0')}`;
}

/** A value's JSON as Go's encoding/json writes its raw form: map keys sorted, int64 exact, bytes as base64. */
function goJson(value: AnyValue): string {
  switch (typeof value) {
    case 'bigint':
      return String(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    default:
      if (value === null) return 'null';
      if (value instanceof Uint8Array) return JSON.stringify(Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64'));
      if (Array.isArray(value)) return `[${value.map(goJson).join(',')}]`;
      return `{${Object.keys(value)
        .sort()
        .map((key) => `${JSON.stringify(key)}:${goJson((value as Record<string, AnyValue>)[key] as AnyValue)}`)
        .join(',')}}`;
  }
}

/** The text of a value for a string-like argument (StringLikeGetter): undefined for nil; a time or duration has none. */
export function stringLike(value: OttlValue): string | undefined {
  switch (typeof value) {
    case 'string':
      return value;
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'number':
      return floatText(value);
    default:
      if (value === null) return undefined;
      if (value instanceof Uint8Array) return hex(value);
      if (isTimeKind(value)) throw new OttlRuntimeError(`unsupported type: ${typeName(value)}`);
      return goJson(value);
  }
}

/** A value as pcommon.Value.AsString() writes it (`body.string`): a double as JavaScript writes numbers (which pdata imitates), bytes as base64, nil as ''. */
export function anyValueText(value: AnyValue): string {
  if (typeof value === 'number') return String(value);
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  return stringLike(value) ?? '';
}
