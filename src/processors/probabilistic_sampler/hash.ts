// The hash_seed mode's randomness, bit for bit the Collector's (fnvhasher.go, sampler_mode.go):
// 32-bit FNV-1a over the seed's 4 bytes (little-endian) then the trace id's 16 bytes (or an
// attribute's), of which 14 bits decide and the rest fill a 56-bit r-value, so that the decision
// reads as the consistent modes' threshold <= randomness.

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const NUM_HASH_BUCKETS = 0x4000;
const BUCKET_MASK = NUM_HASH_BUCKETS - 1;

function seeded(seed: number): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < 4; i++) hash = Math.imul(hash ^ ((seed >>> (8 * i)) & 0xff), FNV_PRIME);
  return hash;
}

/** FNV-1a of the seed, then `bytes`, as an unsigned 32-bit number. */
export function fnvHash(bytes: Uint8Array, seed: number): number {
  let hash = seeded(seed);
  for (let i = 0; i < bytes.length; i++) hash = Math.imul(hash ^ (bytes[i] as number), FNV_PRIME);
  return hash >>> 0;
}

const nibble = (c: number): number => (c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x57);

/** FNV-1a of the seed, then the bytes of a hex trace id, read in place. */
export function fnvHashHex(hex: string, seed: number): number {
  let hash = seeded(seed);
  for (let i = 0; i + 1 < hex.length; i += 2) hash = Math.imul(hash ^ ((nibble(hex.charCodeAt(i)) << 4) | nibble(hex.charCodeAt(i + 1))), FNV_PRIME);
  return hash >>> 0;
}

/**
 * The 56-bit randomness of a 32-bit hash: 14 bits of it, reversed (R' = 2^14 - 1 - R) so that the
 * Collector's old `hash < rate` reads as `threshold <= randomness`, then 28 bits mixed from the 18
 * others, then the 14 again.
 */
export function hashRandomness(hashed32: number): bigint {
  const hashed = hashed32 & BUCKET_MASK;
  // The Collector's "18 unused bits" are hashed32 >> (32 - 14): the top 14, which it mixes into 28.
  const unused = hashed32 >>> 18;
  const mixed28 = (unused ^ (unused << 10)) >>> 0;
  return (BigInt(BUCKET_MASK - hashed) << 42n) | (BigInt(mixed28) << 14n) | BigInt(hashed);
}

/**
 * The threshold hash_seed mode keeps `percent` (a float32) with: the Collector's 14-bit rate
 * `uint32(pct * 163.84)`, multiplied in float32 and truncated, made a reject threshold. undefined
 * when the rate truncates to 0 (nothing is kept).
 */
export function hashSeedThreshold(percent: number): bigint | undefined {
  const rate = Math.trunc(Math.fround(percent * Math.fround(NUM_HASH_BUCKETS / 100)));
  return rate === 0 ? undefined : BigInt(NUM_HASH_BUCKETS - rate) << 42n;
}
