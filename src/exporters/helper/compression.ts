// Request body compression, as confighttp's `compression` and `compression_params.level`: gzip
// (the otlp_http default), zstd, or none.
import { promisify } from 'node:util';
import zlib from 'node:zlib';

export const COMPRESSIONS = ['gzip', 'zstd', 'none'] as const;
export type Compression = (typeof COMPRESSIONS)[number];

/** zstd is in node:zlib from Node 22.15 and 23.8; otelgate runs on Node 24, but an embedder may not. */
export function zstdAvailable(): boolean {
  return typeof (zlib as Partial<typeof zlib>).zstdCompress === 'function';
}

export const ZSTD_MISSING = `compression zstd needs Node 22.15 or later (node:zlib has no zstd in Node ${process.versions.node}); use gzip, or run otelgate with npm start, which uses its Node 24`;

/**
 * What `compression_params.level` may be, as the Collector checks it: for gzip zlib's levels
 * (-1 the default, which is 6; 1 fastest to 9 smallest; -2 Huffman coding only, which zlib has as
 * a strategy rather than a level); for zstd any level (see zstdLevel); `none` takes no level.
 * 0, or no level, is the default in each.
 */
export function levelProblem(compression: Compression, level: number): string | undefined {
  if (level === 0) return undefined;
  if (compression === 'gzip') return level >= -2 && level <= 9 ? undefined : `gzip takes a level from -2 to 9 (-1: the default, 1: fastest, 9: smallest), not ${level}`;
  if (compression === 'zstd') return undefined;
  return `compression ${compression} takes no level; remove compression_params.level`;
}

/**
 * The zstd level the Collector's level means. Its zstd encoder has four speeds, and reads a level
 * as the nearest: below 3 the fastest (what it uses when no level is set, as 0 becomes -1), 3 to 5
 * its default, 6 to 9 better compression, 10 and up the best; they stand for zstd's levels 1, 3,
 * 6 and 11 (the Collector's confighttp README).
 */
export function zstdLevel(level: number): number {
  if (level < 3) return 1;
  if (level < 6) return 3;
  if (level < 10) return 6;
  return 11;
}

/** The Collector's gzip level for Huffman coding only (Go's flate.HuffmanOnly). */
const HUFFMAN_ONLY = -2;

/**
 * Bodies up to these sizes are compressed on the event loop, larger ones on zlib's thread pool;
 * at slower levels than the default (gzip 7-9, zstd slower than its default speed) every body
 * goes to the thread pool.
 * Each size is about 2 ms of work at the codec's default level (gzip ~130 MB/s, zstd ~900 MB/s on
 * the machine measured), the time decoding a 1,000-record request takes: so long a pause is
 * ordinary here. Below it, the thread pool's hand-off costs more than it spares: measured on one
 * core, its streams and the native memory each call allocates made zstd twice as costly and
 * doubled the garbage collections of forwarding.
 */
export const INLINE_BYTES: Record<Exclude<Compression, 'none'>, number> = { gzip: 256 * 1024, zstd: 1024 * 1024 };

export interface Compressor {
  /** The Content-Encoding sent; undefined for none. */
  readonly encoding: 'gzip' | 'zstd' | undefined;
  compress(body: Buffer): Promise<Buffer>;
}

/** A compressor for `compression` at `level` (0: the default, as in the Collector: gzip's 6, zstd's fastest). */
export function compressor(compression: Compression, level = 0): Compressor {
  switch (compression) {
    case 'gzip': {
      const options: zlib.ZlibOptions =
        level === HUFFMAN_ONLY ? { strategy: zlib.constants.Z_HUFFMAN_ONLY } : { level: level === 0 ? zlib.constants.Z_DEFAULT_COMPRESSION : level };
      const gzip = promisify(zlib.gzip);
      const inline = level <= 6 ? INLINE_BYTES.gzip : 0;
      return { encoding: 'gzip', compress: async (body) => (body.length <= inline ? zlib.gzipSync(body, options) : gzip(body, options)) };
    }
    case 'zstd': {
      if (!zstdAvailable()) throw new Error(ZSTD_MISSING);
      const options: zlib.ZstdOptions = { params: { [zlib.constants.ZSTD_c_compressionLevel]: zstdLevel(level) } };
      const zstd = promisify(zlib.zstdCompress);
      const inline = zstdLevel(level) <= 3 ? INLINE_BYTES.zstd : 0;
      return { encoding: 'zstd', compress: async (body) => (body.length <= inline ? zlib.zstdCompressSync(body, options) : zstd(body, options)) };
    }
    case 'none':
      return { encoding: undefined, compress: async (body) => body };
  }
}
