// Snappy's block format, the body encoding of Loki's protobuf push and of Prometheus remote-write.
// snappyjs, pure JavaScript: as fast as the native `snappy` package's binding on Node 24 for these
// bodies, with no platform binary to install (README, Dependencies).
import snappyjs from 'snappyjs';

export function snappyBlock(bytes: Uint8Array): Buffer {
  const compressed = snappyjs.compress(bytes);
  return Buffer.from(compressed.buffer, compressed.byteOffset, compressed.byteLength);
}
