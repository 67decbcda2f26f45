// The errors view in a real Chromium, against the dataset's three Sentry error events in two groups
// (test/helpers/viewer-dataset.ts): the groups in the read API's order with their counts, times,
// services and counts over time; a group opened to its latest event with the stack trace frame by
// frame and links to its log rows; the opened group in the address; another project seeing none
// of it; by keyboard and at a phone's width.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatTime } from '../../ui/src/lib/format.js';
import { ERROR_EVENTS, ERROR_GROUPS, errorBody, nanosAt } from '../helpers/viewer-dataset.js';
import { BROWSER_TESTS, overflow, pathOf, PHONE, ready, screenshot, useViewer } from '../helpers/viewer.js';

const { available, viewer } = useViewer();

const timeAt = (agoMs: number): string => formatTime(nanosAt(viewer().now, agoMs));

/** A group's events, newest last. */
const eventsOf = (group: (typeof ERROR_GROUPS)[number]) => group.events.map((i) => ERROR_EVENTS[i]!).sort((a, b) => b.agoMs - a.agoMs);

/** What the Sentry path prints of a browser event's one frame, as V8 would (src/sentry/stacktrace.ts). */
const frameLine = (frame: string): string => `    at ${frame} (/app.js:12:5)`;

/** The opened group's latest event, as the view shows it. */
async function openedEvent(page: Page) {
  const event = page.getByTestId('error-event');
  await event.waitFor();
  return {
    time: await event.getByTestId('error-event-time').textContent(),
    service: await event.getByTestId('error-event-service').textContent(),
    severity: await event.getByTestId('error-event-severity').textContent(),
    body: await event.getByTestId('error-event-body').textContent(),
    heading: await event.getByTestId('error-stack-heading').textContent(),
    frames: await event.getByTestId('error-stack-frame').allTextContents(),
    // A <pre>: each frame on a line of its own.
    stack: await event.getByTestId('error-stack').textContent(),
    font: await event.getByTestId('error-stack').evaluate((pre) => (globalThis as unknown as { getComputedStyle(e: unknown): { fontFamily: string } }).getComputedStyle(pre).fontFamily),
  };
}

const expectedEvent = (group: (typeof ERROR_GROUPS)[number]) => {
  const latest = eventsOf(group).at(-1)!;
  return {
    time: timeAt(latest.agoMs),
    service: group.services[0],
    severity: 'error',
    body: errorBody(latest),
    heading: errorBody(latest),
    frames: [`${frameLine(latest.frame)}\n`],
    stack: `${frameLine(latest.frame)}\n`,
    font: expect.stringContaining('monospace'),
  };
};

