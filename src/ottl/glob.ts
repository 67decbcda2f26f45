// Glob patterns as github.com/gobwas/glob compiles them without separators (replace_match,
// replace_all_matches): * any run of characters, ? any one, [abc] [a-z] [!a-z] one of a set or not,
// {a,b} one of the alternatives, \ the next character as itself; the whole text must match.
// Matched without regular expressions and without copying the text: the parts between stars are
// found leftmost in turn, plain text by indexOf and the others by shift-and, so that a text costs
// one walk over it for each alternative, whatever the pattern.

type Token = { kind: 'text'; char: number } | { kind: 'one' } | { kind: 'star' } | { kind: 'set'; negated: boolean; ranges: [number, number][] };

/**
 * A run of tokens between stars, each one character; `text` when all are plain characters, else
 * for shift-and the bits of the tokens each character matches, as they are met.
 */
interface Part {
  readonly tokens: readonly Token[];
  readonly text: string | undefined;
  readonly masks: Map<number, number>;
}

/** Shift-and keeps a part's tokens in the bits of one int32. */
const MAX_PART = 31;
/** Characters whose bits are kept for a part; a text of more distinct ones has the rest computed again. */
const MAX_MASKS = 1024;

/** An alternative: the part before its first star, the parts between stars, the part after its last (all one when there is no star). */
interface Compiled {
  readonly first: Part;
  readonly middle: readonly Part[];
  readonly last: Part | undefined;
}

/**
 * More alternatives than this (braces multiply) are refused rather than tried one by one: each
 * is a walk over the whole text, so 32 of them over a 1 MB value is still milliseconds.
 */
const MAX_ALTERNATIVES = 32;

/** `pattern` with its braces expanded: each alternative, as characters to tokenize. */
function alternatives(pattern: string): string[] {
  const chars = [...pattern];
  let open = -1;
  let depth = 0;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === '\\') i++;
    else if (c === '[') while (i < chars.length && chars[i] !== ']') i++;
    else if (c === '{' && depth++ === 0) open = i;
    else if (c === '}' && depth > 0 && --depth === 0) {
      const options: string[] = [];
      let start = open + 1;
      let inner = 0;
      for (let j = open + 1; j < i; j++) {
        const d = chars[j];
        if (d === '\\') j++;
        else if (d === '{') inner++;
        else if (d === '}') inner--;
        else if (d === ',' && inner === 0) {
          options.push(chars.slice(start, j).join(''));
          start = j + 1;
        }
      }
      options.push(chars.slice(start, i).join(''));
      const before = chars.slice(0, open).join('');
      const after = alternatives(chars.slice(i + 1).join(''));
      const out = options.flatMap((option) => alternatives(option).flatMap((middle) => after.map((end) => before + middle + end)));
      if (out.length > MAX_ALTERNATIVES) throw new Error(`the pattern has more than ${MAX_ALTERNATIVES} alternatives`);
      return out;
    }
  }
  if (depth > 0) throw new Error('unexpected end of input: a { is not closed');
  return [pattern];
}

