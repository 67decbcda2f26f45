// A reader over JSON bytes: the primitives the hand-written OTLP JSON decoders walk with, reading
// values straight from the request body into rows. No JSON.parse: 64-bit integers stay exact, and
// no intermediate objects are made for what becomes a row.
//
// What it accepts is what JSON.parse accepts (RFC 8259, a UTF-8 byte-order mark in front), and
// strings read as JSON.parse reads them from the body decoded as UTF-8: every escape, lone
// surrogates kept, bytes that are not UTF-8 replaced by U+FFFD as TextDecoder replaces them.
import { NameTable, UNKNOWN } from './names.js';

/** The bytes are not JSON: the whole body is unreadable, as JSON.parse would have said. */
export class JsonSyntaxError extends Error {
  override readonly name = 'JsonSyntaxError';
}

/** A field of the wrong JSON type: the record holding it is skipped. */
export class ShapeError extends Error {
  override readonly name = 'ShapeError';
}

type Slice = (this: Buffer, start: number, end: number) => string;

// Buffer's own per-encoding slices, as in src/otlp/wire.ts: toString()'s encoding dispatch and
// argument checks cost more than short strings do, and every range here is checked already.
const slices = Buffer.prototype as Buffer & Partial<Record<'utf8Slice' | 'latin1Slice', Slice>>;
export const utf8Slice: Slice = slices.utf8Slice ?? function (this: Buffer, start, end) { return this.toString('utf8', start, end); };
export const latin1Slice: Slice = slices.latin1Slice ?? function (this: Buffer, start, end) { return this.toString('latin1', start, end); };

export const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
export const LBRACE = 0x7b;
const RBRACE = 0x7d;
export const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
export const N = 0x6e;
const T = 0x74;
const F = 0x66;

/** member(): the object has no more members. */
export const END = -2;

/** 1 for the bytes that end the plain run of a string: '"', '\', control characters. */
const STRING_STOP = new Uint8Array(256);
for (let b = 0; b < 0x20; b++) STRING_STOP[b] = 1;
STRING_STOP[QUOTE] = 1;
STRING_STOP[BACKSLASH] = 1;

// 1 for the bytes a string's plain run may hold: those that are not STRING_STOP (IN_STRING), and
// of those the ASCII ones (ASCII_IN_STRING). A run is scanned with one table look-up a byte; past
// the body's end the look-up gives undefined, which ends the run as well.
const IN_STRING = STRING_STOP.map((stop) => 1 - stop);
const ASCII_IN_STRING = IN_STRING.map((plain, b) => (b < 0x80 ? plain : 0));

/** The value of a hex digit, or 255. */
export const HEX_VALUE = new Uint8Array(256).fill(255);
for (let d = 0; d < 10; d++) HEX_VALUE[ZERO + d] = d;
for (let d = 0; d < 6; d++) {
  HEX_VALUE[0x61 + d] = 10 + d;
  HEX_VALUE[0x41 + d] = 10 + d;
}

const SIMPLE_ESCAPES: Record<number, string> = { 0x22: '"', 0x5c: '\\', 0x2f: '/', 0x62: '\b', 0x66: '\f', 0x6e: '\n', 0x72: '\r', 0x74: '\t' };

// Attribute keys repeat in every record: the string made for the same bytes last time is handed
// back (as Reader.key() in src/otlp/wire.ts does), bounded whatever clients send. So do a metric's
// points' short attribute values (they carry few distinct ones), in a table of their own.
const KEY_SLOTS = 1024;
const FNV_PRIME = 0x01000193;
const KEY_MAX_BYTES = 64;
const cachedKeys: string[] = new Array<string>(KEY_SLOTS).fill('');
const cachedValues: string[] = new Array<string>(KEY_SLOTS).fill('');
const KEY_GUESSES = 64;
const keyGuesses: string[] = new Array<string>(KEY_GUESSES).fill('');
const keyGuessBytes: Uint8Array[] = Array.from({ length: KEY_GUESSES }, () => new Uint8Array(0));

// skip() keeps the closing bracket of every container it is inside here, not on the call stack:
// a body nested 100,000 levels deep is skipped (or found broken) in a loop.
let closers = new Uint8Array(64);

export class JsonReader {
  pos = 0;
  readonly end: number;
  /** Whether the object or array just opened has had no member or element yet. */
  private first = false;

