// Request body compression, as confighttp's `compression`: gzip (the otlp_http default), zstd, or none.
import { promisify } from 'node:util';
import zlib from 'node:zlib';

export const COMPRESSIONS = ['gzip', 'zstd', 'none'] as const;
export type Compression = (typeof COMPRESSIONS)[number];

/** zstd is in node:zlib from Node 22.15 and 23.8; otelgate runs on Node 24, but an embedder may not. */
export function zstdAvailable(): boolean {
  return typeof (zlib as Partial<typeof zlib>).zstdCompress === 'function';
}

export const ZSTD_MISSING = `compression zstd needs Node 22.15 or later (node:zlib has no zstd in Node ${process.versions.node}); use gzip, or run otelgate with npm start, which uses its Node 24`;

const gzip = promisify(zlib.gzip);
const zstd = zstdAvailable() ? promisify(zlib.zstdCompress) : undefined;

/** The Content-Encoding a compression sends, or undefined for none. */
export function contentEncoding(compression: Compression): 'gzip' | 'zstd' | undefined {
  return compression === 'gzip' || compression === 'zstd' ? compression : undefined;
}

/** Compresses off the event loop (zlib's thread pool), so a large batch does not hold up ingest. */
export async function compress(body: Buffer, compression: Compression): Promise<Buffer> {
  switch (compression) {
    case 'gzip':
      return gzip(body);
    case 'zstd':
      if (zstd === undefined) throw new Error(ZSTD_MISSING);
      return zstd(body);
    default:
      return body;
  }
}
