// Arbitrary bodies for the simple JSON log endpoint, written as clients might and as they should
// not: every field under each of its names, any JSON value in any field, duplicates, integer-like
// and `__proto__` keys, nested and deep contexts, numbers in every JSON form, every escape,
// surrogate pairs and lone surrogates, raw bytes that are not UTF-8, white space, a byte-order
// mark. And what the tests compare of two decoders' answers.
import fc from 'fast-check';
import type { Decoded } from '../../src/otlp/result.js';
import { canonicalRows } from '../helpers/otlp.js';

/** Stands in a written string for a byte sequence that is not UTF-8 (toBytes() puts one there). */
const NOT_UTF8 = '\uF8FF';
const NOT_UTF8_BYTES = [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xf0, 0x9f, 0x98], [0x80, 0x80], [0xe2, 0x82]].map((b) => Buffer.from(b));

/** The body's bytes: the text as UTF-8, with each NOT_UTF8 replaced by bytes that are not UTF-8, maybe a byte-order mark first. */
export function toBytes(text: string, bom = false): Buffer {
  const parts = text.split(NOT_UTF8);
  const chunks: Buffer[] = bom ? [Buffer.from([0xef, 0xbb, 0xbf])] : [];
  parts.forEach((part, i) => {
    if (i > 0) chunks.push(NOT_UTF8_BYTES[i % NOT_UTF8_BYTES.length] as Buffer);
    chunks.push(Buffer.from(part, 'utf8'));
  });
  return Buffer.concat(chunks);
}

const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const unitEscapes = (ch: string, upper: boolean): string =>
  Array.from({ length: ch.length }, (_, i) => {
    const hex = ch.charCodeAt(i).toString(16).padStart(4, '0');
    return `\\u${upper ? hex.toUpperCase() : hex}`;
  }).join('');

/** A JSON string of `text`, each character written raw or escaped as `modes` (cycled) says. */
function writeString(text: string, modes: readonly number[]): string {
  let out = '"';
  let i = 0;
  for (const ch of text) {
    const mode = modes.length === 0 ? 0 : (modes[i++ % modes.length] as number);
    const code = ch.codePointAt(0) as number;
    const lone = code >= 0xd800 && code <= 0xdfff;
    if (ch === '"' || ch === '\\' || code < 0x20 || lone) out += mode % 2 === 0 && SHORT_ESCAPES[ch] !== undefined ? SHORT_ESCAPES[ch] : unitEscapes(ch, mode % 4 === 1);
    else if (mode === 15) out += unitEscapes(ch, false);
    else if (mode === 16) out += unitEscapes(ch, true);
    else if (mode === 17 && ch === '/') out += '\\/';
    else out += ch;
  }
  return `${out}"`;
}

const modes = fc.array(fc.nat(19), { maxLength: 12 });
const ws = fc.constantFrom('', '', '', '', '', ' ', '\n', '\t', '\r\n  ');

const interesting = fc.constantFrom('', ' ', 'info', 'WARN', ' Error ', 'constructor', '__proto__', 'toString', 'a.b', 'é', 'ü€', '😀', '\ud83d', '\ude00', 'x\ud800y', '\u2028', '/', 'a"b', 'back\\slash', 'tab\there', `bad${NOT_UTF8}utf8`, NOT_UTF8);
const content = fc.oneof({ weight: 3, arbitrary: fc.string({ maxLength: 10 }) }, { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) }, { weight: 2, arbitrary: interesting });
const stringText = (text: fc.Arbitrary<string>) => fc.tuple(text, modes).map(([t, m]) => writeString(t, m));

const numberText = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String),
  fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }).map(String),
  fc.tuple(fc.integer({ min: -1000, max: 100_000 }), fc.stringMatching(/^[0-9]{1,12}$/)).map(([i, f]) => `${i}.${f}`),
  fc.tuple(fc.integer({ min: -99, max: 99 }), fc.constantFrom('e', 'E', 'e+', 'e-', 'E-'), fc.integer({ min: 0, max: 400 })).map(([m, e, x]) => `${m}${e}${x}`),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  fc.constantFrom('0', '-0', '0.0', '-0.0', '1e2', '1.50', '1E400', '-1e400', '1e-400', '5e-324', '1.7976931348623157e308', '9007199254740993', '0.1', '1e21', '1e-7', '100.0', '2.5e-3'),
);
const literal = fc.constantFrom('true', 'false', 'null');

