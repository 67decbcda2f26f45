// Arbitrary OTLP JSON log exports, and a writer that serialises one export in any of the forms
// OTLP/JSON allows: 64-bit integers as strings or numbers, enums as numbers or names, snake_case
// or lowerCamelCase names, unknown members, white space, any member order, any escaping, ids in
// any hex case, base64 standard or URL-safe, padded or not.
import fc from 'fast-check';

/** One export in the canonical form protobufjs reads: camelCase, 64-bit integers as decimal strings. */
export type Canonical = { [key: string]: unknown };

// Lone surrogates cannot be carried by protobuf (UTF-8): the golden cases test them against JSON.parse.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
export const wellFormed = (maxLength: number) => fc.string({ unit: 'binary', maxLength }).map((s) => s.replace(LONE_SURROGATE, '\uFFFD'));
const hex = (bytes: number) => fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => Buffer.from(b).toString('hex'));
/** Mostly whole ids, sometimes ids of the wrong length (treated as absent by both readers), sometimes none. */
export const id = (bytes: number) => fc.oneof({ weight: 6, arbitrary: hex(bytes) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 20 }).chain(hex) }, { weight: 1, arbitrary: fc.constant('') });
export const uint64 = fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 53n }), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n })).map(String);
const int64 = fc.oneof(fc.bigInt({ min: -(2n ** 53n), max: 2n ** 53n }), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })).map(String);
const double = fc.double().filter((d) => !Object.is(d, -0));

const scalar = fc.oneof(
  wellFormed(12).map((stringValue) => ({ stringValue })),
  fc.boolean().map((boolValue) => ({ boolValue })),
  int64.map((intValue) => ({ intValue })),
  double.map((doubleValue) => ({ doubleValue })),
  fc.uint8Array({ maxLength: 12 }).map((b) => ({ bytesValue: Buffer.from(b).toString('base64') })),
  fc.constant({}),
);

const anyValue: fc.Arbitrary<Canonical> = fc.letrec<{ value: Canonical }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 3 }).map((values) => ({ arrayValue: { values } })),
    fc.array(fc.record({ key: wellFormed(8), value: tie('value') }), { maxLength: 3 }).map((values) => ({ kvlistValue: { values } })),
  ),
})).value;

export const attributes = fc.uniqueArray(fc.record({ key: wellFormed(10), value: anyValue }), { maxLength: 4, selector: (kv) => kv.key });

const logRecord = fc.record(
  {
    timeUnixNano: uint64,
    observedTimeUnixNano: uint64,
    severityNumber: fc.integer({ min: 0, max: 24 }),
    severityText: wellFormed(6),
    body: anyValue,
    attributes,
    droppedAttributesCount: fc.nat(1000),
    flags: fc.nat(2 ** 32 - 1),
    traceId: id(16),
    spanId: id(8),
    eventName: wellFormed(6),
  },
  { requiredKeys: [] },
);

export const resource = fc.record({ attributes, droppedAttributesCount: fc.nat(5) }, { requiredKeys: [] });
export const scope = fc.record({ name: wellFormed(10), version: wellFormed(5), attributes, droppedAttributesCount: fc.nat(5) }, { requiredKeys: [] });
export const schemaUrl = fc.option(wellFormed(10), { nil: undefined });

const scopeLogs = fc.record({ scope, schemaUrl, logRecords: fc.array(logRecord, { maxLength: 4 }) }, { requiredKeys: [] });
const resourceLogs = fc.record({ resource, schemaUrl, scopeLogs: fc.array(scopeLogs, { maxLength: 3 }) }, { requiredKeys: [] });
export const logsExport: fc.Arbitrary<Canonical> = fc.record({ resourceLogs: fc.array(resourceLogs, { maxLength: 3 }) }, { requiredKeys: [] });
/** What the other signals' exports are made of too (variants-metrics.ts). */
export const exportParts = { wellFormed, id, uint64, int64, double, attributes, resource, scope, schemaUrl };

/** How one serialisation varies, decided by fast-check from a stream of choices. */
export interface Variation {
  /** 0..1 choices, consumed in order and cycled. */
  readonly choices: readonly number[];
  /** 64-bit integers as JSON numbers only when JSON.parse reads them exactly, and enums by number only (the reference is exact then). */
  readonly exactForReference: boolean;
}

export const variation = fc.record({ choices: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 64 }), exactForReference: fc.boolean() });

