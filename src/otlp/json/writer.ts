// A writer of JSON bytes for the OTLP/JSON encoders: objects, arrays, members and values straight
// into a growing buffer, commas placed by the writer. Text needs no intermediate strings except
// where a value must be formatted (numbers) or escaped.
import { Output, utf8Write } from '../output.js';

const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export class JsonWriter extends Output {
  /** Nothing written yet in the object or array just opened: the next member or item takes no comma. */
  private first = true;

  private byte(code: number): void {
    this.ensure(1);
    this.buf[this.pos++] = code;
  }

  open(): void {
    this.byte(0x7b);
    this.first = true;
  }

  close(): void {
    this.byte(0x7d);
    this.first = false;
  }

  openArray(): void {
    this.byte(0x5b);
    this.first = true;
  }

  closeArray(): void {
    this.byte(0x5d);
    this.first = false;
  }

  /** `"name":`, after a comma unless it is the first member; `name` is one of the encoders' own ASCII field names. */
  key(name: string): void {
    this.ensure(name.length + 4);
    const { buf } = this;
    let pos = this.pos;
    if (!this.first) buf[pos++] = COMMA;
    buf[pos++] = QUOTE;
    for (let i = 0; i < name.length; i++) buf[pos++] = name.charCodeAt(i);
    buf[pos++] = QUOTE;
    buf[pos++] = 0x3a;
    this.pos = pos;
    this.first = false;
  }

  /** Before each item of an array. */
  item(): void {
    if (!this.first) this.byte(COMMA);
    this.first = false;
  }

  /** ASCII text as it is: numbers, literals, hex, base64. */
  raw(text: string): void {
    this.ensure(text.length);
    const { buf } = this;
    let pos = this.pos;
    for (let i = 0; i < text.length; i++) buf[pos++] = text.charCodeAt(i);
    this.pos = pos;
  }

  /** ASCII text in quotes (ids, base64, 64-bit integers), which never needs escaping. */
  quoted(text: string): void {
    this.ensure(text.length + 2);
    const { buf } = this;
    let pos = this.pos;
    buf[pos++] = QUOTE;
    for (let i = 0; i < text.length; i++) buf[pos++] = text.charCodeAt(i);
    buf[pos++] = QUOTE;
    this.pos = pos;
  }

  /**
   * A JSON string. Printable ASCII without quotes or backslashes, most text, is copied as it is;
   * anything else is escaped by JSON.stringify, lone surrogates included (as \udxxx).
   */
  string(text: string): void {
    const length = text.length;
    this.ensure(length + 2);
    const { buf } = this;
    const start = this.pos;
    let pos = start + 1;
    let i = 0;
    for (; i < length; i++) {
      const code = text.charCodeAt(i);
      if (code < 0x20 || code > 0x7e || code === QUOTE || code === BACKSLASH) break;
      buf[pos++] = code;
    }
    if (i === length) {
      buf[start] = QUOTE;
      buf[pos++] = QUOTE;
      this.pos = pos;
      return;
    }
    const escaped = JSON.stringify(text);
    // Escaped text is valid UTF-16, at most three UTF-8 bytes per unit.
    this.ensure(3 * escaped.length);
    this.pos += utf8Write.call(this.buf, escaped, this.pos);
  }

  /** A double: NaN and the infinities as the strings proto3's JSON mapping gives them, -0 kept. */
  double(n: number): void {
    if (Number.isFinite(n)) this.raw(Object.is(n, -0) ? '-0' : String(n));
    else this.quoted(String(n));
  }

  bool(value: boolean): void {
    this.raw(value ? 'true' : 'false');
  }
}