const plainKey = fc.constantFrom('a', 'b', 'c', 'a.b', 'http', 'status', 'method', 'user', 'id', '', 'message', 'trace_id', 'span_id');
const oddKey = fc.constantFrom('0', '1', '2', '10', '01', '007', '4294967294', '4294967295', '-1', '1.5', '1e3', ' 1', '__proto__', 'constructor', 'toString', 'hasOwnProperty');
const key = fc.oneof({ weight: 6, arbitrary: plainKey }, { weight: 2, arbitrary: oddKey }, { weight: 1, arbitrary: content });

type Member = readonly [string, string];
const objectText = (members: readonly Member[], spaces: readonly string[]): string => {
  const s = (i: number): string => spaces[i % Math.max(spaces.length, 1)] ?? '';
  if (members.length === 0) return `{${s(0)}}`;
  return `{${members.map(([name, value], i) => `${s(i)}${name}${s(i + 1)}:${s(i + 2)}${value}${s(i + 3)}`).join(',')}}`;
};
const arrayText = (items: readonly string[], spaces: readonly string[]): string => {
  const s = (i: number): string => spaces[i % Math.max(spaces.length, 1)] ?? '';
  return items.length === 0 ? `[${s(0)}]` : `[${items.map((item, i) => `${s(i)}${item}${s(i + 1)}`).join(',')}]`;
};
const spaces = fc.array(ws, { maxLength: 6 });

/** Any JSON value, nested a few levels. */
const anyValue: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    stringText(content),
    numberText,
    literal,
    fc.tuple(fc.array(tie('value'), { maxLength: 4 }), spaces).map(([items, s]) => arrayText(items, s)),
    fc.tuple(fc.array(fc.tuple(stringText(key), tie('value')), { maxLength: 5 }), spaces).map(([members, s]) => objectText(members, s)),
  ),
})).value;

/** Nested deeper than the reader flattens by itself (it hands such a context to JSON.parse). */
const deepObject = fc.tuple(fc.integer({ min: 30, max: 40 }), anyValue).map(([depth, inner]) => `${'{"d":'.repeat(depth)}${inner}${'}'.repeat(depth)}`);

/** ISO 8601 texts, valid or not in every part. */
export const isoText = fc
  .tuple(
    fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 2020, max: 2030 }) }, { weight: 1, arbitrary: fc.constantFrom(1960, 1969, 1970, 99, 9999, 10_000) }),
    fc.integer({ min: 0, max: 13 }),
    fc.integer({ min: 0, max: 32 }),
    fc.integer({ min: 0, max: 25 }),
    fc.integer({ min: 0, max: 61 }),
    fc.integer({ min: 0, max: 61 }),
    fc.oneof(fc.constant(''), fc.stringMatching(/^[.,][0-9]{1,10}$/)),
    fc.constantFrom('T', 't', ' ', 'x'),
    fc.constantFrom('Z', 'z', '', '+01:00', '-04:30', '+0530', '-05', '+1', ' Z', '  +02:00'),
    fc.constantFrom('', '', ' ', '\t'),
  )
  .map(([y, mo, d, h, mi, s, fraction, t, zone, pad]) => {
    const two = (n: number): string => String(n).padStart(2, '0');
    return `${pad}${String(y).padStart(4, '0')}-${two(mo)}-${two(d)}${t}${two(h)}:${two(mi)}:${two(s)}${fraction}${zone}${pad}`;
  });
/**
 * Texts in the form most clients send (2026-11-22T06:00:00.123Z), mostly valid, at times a part
 * out of range or at the edges of the times a row can hold, and then maybe one character changed,
 * dropped or added.
 */
