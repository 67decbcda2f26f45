// The viewer in a real Chromium, served by the built otelgate (test/helpers/viewer.ts): the sign-in
// page and what it says to each kind of key, signing out, the address as the state of the view (a
// shared link survives the sign-in), the Content-Security-Policy enforced with nothing on the page
// breaking it, and the whole of it by keyboard and at a phone's width.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TRACE_ID } from '../helpers/viewer-dataset.js';
import { BROWSER_TESTS, focused, overflow, pathOf, PHONE, screenshot, useViewer } from '../helpers/viewer.js';
import { waitUntil } from '../helpers/wait.js';

const { available, viewer } = useViewer();

const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

// The page's globals, read as expressions: this project's types have no DOM.
const storedItems = (page: Page) => page.evaluate<number>('sessionStorage.length');
const storedKey = (page: Page) => page.evaluate<string | null>("sessionStorage.getItem('otelgate.key')");

/** Types `key` into the sign-in page's field and presses Enter; resolves with what the page then says. */
async function refusedMessage(page: Page, key: string): Promise<string> {
  await page.goto(`${viewer().url}/ui/`);
  await page.getByTestId('signin-key').fill(key);
  await page.getByTestId('signin-key').press('Enter');
  const message = page.locator('[data-testid=signin-message]:not(:empty)');
  await message.waitFor();
  return (await message.textContent()) ?? '';
}

