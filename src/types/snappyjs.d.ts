// snappyjs ships no types: the two functions otelgate calls, as its index.js defines them.
declare module 'snappyjs' {
  /** Snappy's block format (no framing): what Loki and Prometheus remote-write read. */
  export function compress(uncompressed: Uint8Array): Uint8Array;
  /** Throws on a stream that is not snappy, or whose length is above `maxLength`. */
  export function uncompress(compressed: Uint8Array, maxLength?: number): Uint8Array;
}