export const usualIso = fc
  .tuple(
    fc.oneof(
      fc
        .tuple(
          fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 1970, max: 2600 }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 9999 }) }),
          fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 1, max: 12 }) }, { weight: 1, arbitrary: fc.constantFrom(0, 13, 99) }),
          fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 1, max: 28 }) }, { weight: 1, arbitrary: fc.constantFrom(0, 29, 30, 31, 32, 99) }),
          fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 0, max: 23 }) }, { weight: 1, arbitrary: fc.constantFrom(24, 99) }),
          fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 0, max: 59 }) }, { weight: 1, arbitrary: fc.constantFrom(60, 99) }),
          fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 0, max: 59 }) }, { weight: 1, arbitrary: fc.constantFrom(60, 61, 99) }),
          fc.oneof(fc.constant(''), fc.stringMatching(/^\.[0-9]{0,10}$/)),
        )
        .map(([y, mo, d, h, mi, s, fraction]) => {
          const two = (n: number): string => String(n).padStart(2, '0');
          return `${String(y).padStart(4, '0')}-${two(mo)}-${two(d)}T${two(h)}:${two(mi)}:${two(s)}${fraction}Z`;
        }),
      fc.constantFrom('1970-01-01T00:00:00Z', '1970-01-01T00:00:00.000000001Z', '2554-07-21T23:34:33.709551615Z', '2554-07-21T23:34:33.709551616Z', '1969-12-31T23:59:59.999999999Z'),
    ),
    fc.nat(),
    fc.constantFrom('', '0', '9', '-', ':', '.', 'T', 't', 'Z', 'z', ' ', ',', '+', '\u0660'),
    fc.nat(5),
  )
  .map(([text, at, ch, how]) => {
    const i = at % (text.length + 1);
    if (how === 1) return `${text.slice(0, i)}${ch}${text.slice(i + 1)}`;
    if (how === 2) return `${text.slice(0, i)}${text.slice(i + 1)}`;
    if (how === 3) return `${text.slice(0, i)}${ch}${text.slice(i)}`;
    return text;
  });
const epochNumber = fc.oneof(
  fc.integer({ min: 1_000_000_000, max: 2_000_000_000 }).map(String),
  fc.double({ min: 1e9, max: 2e9, noNaN: true }).map(String),
  fc.bigInt({ min: 10n ** 11n, max: 10n ** 20n }).map(String),
  fc.constantFrom('0', '-5', '1e9', '1.7e12', '1700000000000000000', '17e17', '1e30', '1e-3', '0.5', '-0'),
);
const timeValue = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.oneof(isoText, usualIso), modes).map(([t, m]) => writeString(t, m)) },
  { weight: 3, arbitrary: epochNumber },
  { weight: 2, arbitrary: fc.tuple(fc.oneof(epochNumber, fc.constantFrom(' 1700000000 ', '0017000000000', '.5', '1.', '1700000000.123456789123')), modes).map(([t, m]) => writeString(t, m)) },
  { weight: 1, arbitrary: anyValue },
);

const hex = (chars: number) => fc.stringMatching(new RegExp(`^[0-9a-f]{${chars}}$`));
const idText = (bytes: number) =>
  fc.oneof(
    { weight: 4, arbitrary: hex(bytes * 2) },
    { weight: 1, arbitrary: hex(bytes * 2).map((h) => h.toUpperCase()) },
    { weight: 1, arbitrary: hex(bytes * 2).map((h) => h.replace(/[a-f]/, (c) => c.toUpperCase())) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 40 }).chain((n) => hex(n)) },
    { weight: 1, arbitrary: fc.constantFrom('', 'not-an-id', 'g'.repeat(bytes * 2), `${'a'.repeat(bytes * 2 - 1)}é`, `${'0'.repeat(bytes * 2 - 2)}\u0660`) },
  );
const idValue = (bytes: number) => fc.oneof({ weight: 6, arbitrary: stringText(idText(bytes)) }, { weight: 1, arbitrary: anyValue });

