// The JSON readers' fuzz tests' bodies: a valid body made invalid by one to three edits (a byte
// flipped, the body cut short, two bodies spliced, one of `inserts` put in), from a seeded
// generator, so that a failing body is made again by the same run.
export function mutations(seeds: readonly Buffer[], inserts: readonly Buffer[], seed: number): () => Buffer {
  let state = seed;
  const random = (n: number): number => {
    state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
    return state % n;
  };
  return () => {
    let body = Buffer.from(seeds[random(seeds.length)] as Buffer);
    for (let edits = 1 + random(3); edits > 0 && body.length > 0; edits--) {
      const at = random(body.length);
      switch (random(4)) {
        case 0:
          body[at] = random(256);
          break;
        case 1:
          body = body.subarray(0, at);
          break;
        case 2: {
          const other = seeds[random(seeds.length)] as Buffer;
          body = Buffer.concat([body.subarray(0, at), other.subarray(random(other.length + 1))]);
          break;
        }
        default:
          body = Buffer.concat([body.subarray(0, at), inserts[random(inserts.length)] as Buffer, body.subarray(at)]);
      }
    }
    return body;
  };
}
