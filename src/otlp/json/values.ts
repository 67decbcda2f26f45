// The values of OTLP/JSON fields, read at a JsonReader (reader.ts) as the proto3 JSON mapping and
// the Collector take them: 64-bit integers exactly, as numbers or strings; enums as numbers or
// names; doubles as numbers or strings ("NaN", "Infinity"); ids as hex; bytes as base64.
// A value of the wrong type throws ShapeError: the record holding it is skipped.
import { normalizeHex } from '../hex.js';
import { HEX_VALUE, latin1Slice, ShapeError, type JsonReader } from './reader.js';

const QUOTE = 0x22;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const T = 0x74;
const F = 0x66;

const UINT64_MAX = 2n ** 64n - 1n;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const TEN_9 = 1_000_000_000;
const BIG_TEN_9 = 1_000_000_000n;
/** 1 for the digits of lower-case hex, as ids are usually written. */
export const LOWER_HEX = HEX_VALUE.map((value, b) => (value !== 255 && (b < 0x41 || b > 0x46) ? 1 : 0));
const DIGIT = new Uint8Array(256).map((_, b) => (b >= ZERO && b <= NINE ? 1 : 0));
let lastHigh = -1;
let lastHighScaled = 0n;
// The last two integers beyond 2^53 made, by their digits: the points of a metric share their
// start time and time, so reading those once a metric is enough.
const recentHigh = [-1, -1];
const recentLow = [-1, -1];
const recentValue = [0n, 0n];
let recentNext = 0;
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, k) => 10 ** k);
/** Small integers (attributes such as a status code or a shard) as bigints made once. */
const SMALL_BIGINTS = Array.from({ length: 1024 }, (_, n) => BigInt(n));

// What plainDigits() read: a whole number's magnitude as plainHigh * 10^9 + plainLow (plainLow
// its last nine digits, plainHigh the rest: at most eleven, exact in a double), and its sign.
let plainHigh = 0;
let plainLow = 0;
let plainNegative = false;

/**
 * At a number or a string: true, the reader past it and its value in plainHigh, plainLow and
 * plainNegative, when it is plain digits (a minus first, maybe), at most 20 of them, as integers
 * are sent: read without making a string. Anything else: false, the reader where it was, for
 * spelledInteger().
 */
function plainDigits(r: JsonReader): boolean {
  const { buf } = r;
  let i = r.pos;
  const quoted = buf[i] === QUOTE;
  if (quoted) i++;
  const minus = buf[i] === MINUS;
  if (minus) i++;
  const first = i;
  while (DIGIT[buf[i] as number] === 1) i++;
  const digits = i - first;
  if (digits === 0 || digits > 20) return false;
  if (quoted) {
    if (buf[i] !== QUOTE) return false;
  } else if (buf[i] === DOT || buf[i] === 0x65 || buf[i] === 0x45 || (buf[first] === ZERO && digits > 1)) {
    // A fraction or an exponent is integerText()'s to read; a leading zero numberEnd()'s to refuse.
    return false;
  }
  const split = i - Math.min(digits, 9);
  let h = 0;
  let l = 0;
  for (let k = first; k < split; k++) h = h * 10 + ((buf[k] as number) - ZERO);
  for (let k = split; k < i; k++) l = l * 10 + ((buf[k] as number) - ZERO);
  plainHigh = h;
  plainLow = l;
  plainNegative = minus;
  r.pos = quoted ? i + 1 : i;
  return true;
}

/** What plainDigits() read is below 0 or beyond 2^64-1 (18446744073 * 10^9 + 709551615). */
const beyondUint64 = (): boolean => (plainNegative && (plainHigh !== 0 || plainLow !== 0)) || plainHigh > 18446744073 || (plainHigh === 18446744073 && plainLow > 709551615);

/**
 * At a number or a string that is not plain digits: the integer it spells, exactly, or undefined
 * when it is neither or spells no integer, or one beyond what 64 bits could hold. Numbers and
 * strings alike may carry a fraction or an exponent when the value is whole (proto3 JSON: `1e3`
 * is 1000 for an integer field); strings may have leading zeros, as today's OTLP/JSON decoders accept.
 */
function spelledInteger(r: JsonReader): bigint | undefined {
  const b = r.buf[r.pos];
  if (b === QUOTE) return integerText(r.string());
  if (b !== MINUS && (b === undefined || b < ZERO || b > NINE)) return undefined;
  const start = r.pos;
  r.pos = r.numberEnd();
  return integerText(latin1Slice.call(r.buf, start, r.pos));
}