describe.skipIf(!available)('the errors view in Chromium', BROWSER_TESTS, () => {
  it('lists exactly the dataset’s two groups, the most frequent first, with their counts, times and services', async () => {
    const { page, problems } = await viewer().newPage();
    await viewer().signIn(page, viewer().keys.read, '/ui/errors');
    await ready(page, 'errors');
    const groups = page.getByTestId('error-group');
    expect(await groups.count()).toBe(ERROR_GROUPS.length);
    const shown = [];
    for (let i = 0; i < ERROR_GROUPS.length; i++) {
      const group = groups.nth(i);
      shown.push({
        type: await group.getByTestId('error-group-type').textContent(),
        message: await group.getByTestId('error-group-message').textContent(),
        count: Number(await group.getByTestId('error-group-count').textContent()),
        first: await group.getByTestId('error-group-first').textContent(),
        last: await group.getByTestId('error-group-last').textContent(),
        services: await group.getByTestId('error-group-services').textContent(),
        // Over time: the bars add up to the count.
        counted: (await group.locator('[data-testid=error-group-strip] rect').evaluateAll((rects) => rects.map((rect) => Number((rect as unknown as { dataset: { count: string } }).dataset.count)))).reduce((a, b) => a + b, 0),
        expanded: await group.getByTestId('error-group-toggle').getAttribute('aria-expanded'),
      });
    }
    expect(shown).toEqual(
      ERROR_GROUPS.map((group) => {
        const events = eventsOf(group);
        return {
          type: group.type,
          message: group.message,
          count: group.count,
          first: timeAt(events[0]!.agoMs),
          last: timeAt(events.at(-1)!.agoMs),
          services: group.services.join(', '),
          counted: group.count,
          expanded: 'false',
        };
      }),
    );
    expect(ERROR_GROUPS.map((group) => group.count)).toEqual([2, 1]);
    const total = ERROR_GROUPS.reduce((n, group) => n + group.count, 0);
    expect(await page.getByTestId('errors-summary').textContent()).toBe(`${ERROR_GROUPS.length} groups of ${total} errors, the most frequent first.`);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('opens a group to its latest event, the stack trace frame by frame, with a link to its log rows; the group is in the address', async () => {
    const { page, problems } = await viewer().newPage();
    await viewer().signIn(page, viewer().keys.read, '/ui/errors');
    await ready(page, 'errors');
    const [first, second] = ERROR_GROUPS;
    await page.getByTestId('error-group-toggle').first().click();
    expect(await openedEvent(page)).toEqual(expectedEvent(first));
    expect(await page.getByTestId('error-group-toggle').first().getAttribute('aria-expanded')).toBe('true');
    expect(pathOf(page)).toBe(`/ui/errors?${new URLSearchParams({ type: first.type, message: first.message }).toString()}`);
    expect(await page.getByTestId('error-logs-link').getAttribute('href')).toBe(`/ui/logs?${new URLSearchParams({ q: first.message, service: first.services[0] }).toString()}`);
    // The stack trace is the event's attribute, shown apart from the others.
    expect(await page.locator('[data-testid=error-attributes] [data-testid=attribute][data-key="exception.type"] td').textContent()).toBe(first.type);
    expect(await page.locator('[data-testid=error-attributes] [data-testid=attribute][data-key="exception.stacktrace"]').count()).toBe(0);
    await screenshot(page, 'errors');

    // By keyboard: Tab on from the first group's button to the second's, and Enter opens it, and only it.
    const secondToggle = page.getByTestId('error-group-toggle').nth(1);
    const tabs = [];
    for (let i = 0; i < 10 && !(await secondToggle.evaluate((button) => button === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement)); i++) {
      await page.keyboard.press('Tab');
      tabs.push(await page.evaluate<string | null>("document.activeElement?.getAttribute('data-testid') ?? null"));
    }
    // Through the opened event's links, to the next group.
    expect(tabs).toEqual(['error-logs-link', 'error-group-toggle']);
    expect(await page.evaluate<string>('getComputedStyle(document.activeElement).outlineStyle')).toBe('solid');
    await page.keyboard.press('Enter');
    await page.locator('[data-testid=error-group]:nth-child(2) [data-testid=error-event]').waitFor();
    expect(await page.getByTestId('error-event').count()).toBe(1);
    expect(await openedEvent(page)).toEqual(expectedEvent(second));
    const address = pathOf(page);

    // The address opens the same group; Enter again closes it.
    await page.goto(`${viewer().url}${address}`);
    await ready(page, 'errors');
    expect(await openedEvent(page)).toEqual(expectedEvent(second));
    await page.getByTestId('error-group-toggle').nth(1).focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('error-event').waitFor({ state: 'detached' });
    expect(pathOf(page)).toBe('/ui/errors');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows another project’s key no error groups', async () => {
    const { page, problems } = await viewer().newPage();
    await viewer().signIn(page, viewer().keys.otherRead, '/ui/errors');
    await ready(page, 'errors');
    expect(await page.getByTestId('errors-empty').textContent()).toBe('No errors in this range.');
    expect(await page.getByTestId('error-group').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('fits a phone’s width, an opened group and its stack trace included', async () => {
    const { page, problems } = await viewer().newPage(PHONE);
    const [first] = ERROR_GROUPS;
    await viewer().signIn(page, viewer().keys.read, `/ui/errors?${new URLSearchParams({ type: first.type, message: first.message }).toString()}`);
    await ready(page, 'errors');
    expect(await openedEvent(page)).toEqual(expectedEvent(first));
    expect(await overflow(page)).toBe(0);
    await screenshot(page, 'errors-phone');
    expect(problems).toEqual([]);
    await page.close();
  });
});