const INT64_MEMBERS = new Set(['timeUnixNano', 'observedTimeUnixNano', 'intValue', 'startTimeUnixNano', 'endTimeUnixNano']);
const ID_MEMBERS = new Set(['traceId', 'spanId', 'parentSpanId']);
const SEVERITY_NAMES = ['UNSPECIFIED', 'TRACE', 'TRACE2', 'TRACE3', 'TRACE4', 'DEBUG', 'DEBUG2', 'DEBUG3', 'DEBUG4', 'INFO', 'INFO2', 'INFO3', 'INFO4', 'WARN', 'WARN2', 'WARN3', 'WARN4', 'ERROR', 'ERROR2', 'ERROR3', 'ERROR4', 'FATAL', 'FATAL2', 'FATAL3', 'FATAL4'];
/** The enum members, each value's name at its number. */
const ENUM_NAMES: ReadonlyMap<string, readonly string[]> = new Map([
  ['severityNumber', SEVERITY_NAMES.map((name) => `SEVERITY_NUMBER_${name}`)],
  ['kind', ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'].map((name) => `SPAN_KIND_${name}`)],
  ['code', ['UNSET', 'OK', 'ERROR'].map((name) => `STATUS_CODE_${name}`)],
]);
const WHITE = [' ', '\n', '\t', '\r', '  '];
const UNKNOWN_VALUES = ['1', '"x"', 'null', 'true', '[]', '{}', '{"a":[1,{"b":{"c":[null,"\\u00e9"]}}]}', '[[[[{"resourceLogs":5}]]]]', '-1.5e-300'];

const snake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Serialises an export with the choices of a Variation. */
export class VariantWriter {
  private at = 0;
  /** Whether this serialisation is one the JSON.parse-based reference reads exactly. */
  referenceExact = true;

  constructor(private readonly v: Variation) {}

  protected choice(): number {
    const c = this.v.choices[this.at % this.v.choices.length] as number;
    this.at++;
    // Cycling the same few choices would tie unrelated decisions together: vary them by position.
    return (c + this.at * 0.6180339887) % 1;
  }

  private ws(): string {
    return this.choice() < 0.7 ? '' : (WHITE[Math.floor(this.choice() * WHITE.length)] as string);
  }

  write(value: unknown, member = ''): string {
    return this.ws() + this.value(value, member) + this.ws();
  }

  protected value(value: unknown, member: string): string {
    if (Array.isArray(value)) return `[${value.map((item) => this.write(item, member)).join(',')}]`;
    if (typeof value === 'object' && value !== null) return this.object(value as Canonical);
    if (INT64_MEMBERS.has(member)) return this.int64(value as string);
    if (ID_MEMBERS.has(member)) return this.string(this.hexCase(value as string));
    const names = ENUM_NAMES.get(member);
    if (names !== undefined) {
      const c = this.choice();
      const name = names[value as number];
      if (c < 0.3 && name !== undefined && !this.v.exactForReference) return this.string(name, true);
      if (c < 0.4) return this.string(String(value));
      return String(value);
    }
    if (member === 'bytesValue') return this.string(this.base64(value as string));
    if (member === 'doubleValue') return this.double(value as number);
    if (typeof value === 'string') return this.string(value);
    return JSON.stringify(value);
  }

  private object(o: Canonical): string {
    const members = Object.entries(o).filter(([, value]) => value !== undefined);
    if (this.choice() < 0.3) members.push([`x_unknown_${Math.floor(this.choice() * 100)}`, { raw: UNKNOWN_VALUES[Math.floor(this.choice() * UNKNOWN_VALUES.length)] }]);
    // Any member order: a rotation and maybe a reversal.
    const turn = Math.floor(this.choice() * (members.length + 1));
    const ordered = [...members.slice(turn), ...members.slice(0, turn)];
    if (this.choice() < 0.3) ordered.reverse();
    const parts = ordered.map(([key, value]) => {
      const name = this.choice() < 0.5 ? key : snake(key);
      const text = typeof value === 'object' && value !== null && 'raw' in value ? this.ws() + (value as { raw: string }).raw + this.ws() : this.write(value, key);
      return `${this.ws()}${this.string(name)}${this.ws()}:${text}`;
    });
    return `{${parts.join(',')}${parts.length === 0 ? this.ws() : ''}}`;
  }

  protected int64(decimal: string): string {
    const n = BigInt(decimal);
    const c = this.choice();
    const safe = n >= -(2n ** 53n) && n <= 2n ** 53n;
    if (c < 0.4 && (safe || !this.v.exactForReference)) {
      if (!safe) this.referenceExact = false;
      // Exponent notation for a whole number, as proto3 JSON allows: 1700000000000000000 as 17e17.
      const digits = decimal.replace('-', '');
      const zeros = digits.length - digits.replace(/0+$/, '').length;
      if (zeros > 0 && zeros < digits.length && this.choice() < 0.5) return `${n < 0n ? '-' : ''}${digits.slice(0, digits.length - zeros)}e${zeros}`;
      return decimal;
    }
    return this.string(decimal);
  }

  protected double(d: number): string {
    if (Number.isNaN(d)) return this.string('NaN');
    if (d === Infinity) return this.string('Infinity');
    if (d === -Infinity) return this.string('-Infinity');
    return this.choice() < 0.2 ? this.string(String(d)) : String(d);
  }

  private hexCase(text: string): string {
    const c = this.choice();
    if (c < 0.2) return text.toUpperCase();
    if (c < 0.3) return text.replace(/[a-f]/g, (ch, i: number) => (i % 2 === 0 ? ch.toUpperCase() : ch));
    return text;
  }

  private base64(standard: string): string {
    let text = standard;
    if (this.choice() < 0.3) text = text.replaceAll('+', '-').replaceAll('/', '_');
    if (this.choice() < 0.3) text = text.replace(/=+$/, '');
    return text;
  }

  /** A JSON string, each character written raw or escaped, as the choices say. */
  string(text: string, enumName = false): string {
    // The reference takes enums as numbers only.
    if (enumName) this.referenceExact = false;
    let out = '"';
    for (const ch of text) {
      const code = ch.codePointAt(0) as number;
      const c = this.choice();
      if (ch === '"' || ch === '\\' || code < 0x20) out += c < 0.5 && code < 0x20 ? `\\u${code.toString(16).padStart(4, '0')}` : JSON.stringify(ch).slice(1, -1);
      else if (c < 0.03) out += escapeUnits(ch);
      else if (c < 0.12 && ch === '/') out += '\\/';
      else out += ch;
    }
    return `${out}"`;
  }
}

/** `\uXXXX` for each UTF-16 unit: a character beyond the BMP becomes a surrogate pair. */
function escapeUnits(ch: string): string {
  let out = '';
  for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0').toUpperCase()}`;
  return out;
}
