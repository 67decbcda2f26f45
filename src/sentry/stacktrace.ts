// A Sentry exception chain → the stack text its language would print (exception.stacktrace):
// JavaScript as Node prints an Error with causes, Python as a traceback, anything else as Java
// prints a Throwable. Sentry sends frames oldest first, and `exception.values` with the outermost
// (the one raised last) at the end, each earlier one the cause of the one after it.
import { isObject, scalarText, str, type JsonObject } from './json.js';

export interface Frame {
  function?: string | undefined;
  module?: string | undefined;
  /** abs_path, else filename. */
  file?: string | undefined;
  line?: string | undefined;
  column?: string | undefined;
  /** The source line, for Python's traceback. */
  code?: string | undefined;
}

export interface SentryException {
  /** The type, qualified by its module where one is sent (as Python and Java print it). */
  type: string;
  value: string;
  frames: Frame[];
  /** mechanism.source: how it hangs off the exception after it (Python: __cause__ or __context__). */
  source: string | undefined;
  /** mechanism.synthetic: not an exception but a message's call site. */
  synthetic: boolean;
}

/**
 * Exceptions of one chain printed at most, the outermost kept: the SDKs send 5 by default, and
 * Node's indentation grows with each cause, so a body of many one-frame causes would otherwise
 * print text growing with the square of their number.
 */
const MAX_CHAIN = 64;

// Python prints builtins and __main__ types unqualified.
const UNQUALIFIED_MODULES = new Set(['builtins', '__builtin__', '__main__', 'exceptions']);
// A module that qualifies a type is a dotted name (Python's, Java's package); others are not
// (.NET's SDK sends the assembly's full name there, and its type is already qualified).
const DOTTED_NAME = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;

/** The type as Python and Java print it: qualified by its module. */
function qualified(type: string, module: string | undefined): string {
  if (module === undefined || type === '' || UNQUALIFIED_MODULES.has(module) || !DOTTED_NAME.test(module) || type.startsWith(`${module}.`)) return type;
  return `${module}.${type}`;
}

function frameOf(value: JsonObject): Frame {
  return {
    function: str(value['function']),
    module: str(value['module']),
    file: str(value['abs_path']) ?? str(value['filename']),
    line: lineNumber(value['lineno']),
    column: lineNumber(value['colno']),
    code: str(value['context_line']),
  };
}

function lineNumber(value: unknown): string | undefined {
  return (typeof value === 'number' && Number.isSafeInteger(value)) || typeof value === 'bigint' ? String(value) : undefined;
}

export function framesOf(stacktrace: unknown): Frame[] {
  if (!isObject(stacktrace) || !Array.isArray(stacktrace['frames'])) return [];
  return stacktrace['frames'].filter(isObject).map(frameOf);
}

/** The exceptions of an event's `exception` ({values: [...]}, or the bare list older SDKs sent), outermost last. */
export function exceptionsOf(exception: unknown): SentryException[] {
  const values = isObject(exception) ? exception['values'] : exception;
  if (!Array.isArray(values)) return [];
  const out: SentryException[] = [];
  for (const value of values) {
    if (!isObject(value)) continue;
    const mechanism = isObject(value['mechanism']) ? value['mechanism'] : {};
    out.push({
      type: qualified(scalarText(value['type']) ?? '', str(value['module'])),
      value: scalarText(value['value']) ?? '',
      frames: framesOf(value['stacktrace']),
      source: str(mechanism['source']),
      synthetic: mechanism['synthetic'] === true,
    });
  }
  return out;
}

/** `Type: value`, or whichever of the two there is. */
export function headline(exception: SentryException): string {
  if (exception.type === '') return exception.value;
  return exception.value === '' ? exception.type : `${exception.type}: ${exception.value}`;
}

export type StackStyle = 'javascript' | 'python' | 'java';

/** The style of a Sentry platform: the JavaScript SDKs send `javascript` (browsers) or `node`. */
export function styleOf(platform: string | undefined): StackStyle {
  if (platform === 'javascript' || platform === 'node') return 'javascript';
  return platform === 'python' ? 'python' : 'java';
}

