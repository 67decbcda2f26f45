// The viewer's end-to-end harness: the built otelgate writing to the embedded store, the dataset of
// viewer-dataset.ts sent through the ingest endpoints over real HTTP (OTLP JSON and the Sentry
// envelope path) and read back until all of it is there, and a real Chromium driven by
// playwright-core. A view test:
//
//   const { available, viewer } = useViewer();
//   describe.skipIf(!available)('the logs view', () => {
//     it('…', async () => {
//       const { page, problems } = await viewer().newPage();
//       await viewer().signIn(page, viewer().keys.read, '/ui/logs');
//       await ready(page, 'logs');
//       …
//       await screenshot(page, 'logs-default');
//       expect(problems).toEqual([]);
//     });
//   });
//
// Without Chromium the tests are skipped with a warning, or fail where OTELGATE_REQUIRE_CHROMIUM is
// set (test/helpers/chromium.ts). Screenshots go to test-artifacts/ (not committed).
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Scope } from '../../src/auth/authenticator.js';
import { generateKey } from '../../src/auth/key.js';
import { readKeysFile, writeKeysFile } from '../../src/auth/keysfile.js';
import { CHROMIUM, chromiumAvailable } from './chromium.js';
import { ROOT } from './cli.js';
import { startGateway, STORE_CONFIG, type Gateway } from './gateway.js';
import { COUNTS, ERROR_EVENTS, errorEnvelope, LOGS, logsExport, metricsExport, OTHER_LOG, OTHER_PROJECT, PROJECT, tracesExport } from './viewer-dataset.js';
import { DEADLINE_MS, waitUntil } from './wait.js';

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

const ARTIFACTS = join(ROOT, 'test-artifacts');

export interface WatchedPage {
  page: Page;
  /**
   * What went wrong on the page so far: console errors (a failed request, a CSP violation as the
   * browser reports it), uncaught errors, and every securitypolicyviolation event. A view test
   * expects it empty.
   */
  problems: string[];
}