const levelText = fc.constantFrom('info', 'INFO', ' Warn ', 'warning', 'error', 'fatal', 'debug', 'trace', 'notice', 'crit', 'verbose', 'constructor', '', '30');
const textValue = (texts: fc.Arbitrary<string>) => fc.oneof({ weight: 5, arbitrary: stringText(texts) }, { weight: 2, arbitrary: anyValue });
const contextValue = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.array(fc.tuple(stringText(key), anyValue), { maxLength: 6 }), spaces).map(([members, s]) => objectText(members, s)) },
  { weight: 1, arbitrary: deepObject },
  { weight: 1, arbitrary: anyValue },
);

/** A member name as a client might write it: escaped at times, as JSON.parse reads it all the same. */
const name = (names: readonly string[]) => stringText(fc.constantFrom(...names));
const member: fc.Arbitrary<Member> = fc.oneof(
  fc.tuple(name(['message', 'body']), textValue(content)),
  fc.tuple(name(['level', 'severity']), textValue(levelText)),
  fc.tuple(name(['timestamp', 'time']), timeValue),
  fc.tuple(name(['service', 'service_name', 'scope', 'event']), textValue(fc.constantFrom('web', 'api', '', 'checkout', 'é'))),
  fc.tuple(name(['context', 'attributes']), contextValue),
  fc.tuple(name(['trace_id', 'traceId']), idValue(16)),
  fc.tuple(name(['span_id', 'spanId']), idValue(8)),
  fc.tuple(stringText(key), anyValue),
);
const messageMember: fc.Arbitrary<Member> = fc.tuple(fc.constantFrom('"message"', '"body"'), stringText(content));

/** A record object: mostly with a message first, then any members, names repeating at times. */
const record = fc
  .tuple(fc.option(messageMember, { freq: 4 }), fc.array(member, { maxLength: 9 }), fc.nat(20), spaces)
  .map(([first, rest, turn, s]) => {
    const members = first === null ? [...rest] : [first, ...rest];
    // Any order: the message is not always first.
    const at = turn % (members.length + 1);
    return objectText([...members.slice(at), ...members.slice(0, at)], s);
  });

/** A body: one record, or an array of records and other values, or another JSON value; maybe with a byte-order mark and white space around. */
export const simpleBody: fc.Arbitrary<Buffer> = fc
  .tuple(
    fc.oneof(
      { weight: 3, arbitrary: record },
      { weight: 6, arbitrary: fc.tuple(fc.array(fc.oneof({ weight: 8, arbitrary: record }, { weight: 1, arbitrary: anyValue }), { maxLength: 6 }), spaces).map(([items, s]) => arrayText(items, s)) },
      { weight: 1, arbitrary: anyValue },
    ),
    ws,
    ws,
    fc.boolean(),
  )
  .map(([body, before, after, bom]) => toBytes(`${before}${body}${after}`, bom));

/** All of a decoder's answer, rows with their attributes in order and resources and scopes by identity, as one string. */
export function answer(decoded: Decoded<'logs'>): string {
  const { rows, ...facts } = decoded;
  return `${JSON.stringify(facts)}\n${canonicalRows(rows)}`;
}

/** Whether two answers are the same, as answer() would say, without writing them out: for comparing many. */
export function sameAnswer(a: Decoded<'logs'>, b: Decoded<'logs'>): boolean {
  if (!sameValue({ ...a, rows: a.rows.length }, { ...b, rows: b.rows.length })) return false;
  return a.rows.every((row, i) => sameValue(row, b.rows[i]) && sharing(a.rows, i) === sharing(b.rows, i));
}

/** Plain data, keys in the same order. */
function sameValue(x: unknown, y: unknown): boolean {
  if (typeof x !== 'object' || x === null || typeof y !== 'object' || y === null) return Object.is(x, y);
  const keys = Object.keys(x);
  const others = Object.keys(y);
  return keys.length === others.length && keys.every((key, i) => key === others[i] && sameValue((x as Record<string, unknown>)[key], (y as Record<string, unknown>)[key]));
}

/** Which earlier rows share row i's resource and scope objects. */
function sharing(rows: Decoded<'logs'>['rows'], i: number): string {
  const row = rows[i];
  return `${rows.findIndex((other) => other.resource === row?.resource)}/${rows.findIndex((other) => other.scope === row?.scope)}`;
}