describe.skipIf(!available)('the viewer in Chromium', BROWSER_TESTS, () => {
  it('shows the sign-in page at /ui/, with the focus in the key field', async () => {
    const { page, problems } = await viewer().newPage();
    const response = await page.goto(`${viewer().url}/ui/`);
    expect(response?.status()).toBe(200);
    await page.getByTestId('signin').waitFor();
    expect(pathOf(page)).toBe('/ui/signin');
    expect(await focused(page)).toBe('signin-key');
    expect(await page.title()).toBe('Sign in · otelgate');
    await screenshot(page, 'viewer-signin');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('signs a read key in, keeps it for the tab, and lands on the logs view', async () => {
    const { page, problems } = await viewer().newPage();
    await viewer().signIn(page, viewer().keys.read, '/ui/');
    await page.getByTestId('view-logs').waitFor();
    expect(pathOf(page)).toBe('/ui/logs');
    expect(await page.getByTestId('nav-logs').getAttribute('aria-current')).toBe('page');
    expect(await storedKey(page)).toBe(viewer().keys.read);
    expect(await page.title()).toBe('Logs · otelgate');
    await screenshot(page, 'viewer-shell');
    expect(problems).toEqual([]);
    await page.close();
  });

  it.each([
    ['a key of the project that may only send', () => viewer().keys.ingest],
    ['a well-formed key otelgate does not know', () => 'otg_0000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['text that is no key at all', () => 'not a key'],
  ])('refuses %s, naming the read scope it needs, and keeps nothing', async (_, key) => {
    const { page } = await viewer().newPage();
    const message = await refusedMessage(page, key());
    expect(message).toContain('This key cannot read: sign in with a key that has the read scope (otelgate keys create --project NAME --scope read).');
    // Honest that it cannot tell which kind of refused key this is.
    expect(message).toMatch(/does not know.*revoked.*may only send data \(the ingest scope\)/);
    expect(pathOf(page)).toBe('/ui/signin');
    expect(await storedItems(page)).toBe(0);
    // The key is there to be corrected.
    expect(await focused(page)).toBe('signin-key');
    await page.close();
  });

  it('signs out: sessionStorage is emptied, the sign-in page is shown, and a view asks for a key again', async () => {
    const { page, problems } = await viewer().newPage();
    await viewer().signIn(page, viewer().keys.read);
    await page.getByTestId('signout').click();
    await page.getByTestId('signin').waitFor();
    expect(pathOf(page)).toBe('/ui/signin');
    expect(await storedItems(page)).toBe(0);
    await page.goto(`${viewer().url}/ui/metrics`);
    await page.getByTestId('signin').waitFor();
    expect(pathOf(page)).toBe('/ui/signin?next=%2Fui%2Fmetrics');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('opens a shared link after the sign-in it needs, query string and all', async () => {
    const { page, problems } = await viewer().newPage();
    await viewer().signIn(page, viewer().keys.read, `/ui/traces/${TRACE_ID}?service=web`);
    await page.getByTestId('view-traces').waitFor();
    expect(pathOf(page)).toBe(`/ui/traces/${TRACE_ID}?service=web`);
    expect(await page.getByTestId('trace-id').textContent()).toBe(TRACE_ID);
    expect(await page.getByTestId('nav-traces').getAttribute('aria-current')).toBe('page');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('moves between the four views by the nav without loading the page, and the back button returns', async () => {
    const { page, problems } = await viewer().newPage();
    await viewer().signIn(page, viewer().keys.read);
    const loads: string[] = [];
    page.on('load', () => loads.push(page.url()));
    for (const [view, title] of [
      ['traces', 'Traces'],
      ['metrics', 'Metrics'],
      ['errors', 'Errors'],
      ['logs', 'Logs'],
    ] as const) {
      await page.getByTestId(`nav-${view}`).click();
      await page.getByTestId(`view-${view}`).waitFor();
      expect(pathOf(page)).toBe(`/ui/${view}`);
      expect(await page.locator(`[data-testid=view-${view}] h1`).textContent()).toBe(title);
      expect(await page.title()).toBe(`${title} · otelgate`);
    }
    await page.goBack();
    await page.getByTestId('view-errors').waitFor();
    expect(pathOf(page)).toBe('/ui/errors');
    expect(loads).toEqual([]);
    await page.goto(`${viewer().url}/ui/no/such/view`);
    await page.getByTestId('view-not-found').waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });

  it('is served with the Content-Security-Policy, breaks none of it, and the browser enforces it', async () => {
    const { page, problems } = await viewer().newPage();
    const response = await page.goto(`${viewer().url}/ui/signin`);
    expect(response?.headers()).toMatchObject({ 'content-security-policy': CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' });
    await viewer().signIn(page, viewer().keys.read);
    for (const view of ['traces', 'metrics', 'errors']) await page.getByTestId(`nav-${view}`).click();
    expect(problems).toEqual([]);

    // What an injected script or style would do, refused, and seen by the watch the view tests rely on.
    await page.evaluate(`(() => {
      const script = document.createElement('script');
      script.textContent = 'window.injected = true';
      document.head.append(script);
      const style = document.createElement('style');
      style.textContent = 'body { display: none }';
      document.head.append(style);
    })()`);
    expect(await waitUntil(() => problems.filter((p) => p.startsWith('console: securitypolicyviolation')).length === 2)).toBe(true);
    expect(problems.filter((p) => p.startsWith('console: securitypolicyviolation'))).toEqual([
      'console: securitypolicyviolation: script-src-elem blocked inline',
      'console: securitypolicyviolation: style-src-elem blocked inline',
    ]);
    expect(await page.evaluate<unknown>('window.injected')).toBeUndefined();
    await page.close();
  });

  it('works by keyboard alone: Tab to the key field, type, Enter; Tab to a view, Enter', async () => {
    const { page, problems } = await viewer().newPage();
    await page.goto(`${viewer().url}/ui/`);
    await page.getByTestId('signin').waitFor();
    // From the top of the page (a click on its heading moves where Tab starts from).
    await page.locator('h1').click();
    expect(await focused(page)).toBe(null);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('signin-key');
    // The focus ring shows where the keyboard is.
    expect(await page.evaluate<string>('getComputedStyle(document.activeElement).outlineStyle')).toBe('solid');
    await page.keyboard.type(viewer().keys.read);
    await page.keyboard.press('Enter');
    await page.getByTestId('view-logs').waitFor();

    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('nav-logs');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('nav-traces');
    expect(await page.evaluate<string>('getComputedStyle(document.activeElement).outlineStyle')).toBe('solid');
    await page.keyboard.press('Enter');
    await page.getByTestId('view-traces').waitFor();
    expect(pathOf(page)).toBe('/ui/traces');
    for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('signout');
    await page.keyboard.press('Enter');
    await page.getByTestId('signin').waitFor();
    expect(await storedItems(page)).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('fits a phone’s width: nothing runs off the side, on the sign-in page or in the shell', async () => {
    const { page, problems } = await viewer().newPage(PHONE);
    await page.goto(`${viewer().url}/ui/`);
    await page.getByTestId('signin').waitFor();
    expect(await overflow(page)).toBe(0);
    await screenshot(page, 'viewer-signin-phone');
    await viewer().signIn(page, viewer().keys.read);
    expect(await overflow(page)).toBe(0);
    await screenshot(page, 'viewer-shell-phone');
    expect(problems).toEqual([]);
    await page.close();
  });
});
