// Reads at most a bound of a backend's answer: an OTLP response or an error message is small, and
// a backend (or a proxy's error page) must never make otelgate hold an unbounded body.
import type { Readable } from 'node:stream';

/** What is read of an answer, as the Collector's otlphttp exporter (maxHTTPResponseReadBytes). */
export const RESPONSE_LIMIT = 64 * 1024;

/**
 * The first `limit` bytes of `body`. Past the limit the stream is destroyed, which closes the
 * connection instead of reading the rest only to keep it.
 */
export async function readBounded(body: Readable, limit = RESPONSE_LIMIT): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    if (size + chunk.length > limit) {
      chunks.push(chunk.subarray(0, limit - size));
      size = limit;
      body.destroy();
      break;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
}
