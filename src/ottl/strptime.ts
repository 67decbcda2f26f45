// Time()'s strptime formats as the Collector reads them: each directive is the Go layout element
// its ctimefmt table maps it to (%Y is 2006, %j is -07:00, %s is fractional seconds), parsed by
// the rules of Go's time.Parse (two-digit fields fixed or not, names in any case, a space matching
// a run of spaces, fractional seconds after the seconds even when the format has none). Compiled
// once, when the statement is loaded; a format Go would read otherwise than as written is refused.
import { isDigitAt } from './chars.js';
import { OttlRuntimeError, quoted } from './errors.js';
import { abbreviationOffset, instantOf, LOCAL_ZONE, offsetAt, wallMillis } from './zones.js';

type Field =
  | 'year4' | 'year2' | 'month2' | 'month' | 'monthShort' | 'monthLong' | 'day2' | 'dayUnder' | 'day'
  | 'weekdayShort' | 'weekdayLong' | 'hour24' | 'hour12' | 'hour12zero' | 'PM' | 'pm' | 'minute2' | 'second2'
  | 'fraction' | 'zoneName' | 'offset' | 'offsetShort' | 'offsetColon' | 'offsetSeconds' | 'offsetColonSeconds';

type Element = { literal: string } | { field: Field; directive: string };

/** ctimefmt's table: each directive's Go layout, as elements (a string is literal text). */
const DIRECTIVES: Readonly<Record<string, readonly (Field | { text: string })[]>> = {
  '%Y': ['year4'], '%y': ['year2'], '%m': ['month2'], '%o': [{ text: '_' }, 'month'], '%q': ['month'],
  '%b': ['monthShort'], '%h': ['monthShort'], '%B': ['monthLong'], '%d': ['day2'], '%e': ['dayUnder'], '%g': ['day'],
  '%a': ['weekdayShort'], '%A': ['weekdayLong'], '%H': ['hour24'], '%l': ['hour12'], '%I': ['hour12zero'],
  '%p': ['PM'], '%P': ['pm'], '%M': ['minute2'], '%S': ['second2'], '%L': ['fraction'], '%f': ['fraction'], '%s': ['fraction'],
  '%Z': ['zoneName'], '%z': ['offset'], '%w': ['offsetSeconds'], '%i': ['offsetShort'], '%j': ['offsetColon'], '%k': ['offsetColonSeconds'],
  '%D': ['month2', { text: '/' }, 'day2', { text: '/' }, 'year4'], '%x': ['month2', { text: '/' }, 'day2', { text: '/' }, 'year4'],
  '%F': ['year4', { text: '-' }, 'month2', { text: '-' }, 'day2'], '%T': ['hour24', { text: ':' }, 'minute2', { text: ':' }, 'second2'],
  '%X': ['hour24', { text: ':' }, 'minute2', { text: ':' }, 'second2'],
  '%r': ['hour12zero', { text: ':' }, 'minute2', { text: ':' }, 'second2', { text: ' ' }, 'pm'], '%R': ['hour24', { text: ':' }, 'minute2'],
  '%n': [{ text: '\n' }], '%t': [{ text: '\t' }], '%%': [{ text: '%' }],
  '%c': ['weekdayShort', { text: ' ' }, 'monthShort', { text: ' ' }, 'day2', { text: ' ' }, 'hour24', { text: ':' }, 'minute2', { text: ':' }, 'second2', { text: ' ' }, 'year4'],
};

/** Literal text that Go's layout would read as an element, not as text. */
const GO_WORDS = /January|Jan|Monday|Mon|MST|PM|pm|_2/;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

interface StrptimeFormat {
  readonly format: string;
  readonly elements: readonly Element[];
}

