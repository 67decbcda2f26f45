// Snappy's block format read as Prometheus and Loki read it (github.com/golang/snappy, decode_other.go):
// strictly, so that a block a lenient decoder would take but theirs would refuse fails a test. A
// copy must reach back no further than the bytes decoded so far, every element must fit the
// declared length, and the elements must fill it exactly.
export function snappyDecodeStrict(block: Uint8Array): Buffer {
  let s = 0;
  let length = 0;
  for (let shift = 0; ; shift += 7) {
    if (s >= block.length || shift > 28) throw new Error('snappy: corrupt input (length)');
    const b = block[s++] as number;
    length += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) break;
  }
  const dst = Buffer.alloc(length);
  let d = 0;
  while (s < block.length) {
    const tag = block[s] as number;
    let offset: number;
    let n: number;
    switch (tag & 3) {
      case 0: {
        let x = tag >>> 2;
        if (x < 60) s += 1;
        else {
          const extra = x - 59;
          if (s + 1 + extra > block.length) throw new Error('snappy: corrupt input (literal length)');
          x = 0;
          for (let i = 0; i < extra; i++) x += (block[s + 1 + i] as number) * 256 ** i;
          s += 1 + extra;
        }
        n = x + 1;
        if (n > length - d || n > block.length - s) throw new Error('snappy: corrupt input (literal)');
        dst.set(block.subarray(s, s + n), d);
        d += n;
        s += n;
        continue;
      }
      case 1:
        if (s + 2 > block.length) throw new Error('snappy: corrupt input (copy 1)');
        n = 4 + ((tag >>> 2) & 7);
        offset = ((tag & 0xe0) << 3) | (block[s + 1] as number);
        s += 2;
        break;
      case 2:
        if (s + 3 > block.length) throw new Error('snappy: corrupt input (copy 2)');
        n = 1 + (tag >>> 2);
        offset = (block[s + 1] as number) | ((block[s + 2] as number) << 8);
        s += 3;
        break;
      default:
        if (s + 5 > block.length) throw new Error('snappy: corrupt input (copy 4)');
        n = 1 + (tag >>> 2);
        offset = ((block[s + 1] as number) | ((block[s + 2] as number) << 8) | ((block[s + 3] as number) << 16) | ((block[s + 4] as number) << 24)) >>> 0;
        s += 5;
    }
    if (offset <= 0 || d < offset || n > length - d) throw new Error(`snappy: corrupt input (copy of ${n} from ${offset} back at ${d})`);
    for (let i = 0; i < n; i++, d++) dst[d] = dst[d - offset] as number;
  }
  if (d !== length) throw new Error(`snappy: corrupt input (${d} bytes of the ${length} declared)`);
  return dst;
}
