// Fuzzing the simple endpoint's byte reader: 100,000 bodies made from arbitrary ones (bodies.ts)
// by flipping bytes, cutting them short, splicing two together and inserting JSON's structural
// bytes. No exception escapes, and every answer is the JSON.parse-based decoder's: that decoder is
// what the endpoint answered before, so it is the specification here, broken bodies included.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeSimpleLogs } from '../../src/simple/decode.js';
import { answer, sameAnswer, simpleBody } from './bodies.js';
import { referenceDecodeSimpleLogs } from './reference-decode.js';

const BODIES = 100_000;
const ARRIVAL = 1_800_000_000_000_000_000n;
const INSERTS = ['{', '}', '[', ']', '"', '\\', ',', ':', 'null', '0', '-', 'e', '.', '\\u', '\\ud800', '\xff', '\xc3', ' ', '"message":', '"context":{"1":{', '"a":', '1e400', '\xef\xbb\xbf'].map((s) => Buffer.from(s, 'latin1'));

describe('the simple JSON reader, fuzzed', () => {
  it(`answers ${BODIES.toLocaleString('en')} mutated bodies as the JSON.parse-based decoder does`, () => {
    // Short bodies, to keep the run short: each edit breaks or changes a larger share of them.
    const seeds = fc.sample(simpleBody, { seed: 424243, numRuns: 600 }).filter((body) => body.length <= 400);
    let state = 12345;
    const random = (n: number): number => {
      state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
      return state % n;
    };
    let unreadable = 0;
    let rows = 0;
    for (let i = 0; i < BODIES; i++) {
      let body = Buffer.from(seeds[random(seeds.length)] as Buffer);
      for (let edits = 1 + (random(4) === 0 ? 1 : 0); edits > 0 && body.length > 0; edits--) {
        let at = random(body.length);
        const edit = random(20);
        if (edit < 8) {
          // Half the flips hit a letter, mostly inside a string: a body that stays JSON, read differently.
          if (edit < 4) while (at < body.length - 1 && !/[a-z]/i.test(String.fromCharCode(body[at] as number))) at++;
          body[at] = random(256);
        } else if (edit < 11) {
          body = body.subarray(0, at);
        } else if (edit < 14) {
          const other = seeds[random(seeds.length)] as Buffer;
          body = Buffer.concat([body.subarray(0, at), other.subarray(random(other.length + 1))]);
        } else {
          body = Buffer.concat([body.subarray(0, at), INSERTS[random(INSERTS.length)] as Buffer, body.subarray(at)]);
        }
      }
      const decoded = decodeSimpleLogs(body, ARRIVAL);
      const reference = referenceDecodeSimpleLogs(body, ARRIVAL);
      if (!sameAnswer(decoded, reference)) {
        expect({ body: body.toString('latin1'), answer: answer(decoded) }).toEqual({ body: body.toString('latin1'), answer: answer(reference) });
        expect.unreachable('sameAnswer() and answer() disagree');
      }
      if (decoded.unreadable !== undefined) unreadable++;
      rows += decoded.rows.length;
    }
    // Both kinds of body are well represented: most edits break a body, and the rest still make rows.
    expect(unreadable).toBeGreaterThan(BODIES / 2);
    expect(unreadable).toBeLessThan((BODIES * 9) / 10);
    expect(rows).toBeGreaterThan(BODIES / 10);
  }, 60_000);
});
