// Glob patterns as github.com/gobwas/glob compiles them without separators (replace_match,
// replace_all_matches): * any run of characters, ? any one, [abc] [a-z] [!a-z] one of a set or not,
// {a,b} one of the alternatives, \ the next character as itself; the whole text must match. Matched
// without regular expressions: a run of stars costs O(text × pattern), never exponential time.

type Token = { kind: 'text'; char: string } | { kind: 'one' } | { kind: 'star' } | { kind: 'set'; negated: boolean; ranges: [string, string][] };

/** More alternatives than this (braces multiply) are refused rather than tried one by one. */
const MAX_ALTERNATIVES = 256;

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
  const chars = [...pattern];
  const tokens: Token[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as string;
    if (c === '\\') {
      if (i + 1 >= chars.length) throw new Error('unexpected end of input after \\');
      tokens.push({ kind: 'text', char: chars[++i] as string });
    } else if (c === '*') {
      if (tokens[tokens.length - 1]?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (c === '?') {
      tokens.push({ kind: 'one' });
    } else if (c === '[') {
      const end = chars.indexOf(']', i + 1);
      if (end < 0) throw new Error('unexpected end of input: a [ is not closed');
      let body = chars.slice(i + 1, end);
      const negated = body[0] === '!';
      if (negated) body = body.slice(1);
      const ranges: [string, string][] = [];
      for (let j = 0; j < body.length; j++) {
        const low = body[j] as string;
        if (body[j + 1] === '-' && j + 2 < body.length) {
          ranges.push([low, body[j + 2] as string]);
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

function matchesOne(token: Token, char: string): boolean {
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

/** Whether the whole of `chars` matches `tokens`: the classic wildcard walk, going back to the last star on a mismatch. */
function matches(tokens: readonly Token[], chars: readonly string[]): boolean {
  let t = 0;
  let c = 0;
  let star = -1;
  let resume = 0;
  while (c < chars.length) {
    const token = tokens[t];
    if (token !== undefined && token.kind === 'star') {
      star = t++;
      resume = c;
    } else if (token !== undefined && matchesOne(token, chars[c] as string)) {
      t++;
      c++;
    } else if (star >= 0) {
      t = star + 1;
      c = ++resume;
    } else {
      return false;
    }
  }
  while (tokens[t]?.kind === 'star') t++;
  return t === tokens.length;
}

/** `pattern` compiled to a test of a whole text; throws a plain Error for a pattern gobwas/glob refuses. */
export function compileGlob(pattern: string): (text: string) => boolean {
  const compiled = alternatives(pattern).map(tokenize);
  return (text) => {
    const chars = [...text];
    return compiled.some((tokens) => matches(tokens, chars));
  };
}