  constructor(readonly buf: Buffer) {
    this.end = buf.length;
    if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) this.pos = 3;
  }

  fail(what: string): never {
    const at = this.pos;
    throw new JsonSyntaxError(at >= this.end ? `${what} at the end of the body` : `${what} at byte ${at} (0x${(this.buf[at] as number).toString(16).padStart(2, '0')})`);
  }

  /** Skips white space; the next byte, or -1 at the end of the body. */
  peek(): number {
    const { buf, end } = this;
    let pos = this.pos;
    while (pos < end) {
      const b = buf[pos] as number;
      if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) {
        this.pos = pos;
        return b;
      }
      pos++;
    }
    this.pos = pos;
    return -1;
  }

  /** The next byte, as peek(), at the cost of one comparison when no white space comes first (compact JSON). */
  private next(): number {
    const b = this.buf[this.pos];
    return b === undefined || b <= 0x20 ? this.peek() : b;
  }

  /** After the root value only white space may follow. */
  finish(): void {
    if (this.peek() !== -1) this.fail('unexpected data after the JSON value');
  }

  /** At a value: true (and past it) when it is null. */
  null(): boolean {
    if (this.buf[this.pos] !== N) return false;
    this.literal('null');
    return true;
  }

  literal(word: string): void {
    const { buf } = this;
    for (let i = 0; i < word.length; i++) {
      if (buf[this.pos] !== word.charCodeAt(i)) this.fail('unexpected byte in a literal');
      this.pos++;
    }
  }

  /** At '{': enters the object. Then member() until it answers END. */
  openObject(): void {
    this.pos++;
    this.first = true;
  }

  /** At '[': enters the array. Then item() until it answers false. */
  openArray(): void {
    this.pos++;
    this.first = true;
  }

  /**
   * The next member's name, as its id in `table` (UNKNOWN for other names), with the reader at
   * its value; END (and past the '}') when the object has no more.
   */
  member(table: NameTable, previous: number): number {
    if (!this.toName()) return END;
    const { buf, end } = this;
    const start = this.pos + 1;
    let id = table.match(buf, start, end, previous);
    if (id !== UNKNOWN) {
      this.pos = start + table.length(id) + 1;
    } else {
      // Another name, or a known one written with escapes.
      this.pos = start - 1;
      if (this.skipString()) id = table.get(this.stringAt(start - 1));
    }
    this.toValue();
    return id;
  }

  /**
   * For an object whose member names are data (a map's keys), as member() is for one whose names
   * a table knows: the next member's name, read as key() reads it (`index` as there), with the
   * reader at its value; undefined (and past the '}') when the object has no more.
   */
  memberKey(index: number): string | undefined {
    if (!this.toName()) return undefined;
    const key = this.key(index);
    this.toValue();
    return key;
  }

  /** To the next member's name (past a ','), at its quote; false (and past the '}') when the object has no more. */
  private toName(): boolean {
    let b = this.next();
    if (b === RBRACE) {
      this.pos++;
      this.first = false;
      return false;
    }
    if (!this.first) {
      if (b !== COMMA) this.fail('expected "," or "}"');
      this.pos++;
      b = this.next();
    }
    this.first = false;
    if (b !== QUOTE) this.fail('expected a member name');
    return true;
  }

  /** From the end of a member's name past its ':', to its value. */
  private toValue(): void {
    if (this.next() !== COLON) this.fail('expected ":"');
    this.pos++;
    this.next();
  }

  /** The string at `at`, whatever the reader's position; the reader ends past it. */
  private stringAt(at: number): string {
    this.pos = at;
    return this.string();
  }

  /** True, with the reader at the next element, while the array has one; false past its ']'. */
  item(): boolean {
    let b = this.next();
    if (b === RBRACKET) {
      this.pos++;
      this.first = false;
      return false;
    }
    if (!this.first) {
      if (b !== COMMA) this.fail('expected "," or "]"');
      this.pos++;
      this.next();
    }
    this.first = false;
    return true;
  }

  /**
   * For an object whose members must be taken as JSON.parse takes them (a name given twice, or in
   * both spellings): where the value of each name's last occurrence starts, -1 for names absent.
   * The reader ends past the object.
   */
  members(table: NameTable): Int32Array {
    const at = new Int32Array(table.size).fill(-1);
    this.openObject();
    for (let id = this.member(table, UNKNOWN); id !== END; id = this.member(table, id)) {
      if (id !== UNKNOWN) at[id] = this.pos;
      this.skip();
    }
    return at;
  }

  /** Of two spellings' positions (from members()), the first unless it is absent or null, as OTLP/JSON decoders pick. */
  pick(at: Int32Array, preferred: number, other: number): number {
    const p = at[preferred] as number;
    return p !== -1 && this.buf[p] !== N ? p : (at[other] as number);
  }

  /** Skips one value of any kind, checking that it is JSON. */
  skip(): void {
    let depth = 0;
    for (;;) {
      const b = this.peek();
      if (b === LBRACE || b === LBRACKET) {
        const close = b === LBRACE ? RBRACE : RBRACKET;
        this.pos++;
        if (this.peek() === close) {
          this.pos++;
        } else {
          if (depth === closers.length) {
            const grown = new Uint8Array(depth * 2);
            grown.set(closers);
            closers = grown;
          }
          closers[depth++] = close;
          if (close === RBRACE) this.skipName();
          continue;
        }
      } else if (b === QUOTE) {
        this.skipString();
      } else if (b === T) {
        this.literal('true');
      } else if (b === F) {
        this.literal('false');
      } else if (b === N) {
        this.literal('null');
      } else if (b === MINUS || (b >= ZERO && b <= NINE)) {
        this.pos = this.numberEnd();
      } else {
        this.fail('expected a value');
      }
      // Past a value: close what ends here, then go on with the next member or element.
      for (;;) {
        if (depth === 0) return;
        const close = closers[depth - 1] as number;
        const c = this.peek();
        if (c === COMMA) {
          this.pos++;
          if (close === RBRACE) {
            this.peek();
            this.skipName();
          }
          break;
        }
        if (c !== close) this.fail(close === RBRACE ? 'expected "," or "}"' : 'expected "," or "]"');
        this.pos++;
        depth--;
      }
    }
  }

  private skipName(): void {
    if (this.buf[this.pos] !== QUOTE) this.fail('expected a member name');
    this.skipString();
    if (this.peek() !== COLON) this.fail('expected ":"');
    this.pos++;
  }

  /** Skips a string; true when it held an escape. */
  private skipString(): boolean {
    const { buf, end } = this;
    let i = this.pos + 1;
    let escaped = false;
    for (;;) {
      while (IN_STRING[buf[i] as number] === 1) i++;
      if (i >= end) {
        this.pos = i;
        this.fail('unterminated string');
      }
      const c = buf[i] as number;
      if (c === QUOTE) break;
      this.pos = i;
      if (c !== BACKSLASH) this.fail('control character in a string');
      this.escape();
      escaped = true;
      i = this.pos;
    }
    this.pos = i + 1;
    return escaped;
  }

  /** At a string: its text. */
  string(): string {
    const { buf } = this;
    const start = this.pos + 1;
    let i = start;
    while (ASCII_IN_STRING[buf[i] as number] === 1) i++;
    if (buf[i] === QUOTE) {
      this.pos = i + 1;
      return latin1Slice.call(buf, start, i);
    }
    while (IN_STRING[buf[i] as number] === 1) i++;
    if (buf[i] === QUOTE) {
      this.pos = i + 1;
      return utf8Slice.call(buf, start, i);
    }
    if (i >= this.end) {
      this.pos = i;
      this.fail('unterminated string');
    }
    return this.escapedString(start, i);
  }

  /** The rest of a string from its first escape (or control character) at `at`. */
  private escapedString(start: number, at: number): string {
    const { buf, end } = this;
    // Runs between escapes end at an ASCII byte, so decoding each run alone replaces bad UTF-8
    // exactly as decoding the whole body would.
    let text = utf8Slice.call(buf, start, at);
    let i = at;
    let run = at;
    for (;;) {
      if (i >= end) {
        this.pos = i;
        this.fail('unterminated string');
      }
      const c = buf[i] as number;
      if (STRING_STOP[c] === 0) {
        i++;
        continue;
      }
      if (run < i) text += utf8Slice.call(buf, run, i);
      if (c === QUOTE) break;
      this.pos = i;
      if (c !== BACKSLASH) this.fail('control character in a string');
      text += this.escape();
      i = run = this.pos;
    }
    this.pos = i + 1;
    return text;
  }

  /** At a backslash: the character it escapes (one UTF-16 unit: a surrogate pair is two escapes). */
  private escape(): string {
    const { buf } = this;
    const c = buf[this.pos + 1];
    if (c === 0x75) {
      if (this.pos + 6 > this.end) this.fail('bad \\u escape');
      let code = 0;
      for (let k = 2; k < 6; k++) {
        const digit = HEX_VALUE[buf[this.pos + k] as number] as number;
        if (digit === 255) this.fail('bad \\u escape');
        code = (code << 4) | digit;
      }
      this.pos += 6;
      return String.fromCharCode(code);
    }
    const simple = c === undefined ? undefined : SIMPLE_ESCAPES[c];
    if (simple === undefined) this.fail('bad escape');
    this.pos += 2;
    return simple;
  }

  /**
   * At a string likely to repeat (an attribute key, a span's name): the same bytes give the same
   * string. `place`: where its guess is kept (GUESSES in read-common.ts); the string at the same
   * place last time is tried first, since records of one sender list their attributes in the same
   * order, and name their spans from a few names.
   */
  key(place: number): string {
    const slot = place & (KEY_GUESSES - 1);
    const guess = keyGuessBytes[slot] as Uint8Array;
    const { buf } = this;
    const start = this.pos + 1;
    const length = guess.length;
    if (length > 0 && buf[start + length] === QUOTE) {
      let k = 0;
      while (k < length && guess[k] === buf[start + k]) k++;
      if (k === length) {
        this.pos = start + length + 1;
        return keyGuesses[slot] as string;
      }
    }
    const key = this.cached(cachedKeys);
    // The same bytes decode to the same key, escapes or not: the bytes are kept (a copy: never a
    // view that would keep the body alive), short ones only.
    const stop = this.pos - 1;
    if (stop - start <= KEY_MAX_BYTES) {
      keyGuesses[slot] = key;
      keyGuessBytes[slot] = new Uint8Array(buf.subarray(start, stop));
    }
    return key;
  }

  /** At a string likely to repeat (a metric's point's attribute value): the same short bytes give the same string, as for keys. */
  repeatedString(): string {
    return this.cached(cachedValues);
  }

  private cached(strings: string[]): string {
    const { buf, end } = this;
    const start = this.pos + 1;
    let i = start;
    let hash = 0;
    for (;;) {
      if (i >= end) return this.string();
      const c = buf[i] as number;
      if (c === QUOTE) break;
      if (STRING_STOP[c] === 1 || c >= 0x80) return this.string();
      hash = Math.imul(hash ^ c, FNV_PRIME);
      i++;
    }
    const length = i - start;
    this.pos = i + 1;
    if (length > KEY_MAX_BYTES) return latin1Slice.call(buf, start, i);
    const slot = (hash >>> 0) & (KEY_SLOTS - 1);
    const cached = strings[slot] as string;
    if (cached.length === length) {
      let k = 0;
      while (k < length && cached.charCodeAt(k) === buf[start + k]) k++;
      if (k === length) return cached;
    }
    const text = latin1Slice.call(buf, start, i);
    strings[slot] = text;
    return text;
  }

  /** At a number: where it ends, checking it against JSON's grammar. */
  numberEnd(): number {
    const { buf, end } = this;
    let i = this.pos;
    if (buf[i] === MINUS) i++;
    if (buf[i] === ZERO) i++;
    else if (i < end && (buf[i] as number) > ZERO && (buf[i] as number) <= NINE) while (i < end && (buf[i] as number) >= ZERO && (buf[i] as number) <= NINE) i++;
    else this.failAt(i, 'bad number');
    if (buf[i] === DOT) {
      const digits = ++i;
      while (i < end && (buf[i] as number) >= ZERO && (buf[i] as number) <= NINE) i++;
      if (i === digits) this.failAt(i, 'bad number');
    }
    if (buf[i] === 0x65 || buf[i] === 0x45) {
      i++;
      if (buf[i] === 0x2b || buf[i] === MINUS) i++;
      const digits = i;
      while (i < end && (buf[i] as number) >= ZERO && (buf[i] as number) <= NINE) i++;
      if (i === digits) this.failAt(i, 'bad number');
    }
    return i;
  }

  failAt(at: number, what: string): never {
    this.pos = at;
    this.fail(what);
  }
}