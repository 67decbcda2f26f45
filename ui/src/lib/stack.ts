// A stack trace's text (the exception.stacktrace attribute) as the errors view shows it: the error
// itself as a heading, and every other line (frames, causes) on its own. The error is the first
// line, as JavaScript, Java and .NET print it; a Python traceback prints it last.

export interface Stack {
  heading: string;
  lines: string[];
}

const PYTHON = 'Traceback (most recent call last):';

/** Blank lines at either end are dropped; the frames keep their indentation. */
export function splitStack(text: string): Stack {
  const lines = text.split(/\r\n|\r|\n/);
  while (lines.length > 0 && lines[0]!.trim() === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  if (lines[0]?.trim() === PYTHON && lines.length > 1) return { heading: lines.pop()!.trim(), lines };
  const [heading = '', ...rest] = lines;
  return { heading: heading.trim(), lines: rest };
}