/** `format` compiled; throws a plain Error, with ctimefmt's message where it has one, for a format it cannot read. */
export function compileStrptime(format: string): StrptimeFormat {
  if (/\d/.test(format)) throw new Error('format string should not contain decimals');
  const elements: Element[] = [];
  const unsupported: string[] = [];
  const literal = (text: string): void => {
    const last = elements[elements.length - 1];
    if (last !== undefined && 'literal' in last) last.literal += text;
    else elements.push({ literal: text });
  };
  for (let i = 0; i < format.length; i++) {
    const c = format[i] as string;
    if (c !== '%' || i + 1 === format.length) {
      literal(c);
      continue;
    }
    const directive = format.slice(i, i + 2);
    i++;
    const expansion = DIRECTIVES[directive];
    if (expansion === undefined) {
      unsupported.push(`unsupported ctimefmt.ToNative() directive: ${directive}`);
      continue;
    }
    for (const part of expansion) {
      if (typeof part !== 'string') {
        literal(part.text);
        continue;
      }
      if (part === 'fraction') {
        // Go reads fractional seconds only as a '.' or ',' followed by 9s: the separator belongs to them.
        const last = elements[elements.length - 1];
        if (last === undefined || !('literal' in last) || !/[.,]$/.test(last.literal)) throw new Error(`invalid fractional seconds directive: '${directive}'. must be preceded with '.' or ','`);
        last.literal = last.literal.slice(0, -1);
        if (last.literal === '') elements.pop();
      }
      elements.push({ field: part, directive });
    }
  }
  if (unsupported.length > 0) throw new Error(`convert to go time format: [${unsupported.join(' ')}]`);
  for (const element of elements) {
    const word = 'literal' in element ? GO_WORDS.exec(element.literal) : null;
    if (word !== null) throw new Error(`the text ${JSON.stringify(word[0])} in the format would be read by the Collector as a time element, not as text; otelgate refuses it`);
  }
  return { format, elements };
}

interface Parsed {
  year: number; month: number; day: number; hour: number; minute: number; second: number; nanos: number;
  pm: boolean | undefined;
  /** Seconds east of UTC, when the text gave an offset. */
  offset: number | undefined;
  zoneName: string | undefined;
}

class ParseFailure extends Error {}

/** Go's getnum: one or two digits, two when `fixed`. */
function number(text: string, fixed: boolean): [number, string] {
  if (!isDigitAt(text, 0)) throw new ParseFailure();
  if (!isDigitAt(text, 1)) {
    if (fixed) throw new ParseFailure();
    return [Number(text[0]), text.slice(1)];
  }
  return [Number(text.slice(0, 2)), text.slice(2)];
}

/** Go's lookup: the first name that starts `text`, in any case of ASCII letters. */
function named(names: readonly string[], text: string): [number, string] {
  const index = names.findIndex((name) => text.length >= name.length && text.slice(0, name.length).toLowerCase() === name.toLowerCase());
  if (index < 0) throw new ParseFailure();
  return [index, text.slice((names[index] as string).length)];
}

/** Go's skip: literal text, where a space stands for any run of spaces. */
function skip(text: string, literal: string): string {
  let value = text;
  let prefix = literal;
  while (prefix.length > 0) {
    if (prefix[0] === ' ') {
      if (value.length > 0 && value[0] !== ' ') throw new ParseFailure();
      prefix = prefix.replace(/^ +/, '');
      value = value.replace(/^ +/, '');
      continue;
    }
    if (value.length === 0 || value[0] !== prefix[0]) throw new ParseFailure();
    prefix = prefix.slice(1);
    value = value.slice(1);
  }
  return value;
}

/** Go's parseSignedOffset: the length of a sign and an hour (up to 23, in any number of digits) at `at`, or 0. */
function signedOffsetLength(text: string, at: number): number {
  if (text[at] !== '+' && text[at] !== '-') return 0;
  let end = at + 1;
  let hours = 0;
  for (; isDigitAt(text, end); end++) if (hours <= 23) hours = hours * 10 + text.charCodeAt(end) - 48;
  return end === at + 1 || hours > 23 ? 0 : end - at;
}

