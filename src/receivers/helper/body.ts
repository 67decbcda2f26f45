// Reads a request body through its decompressor with a hard cap on the decompressed size: past
// the cap the body is discarded whole, and a gzip bomb never costs more memory than the cap.
import type { IncomingMessage } from 'node:http';
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, createZstdDecompress } from 'node:zlib';
import type { ByteBudget } from './budget.js';

/** `zlib` is confighttp's name for what HTTP calls deflate: a zlib stream. `br` only where a protocol takes it (Sentry SDKs send it). */
export type ContentEncoding = 'identity' | 'gzip' | 'deflate' | 'zlib' | 'zstd' | 'br';

export type BodyResult =
  | { kind: 'ok'; body: Buffer }
  | { kind: 'too_large' }
  | { kind: 'corrupt'; reason: string }
  | { kind: 'aborted' }
  /** The in-flight byte budget ran out: retry later. */
  | { kind: 'busy' };

function decompressor(encoding: Exclude<ContentEncoding, 'identity'>): Transform {
  switch (encoding) {
    case 'gzip':
      return createGunzip();
    case 'deflate':
    case 'zlib':
      return createInflate();
    case 'zstd':
      return createZstdDecompress();
    case 'br':
      return createBrotliDecompress();
  }
}

/**
 * Bytes are taken from `budget` as they arrive; whoever gets `ok` owns them and gives them back
 * (`size` of the body) when done with the request. On any other outcome they are already given back.
 */
export function readBody(req: IncomingMessage, encoding: ContentEncoding, cap: number, budget: ByteBudget): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (encoding === 'identity' && declared > cap) {
    req.resume();
    return Promise.resolve({ kind: 'too_large' });
  }
  return new Promise((resolve) => {
    const inflater = encoding === 'identity' ? undefined : decompressor(encoding);
    const source: Readable = inflater === undefined ? req : req.pipe(inflater);
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (result: BodyResult): void => {
      if (settled) return;
      settled = true;
      source.removeAllListeners('data');
      if (result.kind !== 'ok') {
        budget.give(size);
        size = 0;
        if (inflater !== undefined) {
          req.unpipe(inflater);
          inflater.destroy();
        }
        // Drain what the client still sends, without decompressing or keeping it.
        req.resume();
      }
      resolve(result);
    };
    source.on('data', (chunk: Buffer) => {
      if (size + chunk.length > cap) {
        chunks.length = 0;
        finish({ kind: 'too_large' });
        return;
      }
      if (!budget.take(chunk.length)) {
        chunks.length = 0;
        finish({ kind: 'busy' });
        return;
      }
      size += chunk.length;
      chunks.push(chunk);
    });
    source.on('end', () => finish({ kind: 'ok', body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size) }));
    inflater?.on('error', (error) => finish({ kind: 'corrupt', reason: `the ${encoding} body could not be decompressed: ${error.message}` }));
    req.on('error', () => finish({ kind: 'aborted' }));
    req.on('aborted', () => finish({ kind: 'aborted' }));
  });
}
