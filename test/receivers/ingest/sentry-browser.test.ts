// The real @sentry/browser SDK in a real headless Chromium, on a page served from another loopback
// origin than otelgate's, reports an error through its DSN: the key in the `sentry_key` query and
// the request allowed by the receiver's `cors` setting. The row arrives in the key's project and
// is read back with a read-only key of that project; the DSN's key, which any visitor of the page
// can see, cannot read it. A request the browser must preflight is let through from the allowed
// origin and never sent from another one.
//
// How: the SDK is bundled here with esbuild (its WebAssembly build, as nothing in the tree may have
// an install script; nothing comes from the internet) and served, with a page that loads it, by two
// node:http servers on free loopback ports: one the allowed origin, one not. playwright-core drives
// Debian's chromium (CHROMIUM_PATH names another; without one the test is skipped with a warning,
// and fails where OTELGATE_REQUIRE_CHROMIUM is set, as .ci/run sets it). Every wait is on a signal:
// the SDK's flush, a fetch's answer, the read API showing the rows.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild-wasm';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey } from '../../../src/auth/key.js';
import { writeKeysFile } from '../../../src/auth/keysfile.js';
import { CHROMIUM, chromiumAvailable } from '../../helpers/chromium.js';
import { ROOT } from '../../helpers/cli.js';
import { startGateway, STORE_CONFIG, type Gateway } from '../../helpers/gateway.js';
import { waitUntil } from '../../helpers/wait.js';

type Row = Record<string, unknown>;

const available = chromiumAvailable();
const MESSAGE = 'card declined in the browser';
const NOTE = 'checkout page noted a slow card form';
const PREFLIGHTED = 'sent after a preflight';
const FROM_ELSEWHERE = 'sent from an origin the receiver does not allow';

// The page's script: the SDK, and what the test asks the page to do. `chargeCard` is a named
// function so that the stored stack can be checked to name it.
const PAGE_SCRIPT = `
import * as Sentry from '@sentry/browser';

function chargeCard(message) {
  throw new Error(message);
}

globalThis.report = async (dsn, message, note) => {
  Sentry.init({ dsn });
  try {
    chargeCard(message);
  } catch (error) {
    Sentry.captureException(error);
  }
  Sentry.captureMessage(note, 'warning');
  return Sentry.flush(5000);
};
`;

/** What the bundle puts on the page's global object. */
interface PageGlobals {
  report(dsn: string, message: string, note: string): Promise<boolean>;
}

/** Serves the page and its bundle on a free loopback port; resolves with the origin this makes. */
async function pageServer(bundle: string): Promise<string> {
  const server = createServer((req, res) => {
    if (req.url === '/') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<!doctype html><meta charset="utf-8"><title>shop</title><script src="/bundle.js"></script>');
    } else if (req.url === '/bundle.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' }).end(bundle);
    } else {
      res.writeHead(404).end();
    }
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** One event as an envelope, as the SDK would write it. */
const envelopeOf = (message: string): string =>
  [JSON.stringify({ event_id: crypto.randomUUID().replaceAll('-', '') }), JSON.stringify({ type: 'event' }), JSON.stringify({ message, level: 'info', platform: 'javascript' })].join('\n');

/**
 * A POST of an envelope from the page that the browser must preflight (its Content-Type is not one
 * a form could send): its status once answered, or the error the page's fetch failed with.
 */
