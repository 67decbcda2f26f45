// The viewer's files as the ingest receiver serves them (src/receivers/ingest/ui.ts), in this
// process: what loadUi makes of a built folder (a type by extension, caching by whether a name
// carries its content hash, files in subfolders), conditional requests, and what a receiver whose
// viewer was never built answers and logs. test/ui/serving.test.ts serves the real build.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadUi, NOT_BUILT, UI_DIR, uiHandler } from '../../../src/receivers/ingest/ui.js';
import { startReceiver } from '../../helpers/receiver.js';

const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A built viewer in a temporary folder: each file's path under it, and its text. */
function built(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'otelgate-ui-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const servers: Server[] = [];
afterAll(() => {
  for (const server of servers) server.close();
});

async function serve(dir: string): Promise<string> {
  const handle = uiHandler(() => loadUi(dir));
  const server = createServer((req, res) => void handle(req, res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('loadUi', () => {
  it('finds no viewer in a folder without index.html, or no folder at all', () => {
    expect(loadUi(built({ 'assets/main-ABCDEFGH.js': '' }))).toBeUndefined();
    expect(loadUi(join(tmpdir(), 'otelgate-no-such-folder'))).toBeUndefined();
  });

  it('serves each asset with the type of its extension, for good when its name carries its hash, else asked for again', async () => {
    const url = await serve(
      built({
        'index.html': '<!doctype html>',
        'assets/main-ABCDEFGH.js': 'export {};',
        'assets/main-2345WXYZ.css': 'body{}',
        'assets/fonts/inter-AB12CD34.woff2': 'wOF2',
        'assets/logo.svg': '<svg/>',
        'assets/data-ZZZZ9999.bin': 'x',
      }),
    );
    const answers = await Promise.all(
      ['main-ABCDEFGH.js', 'main-2345WXYZ.css', 'fonts/inter-AB12CD34.woff2', 'logo.svg', 'data-ZZZZ9999.bin'].map(async (file) => {
        const response = await fetch(`${url}/ui/assets/${file}`);
        return [file, response.status, response.headers.get('content-type'), response.headers.get('cache-control'), await response.text()];
      }),
    );
    expect(answers).toEqual([
      ['main-ABCDEFGH.js', 200, 'text/javascript; charset=utf-8', IMMUTABLE, 'export {};'],
      ['main-2345WXYZ.css', 200, 'text/css; charset=utf-8', IMMUTABLE, 'body{}'],
      ['fonts/inter-AB12CD34.woff2', 200, 'font/woff2', IMMUTABLE, 'wOF2'],
      ['logo.svg', 200, 'image/svg+xml', 'no-cache', '<svg/>'],
      ['data-ZZZZ9999.bin', 200, 'application/octet-stream', IMMUTABLE, 'x'],
    ]);
  });

  it('answers a conditional GET whose If-None-Match names the file 304, with no body', async () => {
    const url = await serve(built({ 'index.html': '<!doctype html>' }));
    const etag = (await fetch(`${url}/ui/`)).headers.get('etag') as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    const ask = async (ifNoneMatch: string) => {
      const response = await fetch(`${url}/ui/logs`, { headers: { 'If-None-Match': ifNoneMatch } });
      return [response.status, response.headers.get('etag'), response.headers.get('content-security-policy'), await response.text()];
    };
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) expect(await ask(header), header).toEqual([304, etag, CSP, '']);
    expect(await ask('"other"')).toEqual([200, etag, CSP, '<!doctype html>']);
  });
});

describe('a receiver whose viewer was never built (tsc alone, no npm run build)', () => {
  // In this process the receiver runs from src/, where there is no ui/ beside it: as dist/ has
  // none after tsc alone.
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    expect(existsSync(UI_DIR), UI_DIR).toBe(false);
    receiver = await startReceiver();
  });
  afterAll(() => receiver?.stop());

  it('says at start, once, how to build it', () => {
    const warnings = receiver.lines.filter((line) => line['msg'] === `${NOT_BUILT} Until then /ui/ answers 404.`);
    expect(warnings).toEqual([expect.objectContaining({ level: 'warn', dir: UI_DIR })]);
  });

  it('answers /ui/ and every path under it 404 with the same words, under the same headers as the viewer', async () => {
    for (const path of ['/ui/', '/ui/logs', '/ui/assets/main-ABCDEFGH.js']) {
      const response = await fetch(`http://127.0.0.1:${receiver.port}${path}`);
      expect([response.status, response.headers.get('content-type'), response.headers.get('content-security-policy'), await response.text()], path).toEqual([
        404,
        'text/plain; charset=utf-8',
        CSP,
        NOT_BUILT,
      ]);
    }
  });
});