/** Go's parseTimeZone: the length of a zone abbreviation at the start of `text`, or 0. */
function zoneLength(text: string): number {
  if (text.length < 3) return 0;
  if (text.startsWith('ChST') || text.startsWith('MeST')) return 4;
  if (text.startsWith('GMT')) return 3 + signedOffsetLength(text, 3);
  if (text[0] === '+' || text[0] === '-') return signedOffsetLength(text, 0);
  const upper = /^[A-Z]{0,6}/.exec(text)?.[0].length ?? 0;
  if (upper === 3) return 3;
  if (upper === 4 && (text[3] === 'T' || text.startsWith('WITA'))) return 4;
  if (upper === 5 && text[4] === 'T') return 5;
  return 0;
}

/** Fractional seconds after a '.' or ',': any number of digits, nanoseconds from the first nine. */
function fraction(text: string): [number, string] {
  let end = 1;
  while (isDigitAt(text, end)) end++;
  return [Number(text.slice(1, Math.min(end, 10)).padEnd(9, '0')), text.slice(end)];
}

const OFFSET_SHAPES: Readonly<Partial<Record<Field, RegExp>>> = {
  offset: /^([+-])(\d\d)(\d\d)()/,
  offsetShort: /^([+-])(\d\d)()()/,
  offsetColon: /^([+-])(\d\d):(\d\d)()/,
  offsetSeconds: /^([+-])(\d\d)(\d\d)(\d\d)/,
  offsetColonSeconds: /^([+-])(\d\d):(\d\d):(\d\d)/,
};

/** One element's value read from the start of `value`; what is left. */
function readField(field: Field, value: string, into: Parsed): string {
  switch (field) {
    case 'year4': {
      if (value.length < 4 || !/^\d{4}/.test(value)) throw new ParseFailure();
      into.year = Number(value.slice(0, 4));
      return value.slice(4);
    }
    case 'year2': {
      if (!/^\d\d/.test(value)) throw new ParseFailure();
      const year = Number(value.slice(0, 2));
      into.year = year >= 69 ? year + 1900 : year + 2000;
      return value.slice(2);
    }
    case 'month2':
    case 'month': {
      const [month, rest] = number(value, field === 'month2');
      if (month <= 0 || month > 12) throw new RangeFailure('month');
      into.month = month;
      return rest;
    }
    case 'monthShort':
    case 'monthLong': {
      const [index, rest] = named(field === 'monthLong' ? MONTHS : MONTHS.map((m) => m.slice(0, 3)), value);
      into.month = index + 1;
      return rest;
    }
    case 'day2':
    case 'dayUnder':
    case 'day': {
      const [day, rest] = number(field === 'dayUnder' && value.startsWith(' ') ? value.slice(1) : value, field === 'day2');
      into.day = day;
      return rest;
    }
    case 'weekdayShort':
    case 'weekdayLong':
      return named(field === 'weekdayLong' ? DAYS : DAYS.map((d) => d.slice(0, 3)), value)[1];
    case 'hour24':
    case 'hour12':
    case 'hour12zero': {
      const [hour, rest] = number(value, field === 'hour12zero');
      if (field === 'hour24' ? hour >= 24 : hour > 12) throw new RangeFailure('hour');
      into.hour = hour;
      return rest;
    }
    case 'PM':
    case 'pm': {
      const word = value.slice(0, 2);
      const [am, pm] = field === 'PM' ? ['AM', 'PM'] : ['am', 'pm'];
      if (word !== am && word !== pm) throw new ParseFailure();
      into.pm = word === pm;
      return value.slice(2);
    }
    case 'minute2': {
      const [minute, rest] = number(value, true);
      if (minute >= 60) throw new RangeFailure('minute');
      into.minute = minute;
      return rest;
    }
    case 'second2': {
      const [second, rest] = number(value, true);
      if (second >= 60) throw new RangeFailure('second');
      into.second = second;
      return rest;
    }
    case 'fraction': {
      // Go: fractional seconds may be left out.
      if (value.length < 2 || !/^[.,]\d/.test(value)) return value;
      const [nanos, rest] = fraction(value);
      into.nanos = nanos;
      return rest;
    }
    case 'zoneName': {
      if (value.startsWith('UTC')) {
        into.offset = 0;
        return value.slice(3);
      }
      const length = zoneLength(value);
      if (length === 0) throw new ParseFailure();
      into.zoneName = value.slice(0, length);
      return value.slice(length);
    }
    default: {
      const match = (OFFSET_SHAPES[field] as RegExp).exec(value);
      if (match === null) throw new ParseFailure();
      const [, sign, hours, minutes, seconds] = match as unknown as [string, string, string, string, string];
      const offset = (Number(hours) * 60 + Number(minutes || '0')) * 60 + Number(seconds || '0');
      into.offset = sign === '-' ? -offset : offset;
      return value.slice(match[0].length);
    }
  }
}

