// OTTL statements and conditions from text to syntax tree, by recursive descent over the grammar of
// the Collector's pkg/ottl/grammar.go:
//
//   statement  = editor ("where" condition)?
//   condition  = term ("or" term)*          term = boolean ("and" boolean)*
//   boolean    = "not"? (value compare value | true | false | Converter(...) | "(" condition ")")
//   value      = nil | string | bytes | map | list | true | false | ENUM | math
//   math       = product (("+" | "-") product)*     product = unary (("*" | "/") unary)*
//   unary      = ("+" | "-")? (int | float | path | Converter(...) keys | "(" math ")")
//   path       = field ("." field)*                 field = name keys
//   keys       = ("[" (string | int) "]")*
import type { Argument, Call, CompareOp, Condition, Key, MathOp, PathField, Statement, Value } from './ast.js';
import { OttlError } from './errors.js';
import { tokenize, type Token, type TokenKind } from './lexer.js';

const isUpper = (name: string): boolean => name[0] !== undefined && name[0] >= 'A' && name[0] <= 'Z';

function describe(token: Token): string {
  if (token.kind === 'end') return 'the end';
  return token.kind === 'string' ? `the string ${JSON.stringify(token.text)}` : `"${token.text}"`;
}

class Parser {
  private pos = 0;