/** The chain's stack text in the style; `chain` outermost last, as Sentry sends it. */
export function stackText(style: StackStyle, chain: readonly SentryException[]): string {
  const kept = chain.slice(-MAX_CHAIN);
  switch (style) {
    case 'javascript':
      return javascript(kept.toReversed(), '');
    case 'python':
      return python(kept);
    case 'java':
      return java(kept.toReversed());
  }
}

/**
 * V8's `    at fn (file:line:col)`, newest frame first; each cause as Node's util.inspect shows it,
 * `{ [cause]: ... }` indented under the error it caused (without Node's "... N lines matching
 * cause stack trace ..." shortening).
 */
function javascript(outermostFirst: readonly SentryException[], indent: string): string {
  const [exception, ...causes] = outermostFirst;
  if (exception === undefined) return '';
  const lines = [headline(exception)];
  for (let i = exception.frames.length - 1; i >= 0; i--) lines.push(`${indent}    at ${javascriptFrame(exception.frames[i] as Frame)}`);
  const text = withoutEmptyHead(lines);
  if (causes.length === 0) return text;
  return `${text} {\n${indent}  [cause]: ${javascript(causes, `${indent}  `)}\n${indent}}`;
}

/** Lines joined, the first left out when empty: a call site's stack has no headline. */
function withoutEmptyHead(lines: string[]): string {
  return (lines[0] === '' ? lines.slice(1) : lines).join('\n');
}

function javascriptFrame(frame: Frame): string {
  let where = frame.file ?? '<anonymous>';
  if (frame.line !== undefined) where += `:${frame.line}${frame.column === undefined ? '' : `:${frame.column}`}`;
  // V8 leaves an anonymous function's name out; the JavaScript SDKs write it as "?".
  return frame.function === undefined || frame.function === '' || frame.function === '?' ? where : `${frame.function} (${where})`;
}

const DIRECT_CAUSE = '\n\nThe above exception was the direct cause of the following exception:\n\n';
const DURING_HANDLING = '\n\nDuring handling of the above exception, another exception occurred:\n\n';

/** CPython's traceback: oldest frame first, the innermost cause first, each tied to the next by how it was raised. */
function python(outermostLast: readonly SentryException[]): string {
  return outermostLast
    .map((exception, i) => {
      const lines: string[] = [];
      if (exception.frames.length > 0) lines.push('Traceback (most recent call last):');
      for (const frame of exception.frames) {
        lines.push(`  File "${frame.file ?? '<unknown>'}"${frame.line === undefined ? '' : `, line ${frame.line}`}${frame.function === undefined ? '' : `, in ${frame.function}`}`);
        const code = frame.code?.trim();
        if (code !== undefined && code !== '') lines.push(`    ${code}`);
      }
      lines.push(headline(exception));
      const text = lines.at(-1) === '' ? lines.slice(0, -1).join('\n') : lines.join('\n');
      // How the exception before this one hangs off it says which words tie them.
      return i === 0 ? text : `${outermostLast[i - 1]?.source === '__context__' ? DURING_HANDLING : DIRECT_CAUSE}${text}`;
    })
    .join('');
}

/** Java's Throwable.printStackTrace(): `\tat module.function(file:line)`, newest frame first, then `Caused by: ` each cause. */
function java(outermostFirst: readonly SentryException[]): string {
  return outermostFirst
    .map((exception, i) => {
      const lines = [i === 0 ? headline(exception) : `Caused by: ${headline(exception)}`];
      for (let f = exception.frames.length - 1; f >= 0; f--) {
        const frame = exception.frames[f] as Frame;
        const name = [frame.module, frame.function].filter((part) => part !== undefined && part !== '').join('.');
        const file = frame.file === undefined ? 'Unknown Source' : `${baseName(frame.file)}${frame.line === undefined ? '' : `:${frame.line}`}`;
        lines.push(`\tat ${name === '' ? '<unknown>' : name}(${file})`);
      }
      return withoutEmptyHead(lines);
    })
    .join('\n');
}

/** Java prints a frame's file name without its directory. */
function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}