/** high * 10^9 + low, as a bigint. */
function unsignedOf(high: number, low: number): bigint {
  const value = high * TEN_9 + low;
  if (value < SMALL_BIGINTS.length) return SMALL_BIGINTS[value] as bigint;
  if (Number.isSafeInteger(value)) return BigInt(value);
  for (let k = 0; k < 2; k++) if (recentHigh[k] === high && recentLow[k] === low) return recentValue[k] as bigint;
  // Times of one body share their leading digits: the scaled high part is made once for them.
  if (high !== lastHigh) {
    lastHigh = high;
    lastHighScaled = BigInt(high) * BIG_TEN_9;
  }
  const n = lastHighScaled + BigInt(low);
  recentHigh[recentNext] = high;
  recentLow[recentNext] = low;
  recentValue[recentNext] = n;
  recentNext ^= 1;
  return n;
}

/** fixed64 (times): a whole number from 0 to 2^64-1; null is 0. */
export function uint64(r: JsonReader): bigint {
  if (r.null()) return 0n;
  if (plainDigits(r)) {
    if (beyondUint64()) throw new ShapeError('not an unsigned 64-bit integer');
    return unsignedOf(plainHigh, plainLow);
  }
  const n = spelledInteger(r);
  if (n === undefined || n < 0n || n > UINT64_MAX) throw new ShapeError('not an unsigned 64-bit integer');
  return n;
}

/** int64 (intValue, asInt): a whole number within 64 bits, signed. Not null: the caller decides what null means. */
export function int64(r: JsonReader): bigint {
  if (plainDigits(r)) {
    // Beyond 2^63-1 is 9223372036 * 10^9 + 854775807 and more; -2^63 is one more below.
    if (plainHigh > 9223372036 || (plainHigh === 9223372036 && plainLow > (plainNegative ? 854775808 : 854775807))) throw new ShapeError('not a 64-bit integer');
    const n = unsignedOf(plainHigh, plainLow);
    return plainNegative ? -n : n;
  }
  const n = spelledInteger(r);
  if (n === undefined || n < INT64_MIN || n > INT64_MAX) throw new ShapeError('not a 64-bit integer');
  return n;
}

/** A count (fixed64 or uint64), kept as a number as the protobuf reader keeps it: exact below 2^53, rounded beyond (where pointProblem() skips the point); null is 0. */
export function count(r: JsonReader): number {
  if (r.null()) return 0;
  if (!plainDigits(r)) return Number(uint64(r));
  if (beyondUint64()) throw new ShapeError('not an unsigned 64-bit integer');
  return plainHigh * TEN_9 + plainLow;
}

/** The 32-bit fields (int32, uint32, fixed32, enums as numbers): anything 32 bits hold, signed or not; null is 0. */
export function int32(r: JsonReader): number {
  if (r.null()) return 0;
  let n: number | bigint | undefined;
  if (plainDigits(r)) {
    const value = plainHigh * TEN_9 + plainLow;
    // 0 - value: "-0" is 0, as BigInt has it.
    n = plainNegative ? 0 - value : value;
  } else {
    n = spelledInteger(r);
  }
  if (n === undefined || n < -2147483648 || n > 4294967295) throw new ShapeError('not a 32-bit integer');
  return Number(n);
}

/** An enum: its number, or its name in `names`; null is 0. */
export function enumValue(r: JsonReader, names: ReadonlyMap<string, number>): number {
  if (r.buf[r.pos] === QUOTE) {
    const start = r.pos;
    const value = names.get(r.string());
    if (value !== undefined) return value;
    r.pos = start;
  }
  return int32(r);
}