  constructor(private readonly tokens: Token[]) {}

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.pos + offset, this.tokens.length - 1)] as Token;
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== 'end') this.pos++;
    return token;
  }

  private accept(kind: TokenKind): Token | undefined {
    return this.peek().kind === kind ? this.next() : undefined;
  }

  private expect(kind: TokenKind, what: string): Token {
    const token = this.peek();
    if (token.kind !== kind) throw new OttlError(token.column, `expected ${what} but found ${describe(token)}`);
    return this.next();
  }

  end(): void {
    const token = this.peek();
    if (token.kind !== 'end') throw new OttlError(token.column, `unexpected ${describe(token)}`);
  }

  statement(): Statement {
    const name = this.peek();
    if (name.kind !== 'name') throw new OttlError(name.column, `expected an editor such as set(...) but found ${describe(name)}`);
    if (isUpper(name.text)) throw new OttlError(name.column, `editor names must start with a lowercase letter but got '${name.text}'`);
    this.next();
    const editor = this.call(name);
    if (editor.keys.length > 0) throw new OttlError((editor.keys[0] as Key).column, `only paths and converters may be indexed, not editors, but got ${editor.name}[...]`);
    let where: Condition | undefined;
    const keyword = this.peek();
    if (keyword.kind === 'name' && keyword.text === 'where') {
      this.next();
      where = this.condition();
    }
    return { editor, where };
  }

  condition(): Condition {
    let left = this.term();
    while (this.accept('or')) left = { kind: 'or', left, right: this.term() };
    return left;
  }

  private term(): Condition {
    let left = this.boolean();
    while (this.accept('and')) left = { kind: 'and', left, right: this.boolean() };
    return left;
  }

  private boolean(): Condition {
    const not = this.accept('not');
    const inner = this.booleanValue();
    return not === undefined ? inner : { kind: 'not', condition: inner, column: not.column };
  }

  private booleanValue(): Condition {
    const start = this.pos;
    const first = this.peek();
    // A comparison, when what comes first is a value followed by an operator; otherwise the same
    // tokens are read again as one of the other forms.
    let attempt: OttlError | undefined;
    try {
      const left = this.value();
      const op = this.peek();
      if (op.kind === 'compare') {
        this.next();
        return { kind: 'compare', op: op.text as CompareOp, left, right: this.value(), column: first.column };
      }
      attempt = new OttlError(op.column, `expected a comparison operator (==, !=, <, <=, >, >=) but found ${describe(op)}`);
    } catch (error) {
      if (!(error instanceof OttlError)) throw error;
      attempt = error;
    }
    const reached = this.pos;
    this.pos = start;
    if (first.kind === 'bool' && !this.isOperator(1)) {
      this.next();
      return { kind: 'const', value: first.text === 'true', column: first.column };
    }
    if (first.kind === 'name' && isUpper(first.text) && this.peek(1).kind === '(') {
      const call = this.call(this.next());
      if (this.peek().kind === 'end' || this.peek().kind === 'and' || this.peek().kind === 'or' || this.peek().kind === ')') return { kind: 'converter', call, column: first.column };
      this.pos = reached;
      throw attempt;
    }
    if (first.kind === '(') {
      this.next();
      try {
        const inner = this.condition();
        this.expect(')', '")"');
        return inner;
      } catch (error) {
        // Whichever reading got further says best what is wrong.
        if (error instanceof OttlError && error.column < attempt.column) throw attempt;
        throw error;
      }
    }
    throw attempt;
  }

  private isOperator(offset: number): boolean {
    const kind = this.peek(offset).kind;
    return kind === 'compare' || kind === 'addsub' || kind === 'multdiv';
  }

  value(): Value {
    const token = this.peek();
    switch (token.kind) {
      case 'string':
        this.next();
        return { kind: 'string', value: token.text, column: token.column };
      case 'bytes': {
        this.next();
        const hex = token.text.slice(2);
        if (hex.length % 2 !== 0) throw new OttlError(token.column, `${token.text} has an odd number of hex digits; bytes take two a byte`);
        return { kind: 'bytes', value: Uint8Array.from(Buffer.from(hex, 'hex')), column: token.column };
      }
      case 'bool':
        this.next();
        return { kind: 'bool', value: token.text === 'true', column: token.column };
      case '{':
        return this.map();
      case '[':
        return this.list();
      case 'name':
        if (token.text === 'nil') {
          this.next();
          return { kind: 'nil', column: token.column };
        }
        if (isUpper(token.text) && this.peek(1).kind !== '(') {
          if (/[a-z]/.test(token.text)) throw new OttlError(this.peek(1).column, `expected "(" after the converter name ${token.text}`);
          this.next();
          return { kind: 'enum', name: token.text, column: token.column };
        }
        return this.math();
      default:
        return this.math();
    }
  }

  private math(): Value {
    let left = this.product();
    for (let op = this.accept('addsub'); op !== undefined; op = this.accept('addsub')) left = { kind: 'math', op: op.text as MathOp, left, right: this.product(), column: op.column };
    return left;
  }

  private product(): Value {
    let left = this.unary();
    for (let op = this.accept('multdiv'); op !== undefined; op = this.accept('multdiv')) left = { kind: 'math', op: op.text as MathOp, left, right: this.unary(), column: op.column };
    return left;
  }

  private unary(): Value {
    const sign = this.accept('addsub');
    if (sign === undefined) return this.operand(false);
    const value = this.operand(sign.text === '-');
    if (sign.text === '+') return value;
    if (value.kind === 'int') return { kind: 'int', value: BigInt.asIntN(64, -value.value), column: sign.column };
    if (value.kind === 'float') return { kind: 'float', value: -value.value, column: sign.column };
    return { kind: 'negate', value, column: sign.column };
  }

  /** `negated`: after a unary minus, where -2^63 is the one integer whose magnitude is past int64's largest. */
  private operand(negated: boolean): Value {
    const token = this.peek();
    if (token.kind === 'int') {
      this.next();
      const value = BigInt(token.text);
      if (value > (negated ? 1n << 63n : (1n << 63n) - 1n)) throw new OttlError(token.column, `${token.text} does not fit in a 64-bit integer`);
      return { kind: 'int', value, column: token.column };
    }
    if (token.kind === 'float') {
      this.next();
      return { kind: 'float', value: Number(token.text), column: token.column };
    }
    if (token.kind === '(') {
      this.next();
      const inner = this.math();
      this.expect(')', '")"');
      return inner;
    }
    if (token.kind === 'name' && token.text !== 'nil') {
      if (this.peek(1).kind === '(') {
        if (!isUpper(token.text)) throw new OttlError(token.column, `converter names must start with an uppercase letter but got '${token.text}'`);
        const call = this.call(this.next());
        return { kind: 'converter', call, column: token.column };
      }
      if (!isUpper(token.text)) return this.path();
    }
    throw new OttlError(token.column, `expected a value (a path, a literal, a converter or nil) but found ${describe(token)}`);
  }

  private path(): Value {
    const fields: PathField[] = [];
    const column = this.peek().column;
    do {
      const name = this.expect('name', 'a path field');
      if (isUpper(name.text)) throw new OttlError(name.column, `path fields start with a lowercase letter, not ${describe(name)}`);
      fields.push({ name: name.text, keys: this.keys(), column: name.column });
    } while (this.accept('.'));
    return { kind: 'path', fields, column };
  }

  private keys(): Key[] {
    const keys: Key[] = [];
    for (let open = this.accept('['); open !== undefined; open = this.accept('[')) {
      const key = this.next();
      if (key.kind === 'string') keys.push({ kind: 'string', value: key.text, column: key.column });
      else if (key.kind === 'int') keys.push({ kind: 'int', value: BigInt(key.text), column: key.column });
      else throw new OttlError(key.column, `expected a string or an integer as a key but found ${describe(key)}`);
      this.expect(']', '"]"');
    }
    return keys;
  }

  private call(name: Token): Call {
    this.expect('(', `"(" after ${name.text}`);
    const args: Argument[] = [];
    if (!this.accept(')')) {
      do {
        const at = this.peek();
        let argName: string | undefined;
        if (at.kind === 'name' && this.peek(1).kind === '=') {
          argName = at.text;
          this.next();
          this.next();
        }
        args.push({ name: argName, value: this.value(), column: at.column });
      } while (this.accept(','));
      this.expect(')', `"," or ")" in the arguments of ${name.text}`);
    }
    return { name: name.text, args, keys: this.keys(), column: name.column };
  }

  private map(): Value {
    const open = this.next();
    const entries: { key: string; value: Value }[] = [];
    while (this.peek().kind !== '}') {
      const key = this.expect('string', 'a string key or "}"');
      this.expect(':', '":"');
      entries.push({ key: key.text, value: this.value() });
      this.accept(',');
    }
    this.next();
    return { kind: 'map', entries, column: open.column };
  }

  private list(): Value {
    const open = this.next();
    const values: Value[] = [];
    if (!this.accept(']')) {
      do values.push(this.value());
      while (this.accept(','));
      this.expect(']', '"," or "]"');
    }
    return { kind: 'list', values, column: open.column };
  }
}

export function parseStatement(text: string): Statement {
  const parser = new Parser(tokenize(text));
  const statement = parser.statement();
  parser.end();
  return statement;
}

export function parseCondition(text: string): Condition {
  const parser = new Parser(tokenize(text));
  const condition = parser.condition();
  parser.end();
  return condition;
}
