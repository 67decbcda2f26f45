// OTTL's tokens, as the Collector's lexer (pkg/ottl/grammar.go) makes them, with two differences
// that change no valid statement: a name is one token (the Collector's lexer splits `IsMatch`
// into runs of upper- and lower-case letters and glues them back in the grammar), and a number
// carries no sign (the sign is an operator; the Collector's grammar reads a unary minus too).
import { isDigitAt } from './chars.js';
import { OttlError } from './errors.js';

export type TokenKind =
  | 'bytes'
  | 'float'
  | 'int'
  | 'string'
  | 'name'
  | 'not'
  | 'and'
  | 'or'
  | 'bool'
  | 'compare'
  | 'addsub'
  | 'multdiv'
  | '='
  | '('
  | ')'
  | '{'
  | '}'
  | ':'
  | ','
  | '.'
  | '['
  | ']'
  | 'end';

export interface Token {
  kind: TokenKind;
  /** The token as written; a string's value, unquoted, for `string`. */
  text: string;
  /** 1-based column of its first character. */
  column: number;
}

const PUNCTUATION = new Set(['(', ')', '{', '}', ':', ',', '.', '[', ']']);
const KEYWORDS: Record<string, TokenKind> = { not: 'not', and: 'and', or: 'or', true: 'bool', false: 'bool' };

const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9a-fA-F]$/.test(c);
const isNameStart = (c: string | undefined): boolean => c !== undefined && /^[A-Za-z]$/.test(c);
const isNamePart = (c: string | undefined): boolean => c !== undefined && /^[A-Za-z0-9_]$/.test(c);

const SIMPLE_ESCAPES: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', '"': '"' };

/**
 * A string literal's value, its escapes read as Go's strconv.Unquote reads them (which the
 * Collector uses): \x and octal escapes are bytes, read as UTF-8 with the characters around them.
 */
function unquote(raw: string, column: number): string {
  let out = '';
  let bytes: number[] = [];
  const flush = (): void => {
    if (bytes.length === 0) return;
    out += Buffer.from(bytes).toString('utf8');
    bytes = [];
  };
  for (let i = 1; i < raw.length - 1; i++) {
    const c = raw[i] as string;
    if (c !== '\\') {
      flush();
      out += c;
      continue;
    }
    const at = column + i;
    const e = raw[++i] as string;
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) {
      flush();
      out += simple;
      continue;
    }
    const width = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
    if (width > 0) {
      const hex = raw.slice(i + 1, i + 1 + width);
      const code = hex.length === width && [...hex].every(isHex) ? Number.parseInt(hex, 16) : -1;
      if (code < 0 || code > 0x10ffff || (e !== 'x' && code >= 0xd800 && code <= 0xdfff)) throw new OttlError(at, `invalid escape \\${e}${hex} in a string`);
      if (e === 'x') bytes.push(code);
      else {
        flush();
        out += String.fromCodePoint(code);
      }
      i += width;
      continue;
    }
    if (e >= '0' && e <= '7') {
      const octal = raw.slice(i, i + 3);
      if (!/^[0-7]{3}$/.test(octal) || Number.parseInt(octal, 8) > 255) throw new OttlError(at, `invalid escape \\${octal} in a string`);
      bytes.push(Number.parseInt(octal, 8));
      i += 2;
      continue;
    }
    throw new OttlError(at, `invalid escape \\${e} in a string`);
  }
  flush();
  return out;
}

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    const column = i + 1;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const push = (kind: TokenKind, end: number, value = text.slice(i, end)): void => {
      tokens.push({ kind, text: value, column });
      i = end;
    };
    if (c === '0' && text[i + 1] === 'x' && isHex(text[i + 2])) {
      let end = i + 2;
      while (isHex(text[end])) end++;
      push('bytes', end);
      continue;
    }
    if (isDigitAt(text, i) || (c === '.' && isDigitAt(text, i + 1))) {
      let end = i;
      while (isDigitAt(text, end)) end++;
      if (text[end] === '.' && isDigitAt(text, end + 1)) {
        end++;
        while (isDigitAt(text, end)) end++;
        const exponent = /^[eE][-+]?\d+/.exec(text.slice(end));
        if (exponent !== null) end += exponent[0].length;
        push('float', end);
      } else push('int', end);
      continue;
    }
    if (c === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (end >= text.length) throw new OttlError(column, 'a string is not closed: a " is missing');
      push('string', end + 1, unquote(text.slice(i, end + 1), column));
      continue;
    }
    if (isNameStart(c)) {
      let end = i + 1;
      while (isNamePart(text[end])) end++;
      const name = text.slice(i, end);
      push(Object.hasOwn(KEYWORDS, name) ? (KEYWORDS[name] as TokenKind) : 'name', end);
      continue;
    }
    const two = text.slice(i, i + 2);
    if (two === '==' || two === '!=' || two === '>=' || two === '<=') push('compare', i + 2);
    else if (c === '<' || c === '>') push('compare', i + 1);
    else if (c === '+' || c === '-') push('addsub', i + 1);
    else if (c === '*' || c === '/') push('multdiv', i + 1);
    else if (c === '=') push('=', i + 1);
    else if (PUNCTUATION.has(c)) push(c as TokenKind, i + 1);
    else throw new OttlError(column, `unexpected character ${JSON.stringify(c)}`);
  }
  tokens.push({ kind: 'end', text: '', column: text.length + 1 });
  return tokens;
}