function tokenize(pattern: string): Token[] {
  const chars = [...pattern].map((c) => c.codePointAt(0) as number);
  const tokens: Token[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as number;
    if (c === 0x5c) {
      if (i + 1 >= chars.length) throw new Error('unexpected end of input after \\');
      tokens.push({ kind: 'text', char: chars[++i] as number });
    } else if (c === 0x2a) {
      if (tokens[tokens.length - 1]?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (c === 0x3f) {
      tokens.push({ kind: 'one' });
    } else if (c === 0x5b) {
      const end = chars.indexOf(0x5d, i + 1);
      if (end < 0) throw new Error('unexpected end of input: a [ is not closed');
      let body = chars.slice(i + 1, end);
      const negated = body[0] === 0x21;
      if (negated) body = body.slice(1);
      const ranges: [number, number][] = [];
      for (let j = 0; j < body.length; j++) {
        const low = body[j] as number;
        if (body[j + 1] === 0x2d && j + 2 < body.length) {
          ranges.push([low, body[j + 2] as number]);
          j += 2;
        } else ranges.push([low, low]);
      }
      tokens.push({ kind: 'set', negated, ranges });
      i = end;
    } else {
      tokens.push({ kind: 'text', char: c });
    }
  }
  return tokens;
}

function part(tokens: readonly Token[]): Part {
  const plain = tokens.every((token) => token.kind === 'text');
  return { tokens, text: plain ? String.fromCodePoint(...tokens.map((token) => (token as { char: number }).char)) : undefined, masks: new Map() };
}

function compile(tokens: readonly Token[]): Compiled {
  const parts: Token[][] = [[]];
  for (const token of tokens) {
    if (token.kind === 'star') parts.push([]);
    else (parts[parts.length - 1] as Token[]).push(token);
  }
  const first = part(parts[0] as Token[]);
  if (parts.length === 1) return { first, middle: [], last: undefined };
  const middle = parts.slice(1, -1).map(part);
  if (middle.some((m) => m.text === undefined && m.tokens.length > MAX_PART)) throw new Error(`otelgate takes at most ${MAX_PART} characters with ? or [...] between two stars`);
  return { first, middle, last: part(parts[parts.length - 1] as Token[]) };
}

function matchesOne(token: Token, char: number): boolean {
  switch (token.kind) {
    case 'text':
      return token.char === char;
    case 'one':
      return true;
    case 'set':
      return token.ranges.some(([low, high]) => char >= low && char <= high) !== token.negated;
    case 'star':
      return false;
  }
}

/** Where `part` matches `text` from `at` (each token one code point) ends, or -1; never past `end`. */
function matchAt(part: Part, text: string, at: number, end: number): number {
  let c = at;
  for (const token of part.tokens) {
    if (c >= end) return -1;
    const char = text.codePointAt(c) as number;
    if (!matchesOne(token, char)) return -1;
    c += char > 0xffff ? 2 : 1;
  }
  return c;
}

/** The bits of `part`'s tokens that `char` matches. */
function maskOf(part: Part, char: number): number {
  let mask = part.masks.get(char);
  if (mask === undefined) {
    mask = 0;
    part.tokens.forEach((token, i) => {
      if (matchesOne(token, char)) mask = (mask as number) | (1 << i);
    });
    if (part.masks.size < MAX_MASKS) part.masks.set(char, mask);
  }
  return mask;
}

/** Where the leftmost match of `part` in `text` between `from` and `end` ends, or -1. */
function find(part: Part, text: string, from: number, end: number): number {
  if (part.text !== undefined) {
    const at = text.indexOf(part.text, from);
    return at < 0 || at + part.text.length > end ? -1 : at + part.text.length;
  }
  // Shift-and: bit i is set where the last i + 1 characters match the part's first i + 1 tokens.
  const done = 1 << (part.tokens.length - 1);
  let state = 0;
  for (let c = from; c < end; ) {
    const char = text.codePointAt(c) as number;
    state = ((state << 1) | 1) & maskOf(part, char);
    c += char > 0xffff ? 2 : 1;
    if ((state & done) !== 0) return c;
  }
  return -1;
}

/** Where `part` would start to end exactly at the end of `text`, or -1: each of its tokens takes one code point, counted back. */
function startOfLast(part: Part, text: string, from: number): number {
  let at = text.length;
  for (let n = part.tokens.length; n > 0; n--) {
    if (at <= from) return -1;
    const low = text.charCodeAt(at - 1);
    at -= at - 2 >= from && low >= 0xdc00 && low <= 0xdfff && (text.charCodeAt(at - 2) & 0xfc00) === 0xd800 ? 2 : 1;
  }
  return matchAt(part, text, at, text.length) === text.length ? at : -1;
}

/** Whether the whole of `text` matches: the first part at the start, the last at the end, each part between leftmost in turn. */
function matches(compiled: Compiled, text: string): boolean {
  const afterFirst = matchAt(compiled.first, text, 0, text.length);
  if (afterFirst < 0) return false;
  if (compiled.last === undefined) return afterFirst === text.length;
  const end = startOfLast(compiled.last, text, afterFirst);
  if (end < 0) return false;
  let at = afterFirst;
  for (const middle of compiled.middle) {
    at = find(middle, text, at, end);
    if (at < 0) return false;
  }
  return true;
}

/** `pattern` compiled to a test of a whole text; throws a plain Error for a pattern gobwas/glob refuses. */
export function compileGlob(pattern: string): (text: string) => boolean {
  const compiled = alternatives(pattern).map((alternative) => compile(tokenize(alternative)));
  return (text) => compiled.some((alternative) => matches(alternative, text));
}
