// Trace and span ids as the rows keep them: lower-case hex.

const HEX = /^[0-9a-fA-F]*$/;

/** Lower-cased hex, or undefined when the text is not hex of an even length. */
export function normalizeHex(text: string): string | undefined {
  if (text.length % 2 !== 0 || !HEX.test(text)) return undefined;
  return text.toLowerCase();
}
