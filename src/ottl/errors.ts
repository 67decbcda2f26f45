// OTTL's errors: one in a statement as written (its column, what was expected), found when the
// config is loaded; and one while a statement runs on a row, which error_mode decides about.

export class OttlError extends Error {
  constructor(
    /** 1-based column in the statement. */
    readonly column: number,
    readonly reason: string,
  ) {
    super(`column ${column}: ${reason}`);
    this.name = 'OttlError';
  }
}

/** A statement or condition that cannot be evaluated on one row (a converter given a value of the wrong type, a division by 0). */
export class OttlRuntimeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OttlRuntimeError';
  }
}

/**
 * Client text for an error message: JSON-quoted, and past `max` characters only its start and
 * how long it was, so that a megabyte of bad input does not become a megabyte of log line.
 */
export function quoted(text: string, max = 128): string {
  if (text.length <= max) return JSON.stringify(text);
  // A cut between the two halves of a surrogate pair would show as an escape of half a character.
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return `${JSON.stringify(text.slice(0, end))}…(${Buffer.byteLength(text, 'utf8')} bytes)`;
}
