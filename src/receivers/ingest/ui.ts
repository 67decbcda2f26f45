// The viewer (docs/viewer.md) on the ingest listener: the files `npm run build` writes to dist/ui,
// read once at start and served from memory under /ui/. Every /ui answer carries a strict
// Content-Security-Policy: the page runs only its own script and style, and talks only to this
// origin, so that nothing injected into the data it shows can run or send the key elsewhere.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { send } from '../helper/send.js';

export const UI_PREFIX = '/ui/';
const ASSETS = `${UI_PREFIX}assets/`;

/**
 * dist/ui of the package this module is part of (it is dist/receivers/ingest/ui.js): found from an
 * installed package as from a clone, whatever the working directory.
 */
export const UI_DIR = fileURLToPath(new URL('../../ui/', import.meta.url));

export const NOT_BUILT = 'The viewer is not built: run `npm run build` in otelgate\'s folder (it writes dist/ui), then restart otelgate.';

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** scripts/build-ui.mjs names assets `<name>-<esbuild's 8-character content hash>.<ext>`: such a name never changes content. */
const HASHED = /-[A-Z0-9]{8}\.[a-z0-9]+$/;

interface UiFile {
  body: Buffer;
  contentType: string;
  cacheControl: string;
  etag: string;
}

export interface UiFiles {
  index: UiFile;
  /** By their path, /ui/assets/…. */
  assets: ReadonlyMap<string, UiFile>;
}

function uiFile(body: Buffer, name: string, cacheControl: string): UiFile {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return { body, contentType: CONTENT_TYPES[extname(name)] ?? 'application/octet-stream', cacheControl, etag };
}

/** The built viewer in `dir` (index.html and assets/), or undefined when there is no index.html. */
export function loadUi(dir: string): UiFiles | undefined {
  const indexFile = join(dir, 'index.html');
  if (!existsSync(indexFile)) return undefined;
  const assets = new Map<string, UiFile>();
  const assetsDir = join(dir, 'assets');
  if (existsSync(assetsDir)) {
    for (const entry of readdirSync(assetsDir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const file = join(entry.parentPath, entry.name);
      const path = ASSETS + relative(assetsDir, file).split(sep).join('/');
      assets.set(path, uiFile(readFileSync(file), entry.name, HASHED.test(entry.name) ? 'public, max-age=31536000, immutable' : 'no-cache'));
    }
  }
  // no-cache, not no-store: the browser keeps the page and asks each time whether it changed (ETag).
  return { index: uiFile(readFileSync(indexFile), 'index.html', 'no-cache'), assets };
}

/** Whether If-None-Match names `etag` (weakly compared, as RFC 9110 asks for GET). */
function unchanged(req: IncomingMessage, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

/**
 * GET and HEAD under /ui/: an asset by its path, and the page (index.html) for every other path,
 * which the page's own router reads; /ui redirects to /ui/. `files` is what start() loaded.
 */
export function uiHandler(files: () => UiFiles | undefined): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const url = req.url ?? '/';
    const question = url.indexOf('?');
    const path = question === -1 ? url : url.slice(0, question);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(res, 405, 'text/plain; charset=utf-8', `Method ${req.method ?? ''} is not allowed here; the viewer is read with GET.`, { ...SECURITY_HEADERS, Allow: 'GET, HEAD' });
      return;
    }
    if (path === UI_PREFIX.slice(0, -1)) {
      // 308, not 301: the same method, and no cached guess by a browser that the move is forever.
      send(res, 308, 'text/plain; charset=utf-8', '', { ...SECURITY_HEADERS, Location: question === -1 ? UI_PREFIX : UI_PREFIX + url.slice(question) });
      return;
    }
    const loaded = files();
    if (loaded === undefined) {
      send(res, 404, 'text/plain; charset=utf-8', NOT_BUILT, SECURITY_HEADERS);
      return;
    }
    const file = path.startsWith(ASSETS) ? loaded.assets.get(path) : loaded.index;
    if (file === undefined) {
      send(res, 404, 'text/plain; charset=utf-8', 'No such file in the viewer.', SECURITY_HEADERS);
      return;
    }
    const cache = { ETag: file.etag, 'Cache-Control': file.cacheControl };
    if (unchanged(req, file.etag)) {
      res.writeHead(304, { ...SECURITY_HEADERS, ...cache }).end();
      return;
    }
    res.writeHead(200, { ...SECURITY_HEADERS, ...cache, 'Content-Type': file.contentType, 'Content-Length': String(file.body.length) });
    // Node leaves the body out of an answer to HEAD.
    res.end(file.body);
  };
}