/** A double: a number, or a string as OTLP/JSON decoders take one ("NaN", "Infinity", "-Infinity", "1.5"). */
export function double(r: JsonReader): number {
  const { buf } = r;
  const b = buf[r.pos] as number;
  if (b === QUOTE) return doubleText(r.string());
  if (b !== MINUS && (b < ZERO || b > NINE)) throw new ShapeError('not a number');
  const start = r.pos;
  const stop = (r.pos = r.numberEnd());
  // Up to 15 digits and a power of ten up to 10^22 are both exact doubles, so one multiplication
  // or division rounds as Number() and JSON.parse do (the fast path of correct decimal reading).
  let i = start;
  const negative = buf[i] === MINUS;
  if (negative) i++;
  let n = 0;
  let digits = 0;
  let fraction = -1;
  for (; i < stop; i++) {
    const c = buf[i] as number;
    if (c === DOT) fraction = i;
    else if (c >= ZERO && c <= NINE) {
      n = n * 10 + (c - ZERO);
      digits++;
    } else break;
  }
  const scale = fraction === -1 ? 0 : fraction + 1 - stop;
  if (i === stop && digits <= 15 && scale >= -22) {
    const value = scale === 0 ? n : n / (POWERS_OF_TEN[-scale] as number);
    return negative ? -value : value;
  }
  return Number(latin1Slice.call(buf, start, stop));
}

export function bool(r: JsonReader): boolean {
  const b = r.buf[r.pos];
  if (b === T) {
    r.literal('true');
    return true;
  }
  if (b === F) {
    r.literal('false');
    return false;
  }
  throw new ShapeError('not a boolean');
}

/** A string; null is ''. `repeats`: it is likely met before (see attributes() in read-common.ts), and read through the reader's cache. */
export function text(r: JsonReader, repeats = false): string {
  if (r.null()) return '';
  if (r.buf[r.pos] !== QUOTE) throw new ShapeError('not a string');
  return repeats ? r.repeatedString() : r.string();
}

/** A trace or span id: hex of an even length in any case, as lower-case hex; null is ''. */
export function hex(r: JsonReader): string {
  if (r.null()) return '';
  const { buf, end } = r;
  if (buf[r.pos] !== QUOTE) throw new ShapeError('not a string');
  const start = r.pos + 1;
  let i = start;
  while (LOWER_HEX[buf[i] as number] === 1) i++;
  let upper = false;
  for (; i < end && HEX_VALUE[buf[i] as number] !== 255; i++) upper = true;
  if (buf[i] !== QUOTE) {
    // Not plain hex: perhaps hex written with escapes, which JSON.parse would have decoded.
    const id = normalizeHex(r.string());
    if (id === undefined) throw new ShapeError('not hex');
    return id;
  }
  r.pos = i + 1;
  if ((i - start) % 2 !== 0) throw new ShapeError('not hex');
  const text = latin1Slice.call(buf, start, i);
  return upper ? text.toLowerCase() : text;
}

/** Bytes in base64, standard or URL-safe, padded or not (as Buffer reads it); a copy, never a view of the body. */
export function base64(r: JsonReader): Uint8Array {
  return new Uint8Array(Buffer.from(text(r), 'base64'));
}

/** The integer a text spells (see spelledInteger()), or undefined. */
function integerText(text: string): bigint | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (match === null) return undefined;
  const [, sign, whole = '', fraction = '', exponentText] = match;
  let digits = (whole + fraction).replace(/^0+/, '');
  // An exponent this long makes a value of no use here: 0, or beyond 64 bits.
  let exponent = exponentText === undefined ? 0 : exponentText.length > 8 ? Math.sign(Number(exponentText)) * 1e8 : Number(exponentText);
  exponent -= fraction.length;
  if (digits === '') return 0n;
  const trailing = digits.length - digits.replace(/0+$/, '').length;
  digits = digits.slice(0, digits.length - trailing);
  exponent += trailing;
  if (exponent < 0 || digits.length + exponent > 20) return undefined;
  const n = BigInt(digits) * 10n ** BigInt(exponent);
  return sign === '-' ? -n : n;
}

const SPECIAL_DOUBLES: ReadonlyMap<string, number> = new Map([
  ['NaN', Number.NaN],
  ['Infinity', Number.POSITIVE_INFINITY],
  ['-Infinity', Number.NEGATIVE_INFINITY],
]);

/** A double given as a string, as the OTLP/JSON readers take it (NaN, Infinity, -Infinity, or Number()'s reading of it, not blank); undefined for anything else. */
export function textDouble(text: string): number | undefined {
  const special = SPECIAL_DOUBLES.get(text);
  if (special !== undefined) return special;
  const n = Number(text);
  return text.trim() === '' || Number.isNaN(n) ? undefined : n;
}

function doubleText(text: string): number {
  const n = textDouble(text);
  if (n === undefined) throw new ShapeError('not a number');
  return n;
}