class RangeFailure extends Error {}

const daysIn = (month: number, year: number): number => (month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31);

const DAY_MS = 86_400_000;

/** The instant of `p`'s wall clock: in the offset or zone abbreviation the text gave, else in `zone`. */
function instant(p: Parsed, zone: string, wall: number): number {
  if (p.offset !== undefined) return wall - p.offset * 1000;
  if (p.zoneName === undefined) return instantOf(zone, wall);
  const offset = abbreviationOffset(zone, p.zoneName);
  if (offset === undefined) {
    // Only a run of zeros after a sign ("+000...03") makes a long name.
    const name = p.zoneName.length <= 16 ? p.zoneName : quoted(p.zoneName, 16);
    throw new OttlRuntimeError(`failed to load location ${name}: unknown time zone ${name}`);
  }
  return wall - offset * 1000;
}

/** `text` read by `format` as a time in `zone` (IANA), as the Collector's Time(); nanoseconds since the epoch. */
export function parseStrptime(format: StrptimeFormat, text: string, zone: string): bigint {
  const p: Parsed = { year: 0, month: 1, day: 1, hour: 0, minute: 0, second: 0, nanos: 0, pm: undefined, offset: undefined, zoneName: undefined };
  let value = text;
  let last: Element | undefined;
  try {
    for (const element of format.elements) {
      last = element;
      if ('literal' in element) {
        value = skip(value, element.literal);
        continue;
      }
      const before = value;
      value = readField(element.field, value, p);
      // Go reads fractional seconds after the seconds even where the format has none.
      if (element.field === 'second2' && before !== value && /^[.,]\d/.test(value) && !nextIsFraction(format, element)) {
        [p.nanos, value] = fraction(value);
      }
    }
  } catch (error) {
    if (error instanceof RangeFailure) throw new OttlRuntimeError(`parsing time ${quoted(text)}: ${error.message} out of range`);
    if (!(error instanceof ParseFailure) || last === undefined) throw error;
    const as = 'literal' in last ? last.literal : last.directive;
    throw new OttlRuntimeError(`parsing time ${quoted(text)} as ${JSON.stringify(format.format)}: cannot parse ${quoted(value)} as ${JSON.stringify(as)}`);
  }
  if (value !== '') throw new OttlRuntimeError(`parsing time ${quoted(text)}: extra text: ${quoted(value)}`);
  if (p.pm === true && p.hour < 12) p.hour += 12;
  else if (p.pm === false && p.hour === 12) p.hour = 0;
  if (p.day < 1 || p.day > daysIn(p.month, p.year)) throw new OttlRuntimeError(`parsing time ${quoted(text)}: day out of range`);
  const at = (year: number): number => instant(p, zone, wallMillis(year, p.month, p.day, p.hour, p.minute, p.second));
  let millis: number;
  if (p.year === 0) {
    // The Collector's SetTimestampYear: the year of now in the process's zone (Go's time.Local),
    // the month and day read (January 1 for a format without them), and a year earlier where that
    // is more than a week ahead.
    const now = Date.now();
    const year = new Date(now + offsetAt(LOCAL_ZONE, now) * 1000).getUTCFullYear();
    millis = at(year);
    if (millis > now + 7 * DAY_MS) millis = at(year - 1);
  } else {
    millis = at(p.year);
  }
  return BigInt(millis) * 1_000_000n + BigInt(p.nanos);
}

function nextIsFraction(format: StrptimeFormat, element: Element): boolean {
  const next = format.elements[format.elements.indexOf(element) + 1];
  return next !== undefined && 'field' in next && next.field === 'fraction';
}
