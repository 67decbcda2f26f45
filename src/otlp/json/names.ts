// Member names matched straight from the bytes of a JSON body, for reader.ts: each kind of object
// has a table of the names it knows, and a name is recognised without making a string.

/** A name the table does not know. */
export const UNKNOWN = -1;

const QUOTE = 0x22;

/**
 * The member names one kind of object has, each with a small id (its index). A name is matched
 * against the bytes: first the one that followed the same member last time (senders write every
 * object of a kind with the same names in the same order), then the few that begin with the same
 * byte, each comparison failing at the first byte that differs. Names written with escapes
 * ("time\u0055nixNano" is timeUnixNano to JSON.parse) are decoded and looked up by string.
 */
export class NameTable {
  private readonly byName = new Map<string, number>();
  private readonly bytes: Uint8Array[];
  /** The ids of the names that begin with each byte. */
  private readonly byFirst: number[][];
  /** The member that followed each member last time (index: its id + 1; 0 for the first member). */
  private readonly next: Int16Array;

  constructor(readonly names: readonly string[]) {
    this.bytes = names.map((name) => Buffer.from(name, 'latin1'));
    this.byFirst = Array.from({ length: 256 }, () => []);
    this.next = new Int16Array(names.length + 1).fill(UNKNOWN);
    names.forEach((name, id) => {
      // '' keeps an id free (a field with one spelling where others have two): it matches nothing.
      if (name === '') return;
      this.byName.set(name, id);
      (this.byFirst[name.charCodeAt(0)] as number[]).push(id);
    });
  }

  get size(): number {
    return this.names.length;
  }

  length(id: number): number {
    return (this.bytes[id] as Uint8Array).length;
  }

  /**
   * The id of the known name whose bytes, then a quote, start at `start` (past the opening quote);
   * UNKNOWN when none does. `previous`: the id of the member before it in its object, or UNKNOWN.
   */
  match(buf: Buffer, start: number, end: number, previous: number): number {
    const guess = this.next[previous + 1] as number;
    if (guess !== UNKNOWN && this.matches(buf, start, end, guess)) return guess;
    const candidates = this.byFirst[buf[start] as number];
    if (candidates === undefined) return UNKNOWN;
    for (let k = 0; k < candidates.length; k++) {
      const id = candidates[k] as number;
      if (this.matches(buf, start, end, id)) {
        this.next[previous + 1] = id;
        return id;
      }
    }
    return UNKNOWN;
  }

  private matches(buf: Buffer, start: number, end: number, id: number): boolean {
    const name = this.bytes[id] as Uint8Array;
    const length = name.length;
    if (start + length >= end || buf[start + length] !== QUOTE) return false;
    for (let i = 0; i < length; i++) if (buf[start + i] !== name[i]) return false;
    return true;
  }

  get(name: string): number {
    return this.byName.get(name) ?? UNKNOWN;
  }
}
