// What the OTTL processors (filter, transform) share: their compiled settings, and the warning
// error_mode ignore gives about conditions or statements that failed on rows.
import { ConfigError } from '../../errors.js';
import { OttlError } from '../../ottl/errors.js';
import type { ComponentContext, SettingsProblem } from '../../runtime/component.js';

/** ignore's warning comes at most this often. */
const ERROR_LOG_INTERVAL_MS = 60_000;

/**
 * What compiled; validate() refused the settings already when something did not, so a processor
 * made without it (a test, an embedder) throws rather than passing everything.
 */
export function compiledOrThrow<T>(compiled: T | { problems: SettingsProblem[] }): T {
  if (typeof compiled === 'object' && compiled !== null && 'problems' in compiled) {
    throw new ConfigError(compiled.problems.map((p) => ({ severity: 'error', path: p.path.join('.'), message: p.message })));
  }
  return compiled;
}

/**
 * `make(text)`, or undefined with a settings problem at `path` naming the statement or condition
 * and its column when it does not parse or compile.
 */
export function compiledAt<T>(text: string, path: readonly (string | number)[], problems: SettingsProblem[], make: (text: string) => T): T | undefined {
  try {
    return make(text);
  } catch (error) {
    if (!(error instanceof OttlError)) throw error;
    problems.push({ path: [...path], message: `${JSON.stringify(text)}, ${error.message}` });
    return undefined;
  }
}

/** error_mode ignore's warning: the failures since the last one, and the first of them. */
export class FailureLog {
  private loggedAt = Number.NEGATIVE_INFINITY;
  private unlogged = 0;
  private first: { text: string; message: string } | undefined;

  /** `field`: what the log line calls the failed text (condition, statement). */
  constructor(
    private readonly ctx: ComponentContext,
    private readonly field: string,
    private readonly message: string,
  ) {}

  failed(text: string, message: string): void {
    this.unlogged++;
    this.first ??= { text, message };
  }

  /** Logs what failed, if anything did and the last warning is a minute old. */
  flush(): void {
    if (this.first === undefined || Date.now() - this.loggedAt < ERROR_LOG_INTERVAL_MS) return;
    this.loggedAt = Date.now();
    this.ctx.logger.warn({ [this.field]: this.first.text, err: this.first.message, failures: this.unlogged }, this.message);
    this.unlogged = 0;
    this.first = undefined;
  }
}
