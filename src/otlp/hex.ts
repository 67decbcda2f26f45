// Trace and span ids between their wire bytes and the lower-case hex the rows keep.

const BYTE_HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function bytesToHex(buf: Uint8Array, start: number, end: number): string {
  let out = '';
  for (let i = start; i < end; i++) out += BYTE_HEX[buf[i] as number];
  return out;
}

const HEX = /^[0-9a-fA-F]*$/;

/** Lower-cased hex, or undefined when the text is not hex of an even length. */
export function normalizeHex(text: string): string | undefined {
  if (text.length % 2 !== 0 || !HEX.test(text)) return undefined;
  return text.toLowerCase();
}