export interface Viewer {
  /** The gateway's origin, http://127.0.0.1:<port>; the viewer is at `${url}/ui/`. */
  url: string;
  gateway: Gateway;
  /** Keys of the project "shop": read only, ingest only; of "other": read only (and ingest only, which sent its log). */
  keys: { read: string; ingest: string; otherRead: string; otherIngest: string };
  /** Date.now() when the dataset was sent: its times count back from it (nanosAt in viewer-dataset.ts). */
  now: number;
  browser: Browser;
  /** A page in a context of its own (its own sessionStorage), watched for problems. */
  newPage(viewport?: { width: number; height: number }): Promise<WatchedPage>;
  /**
   * Keys of a new project, read only and ingest only, accepted once they are answered: for a test
   * that sends data of its own, so that the dataset's projects stay as the other tests expect them.
   */
  newProject(project: string): Promise<{ read: string; ingest: string }>;
  /**
   * Opens `path` (the sign-in page comes first), signs in with `key` by the keyboard, and waits
   * for the view; throws with the sign-in page's message when the key is refused.
   */
  signIn(page: Page, key: string, path?: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The options of every describe of browser tests: a test chains several waits of up to DEADLINE_MS,
 * so that one slow step on a loaded machine must not make the whole test time out (the suite's
 * testTimeout is 30 s).
 */
export const BROWSER_TESTS = { timeout: 120_000 };

/**
 * Starts the viewer before the file's tests and stops it after them (vitest's hooks, registered by
 * this call at the file's top level). `viewer()` is the running viewer, for tests and hooks: at the
 * top level there is none yet.
 */
export function useViewer(): { available: boolean; viewer: () => Viewer } {
  const available = chromiumAvailable();
  let running: Viewer | undefined;
  beforeAll(async () => {
    if (available) running = await startViewer();
  }, 60_000);
  afterAll(async () => {
    await running?.stop();
  });
  const viewer = (): Viewer => {
    if (running === undefined) throw new Error('The viewer is not running: viewer() is for tests and hooks, where Chromium is available.');
    return running;
  };
  return { available, viewer };
}

// ---- reading a page (its globals as expressions: this project's types have no DOM) ----

/** The page's path and query, as the address bar has them. */
export function pathOf(page: Page): string {
  const url = new URL(page.url());
  return url.pathname + url.search;
}

/** The data-testid of the element that has the focus. */
export const focused = (page: Page): Promise<string | null> => page.evaluate<string | null>("document.activeElement?.getAttribute('data-testid') ?? null");

/** How far the page is wider than the window: 0 where nothing makes it scroll sideways. */
export const overflow = (page: Page): Promise<number> => page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');

/** The browser shows times in its zone, and a test writes them in its own (UTC under vitest; newPage gives the browser the same): they must be the same. */
export async function sameZone(page: Page, ms: number): Promise<void> {
  expect(await page.evaluate<number>(`new Date(${ms}).getTimezoneOffset()`)).toBe(new Date(ms).getTimezoneOffset());
}

/** Waits until the view `name` (view-<name>) has the data of its address on screen, or said why not, and answers which: ready or error. */
export async function settled(page: Page, name: string): Promise<string | null> {
  const view = page.locator(`[data-testid=view-${name}]:not([data-state=loading])`);
  await view.waitFor();
  return view.getAttribute('data-state');
}

/** Waits until the view `name` (view-<name>) is ready: its data on screen. */
export async function ready(page: Page, name: string): Promise<void> {
  await page.locator(`[data-testid=view-${name}][data-state=ready]`).waitFor();
}

/** Saves a full-page screenshot as test-artifacts/<name>.png, to look at after a run. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

async function post(url: string, key: string, contentType: string, body: string | Buffer, headers: Record<string, string> = { Authorization: `Bearer ${key}` }): Promise<void> {
  const response = await fetch(url, { method: 'POST', headers: { ...headers, 'Content-Type': contentType }, body });
  const text = await response.text();
  // A dataset mistake would show as a partial success: the body must say nothing was rejected.
  expect([response.status, text], url).toEqual([200, expect.stringMatching(/^\{(?:"id":"[0-9a-f]{32}")?\}$/)]);
}

/** Sends the whole dataset, as the SDKs would, with the ingest-only keys. */
async function send(url: string, keys: Viewer['keys'], now: number): Promise<void> {
  await post(`${url}/v1/logs`, keys.ingest, 'application/json', JSON.stringify(logsExport(now, LOGS)));
  await post(`${url}/v1/traces`, keys.ingest, 'application/json', JSON.stringify(tracesExport(now)));
  await post(`${url}/v1/metrics`, keys.ingest, 'application/json', JSON.stringify(metricsExport(now)));
  for (const error of ERROR_EVENTS) {
    await post(`${url}/api/1/envelope/`, keys.ingest, 'application/x-sentry-envelope', errorEnvelope(now, error), {
      'X-Sentry-Auth': `Sentry sentry_key=${keys.ingest}, sentry_version=7, sentry_client=sentry.javascript.browser/10.0.0`,
    });
  }
  await post(`${url}/v1/logs`, keys.otherIngest, 'application/json', JSON.stringify(logsExport(now, [OTHER_LOG])));
}

export async function startViewer(): Promise<Viewer> {
  const dir = mkdtempSync(join(tmpdir(), 'otelgate-viewer-'));
  const gateway = await startGateway({
    config: STORE_CONFIG(join(dir, 'store.db')),
    keys: {
      read: { project: PROJECT, scopes: ['read'] },
      ingest: { project: PROJECT, scopes: ['ingest'] },
      otherRead: { project: OTHER_PROJECT, scopes: ['read'] },
      otherIngest: { project: OTHER_PROJECT, scopes: ['ingest'] },
    },
  });
  const keys = gateway.keys as Viewer['keys'];
  const url = gateway.url;
  const now = Date.now();
  const prepare = async (): Promise<Browser> => {
    await send(url, keys, now);
    const count = async (what: 'logs' | 'spans' | 'metrics', key: string): Promise<number> => (await gateway.read(what, key, { limit: '1000' })).body.rows?.length ?? -1;
    const counts = async () => [await count('logs', keys.read), await count('spans', keys.read), await count('metrics', keys.read), await count('logs', keys.otherRead)];
    const expected = [COUNTS.logs, COUNTS.spans, COUNTS.metricPoints, COUNTS.otherLogs];
    const stored = await waitUntil(async () => JSON.stringify(await counts()) === JSON.stringify(expected));
    expect(stored ? expected : await counts(), 'rows read back: logs, spans, metric points, the other project’s logs').toEqual(expected);
    // Root in CI, where Chromium's sandbox cannot start.
    return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  };
  const browser = await prepare().catch(async (error: unknown) => {
    await gateway.stop();
    throw error;
  });

  return {
    url,
    gateway,
    keys,
    now,
    browser,
    async newPage(viewport = DESKTOP) {
      // The zone of the times the tests write (formatTime, nanosToLocalInput), whatever the machine's.
      const page = await browser.newPage({ viewport, timezoneId: Intl.DateTimeFormat().resolvedOptions().timeZone });
      page.setDefaultTimeout(DEADLINE_MS);
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${String(error)}`));
      // Reported through the console, which the listener above reads; added by the browser, so the
      // page's own CSP does not apply to it.
      await page.addInitScript({
        content: "document.addEventListener('securitypolicyviolation', (e) => console.error(`securitypolicyviolation: ${e.violatedDirective} blocked ${e.blockedURI}`));",
      });
      return { page, problems };
    },
    async newProject(project) {
      const read = generateKey();
      const ingest = generateKey();
      const entry = (key: typeof read, scope: Scope) => ({ id: key.id, project, sha256: key.sha256, scopes: [scope] });
      writeKeysFile(gateway.keysFile, [...readKeysFile(gateway.keysFile), entry(read, 'read'), entry(ingest, 'ingest')]);
      // The keys file is read again every 200 ms (the gateway's reload_interval).
      const known = await waitUntil(async () => (await gateway.read('logs', read.key, { limit: '1' })).status === 200);
      expect(known, `the keys of project ${project} were taken`).toBe(true);
      return { read: read.key, ingest: ingest.key };
    },
    async signIn(page, key, path = '/ui/logs') {
      await page.goto(`${url}${path}`);
      const field = page.getByTestId('signin-key');
      await field.fill(key);
      await field.press('Enter');
      const nav = page.getByTestId('nav');
      const refused = page.locator('[data-testid=signin-message]:not(:empty)');
      await nav.or(refused).waitFor();
      if (await refused.isVisible()) throw new Error(`the key was refused: ${await refused.textContent()}`);
    },
    async stop() {
      await browser.close();
      await gateway.stop();
    },
  };
}