const postPreflighted = (page: Page, url: string, message: string): Promise<number | string> =>
  page.evaluate(
    async ([url, body]) => {
      try {
        return (await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-sentry-envelope' }, body })).status;
      } catch (error) {
        return String(error);
      }
    },
    [url, envelopeOf(message)] as const,
  );

// Each unset in afterAll when beforeAll failed before making it.
let gw: Gateway;
let browser: Browser;
const servers: Server[] = [];
let allowed: string;
let elsewhere: string;
const dsnKey = generateKey();
const readerKey = generateKey();

beforeAll(async () => {
  if (!available) return;
  const bundled = await build({
    stdin: { contents: PAGE_SCRIPT, resolveDir: ROOT, sourcefile: 'page.js', loader: 'js' },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
  });
  const bundle = bundled.outputFiles[0]?.text ?? '';
  allowed = await pageServer(bundle);
  elsewhere = await pageServer(bundle);

  const dir = mkdtempSync(join(tmpdir(), 'otelgate-sentry-browser-'));
  const corsConfig = join(dir, 'cors.yaml');
  writeFileSync(corsConfig, `receivers:\n  ingest:\n    cors:\n      allowed_origins: ["${allowed}"]\n`);
  gw = await startGateway({ config: STORE_CONFIG(join(dir, 'store.db')), configs: [corsConfig] });
  const entries = [
    { id: dsnKey.id, project: 'web', sha256: dsnKey.sha256, scopes: ['ingest' as const] },
    { id: readerKey.id, project: 'web', sha256: readerKey.sha256, scopes: ['read' as const] },
  ];
  writeKeysFile(gw.keysFile, entries);
  expect(await waitUntil(() => gw.run.lines.some((l) => l.msg === 'Reloaded API keys' && l['keys'] === entries.length))).toBe(true);

  // Root in CI, where Chromium's sandbox cannot start.
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gw?.stop();
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

const attributes = (row: Row): Row => (row['attributes'] ?? {}) as Row;

describe.skipIf(!available)('the Sentry browser SDK on a page of another origin, pointed at otelgate by its DSN', () => {
  let logs: Row[] = [];
  /** What the page logged, shown when its report or its rows fail to arrive. */
  const pageLog: string[] = [];
  /** otelgate's answers to the page's envelopes: status and Access-Control-Allow-Origin. */
  const answers: [number, string | undefined][] = [];
  let preflighted: number | string = '';
  let refused: number | string = '';
  /** The read API's answer to the page, or the error its fetch failed with. */
  let readFromPage: [number, string] | string = '';

  beforeAll(async () => {
    const dsn = `${gw.url.replace('//', `//${dsnKey.key}@`)}/1`;
    const envelopeUrl = `${gw.url}/api/1/envelope/?sentry_key=${dsnKey.key}`;

    // First from the origin not allowed, so that whatever it could have stored was sent before
    // what the test waits for below.
    const other = await browser.newPage();
    await other.goto(`${elsewhere}/`);
    refused = await postPreflighted(other, envelopeUrl, FROM_ELSEWHERE);
    await other.close();

    const page = await browser.newPage();
    page.on('console', (message) => pageLog.push(`${message.type()}: ${message.text()}`));
    page.on('pageerror', (error) => pageLog.push(`page error: ${String(error)}`));
    page.on('response', (response) => {
      if (response.url().startsWith(`${gw.url}/api/1/envelope/`)) answers.push([response.status(), response.headers()['access-control-allow-origin']]);
    });
    await page.goto(`${allowed}/`);
    // The SDK's own requests may or may not need a preflight (today it posts text/plain, which
    // does not); this one does, whatever the SDK does.
    preflighted = await postPreflighted(page, envelopeUrl, PREFLIGHTED);
    const flushed = await page.evaluate(([dsn, message, note]) => (globalThis as unknown as PageGlobals).report(dsn, message, note), [dsn, MESSAGE, NOTE] as const);
    expect(flushed, pageLog.join('\n')).toBe(true);
    // The read API, with the key the page holds: a preflight (for Authorization), then the GET.
    readFromPage = await page.evaluate(
      async ([url, key]) => {
        try {
          const response = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
          return [response.status, await response.text()] as [number, string];
        } catch (error) {
          return String(error);
        }
      },
      [`${gw.url}/api/v1/query/logs`, dsnKey.key] as const,
    );
    await page.close();

    const arrived = await waitUntil(async () => {
      const read = await gw.read('logs', readerKey.key, { limit: '1000' });
      logs = read.body.rows ?? [];
      return [`Error: ${MESSAGE}`, NOTE].every((body) => logs.some((row) => row['body'] === body));
    });
    expect(arrived, `rows read back: ${JSON.stringify(logs)}\npage log:\n${pageLog.join('\n')}`).toBe(true);
  }, 60_000);

  it('stores the captured error as a log row with the browser’s stack, the platform and the SDK', () => {
    const error = logs.find((row) => row['body'] === `Error: ${MESSAGE}`) ?? {};
    expect(error).toMatchObject({ severity_number: 17, severity_text: 'error' });
    expect(attributes(error)).toMatchObject({
      'exception.type': 'Error',
      'exception.message': MESSAGE,
      'sentry.platform': 'javascript',
      'sentry.sdk.name': 'sentry.javascript.browser',
      'url.full': `${allowed}/`,
    });
    // V8's form, newest frame first: the function that threw, in the bundle the page loaded.
    const bundle = `${allowed}/bundle.js`.replaceAll('.', '\\.');
    expect(attributes(error)['exception.stacktrace']).toMatch(new RegExp(`^Error: ${MESSAGE}\\n {4}at chargeCard \\(${bundle}:\\d+:\\d+\\)\\n {4}at `));
  });

  it('stores the captured message with its level', () => {
    expect(logs.find((row) => row['body'] === NOTE)).toMatchObject({ severity_number: 13, severity_text: 'warning', attributes: expect.objectContaining({ 'sentry.sdk.name': 'sentry.javascript.browser' }) });
  });

  it('answers every envelope of the allowed origin 200, with the CORS header the browser needs to read the answer', () => {
    // The preflighted POST, the error and the message (and whatever else the SDK sends, sessions say).
    expect(answers.length).toBeGreaterThanOrEqual(3);
    expect(answers.filter(([status, origin]) => status !== 200 || origin !== allowed)).toEqual([]);
  });

  it('answers the preflight of the allowed origin so that the browser sends the request, and stores it', () => {
    expect(preflighted).toBe(200);
    // Answered before the SDK was started, so stored before the rows waited for.
    expect(logs.filter((row) => row['body'] === PREFLIGHTED)).toHaveLength(1);
  });

  it('lets no request that needs a preflight through from another origin, so nothing of it is stored', async () => {
    // The browser refuses the preflight's answer and never sends the POST.
    expect(refused).toBe('TypeError: Failed to fetch');
    expect(logs.filter((row) => row['body'] === FROM_ELSEWHERE)).toEqual([]);
    // What it was answered: no Access-Control-Allow-* headers, where the allowed origin gets them.
    const ask = (origin: string) =>
      fetch(`${gw.url}/api/1/envelope/?sentry_key=${dsnKey.key}`, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
      });
    const corsHeaders = (response: Response) => Object.fromEntries([...response.headers].filter(([name]) => name.startsWith('access-control-')));
    const [denied, granted] = [await ask(elsewhere), await ask(allowed)];
    expect([denied.status, corsHeaders(denied)]).toEqual([204, {}]);
    expect([granted.status, corsHeaders(granted)]).toEqual([
      204,
      { 'access-control-allow-origin': allowed, 'access-control-allow-methods': 'POST', 'access-control-allow-headers': 'content-type' },
    ]);
  });

  it('does not let the DSN’s key, which the page shows to anyone, read the project', async () => {
    expect(readFromPage).toEqual([401, '{"message":"API key invalid."}']);
    const read = await gw.read('logs', dsnKey.key);
    expect([read.status, read.text]).toEqual([401, '{"message":"API key invalid."}']);
  });
});
