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
