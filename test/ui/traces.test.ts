// The traces view in a real Chromium, against the built otelgate holding the viewer's dataset
// (test/helpers/viewer-dataset.ts): the list of recent traces and each of its filters, in the
// address; a trace's waterfall, its spans' details by click and by keyboard, its logs; a trace id
// with no spans, one the read API refuses, and another project's key; at a desktop's and a phone's
// width.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatDuration, formatTime } from '../../ui/src/lib/format.js';
import { nanosToLocalInput } from '../../ui/src/lib/range.js';
import {
  CHECKOUT,
  CLIENT_SPAN,
  ERROR_SPAN,
  HEALTH_SPAN,
  HEALTH_TRACE_ID,
  LOGS,
  nanosAt,
  RENDER_SPAN,
  ROOT_SPAN,
  TRACE,
  TRACE_ID,
  TRACE_SPANS,
  WEB,
  type DatasetSpan,
} from '../helpers/viewer-dataset.js';
import { BROWSER_TESTS, focused, overflow, pathOf, PHONE, screenshot, settled, useViewer } from '../helpers/viewer.js';

const { available, viewer } = useViewer();

const focusedSpan = (page: Page) => page.evaluate<string | null>("document.activeElement?.getAttribute('data-span-id') ?? null");

const text = async (locator: Locator): Promise<string> => (await locator.textContent()) ?? '';

/** `fn` (a function of an element, as text: this project's types have no DOM) of each element `selector` finds, in order. */
const each = <T>(page: Page, selector: string, fn: string): Promise<T[]> => page.evaluate<T[]>(`[...document.querySelectorAll(${JSON.stringify(selector)})].map(${fn})`);

/** The list's rows: trace id, then the text of each column. */
async function listed(page: Page): Promise<string[][]> {
  expect(await settled(page, 'traces')).toBe('ready');
  const rows = page.getByTestId('trace-row');
  const out: string[][] = [];
  for (let i = 0; i < (await rows.count()); i++) {
    const row = rows.nth(i);
    const cells = await Promise.all(['trace-start', 'trace-root', 'trace-service', 'trace-duration', 'trace-spans', 'trace-errors'].map((id) => text(row.getByTestId(id))));
    out.push([(await row.getAttribute('data-trace-id')) ?? '', ...cells]);
  }
  return out;
}

/** The rows' trace ids, once the view is ready. */
async function listedIds(page: Page): Promise<string[]> {
  return (await listed(page)).map((row) => row[0] ?? '');
}

const ms = (n: number): bigint => BigInt(n) * 1_000_000n;
const start = (span: DatasetSpan): string => formatTime(nanosAt(viewer().now, span.startAgoMs));

/** An attribute table's rows as [key, value]. */
async function attributes(table: Locator): Promise<string[][]> {
  const rows = table.getByTestId('attribute');
  const out: string[][] = [];
  for (let i = 0; i < (await rows.count()); i++) out.push([await text(rows.nth(i).getByTestId('attribute-key')), await text(rows.nth(i).getByTestId('attribute-value'))]);
  return out;
}

async function openList(page: Page, search = ''): Promise<void> {
  await page.goto(`${viewer().url}/ui/traces${search}`);
  await settled(page, 'traces');
}

describe.skipIf(!available)('the traces view in Chromium', BROWSER_TESTS, () => {
  it('lists the two traces newest first: start, root span, service, duration, span count and an error flag in words', async () => {
    const { page, problems } = await viewer().newPage();
    await viewer().signIn(page, viewer().keys.read, '/ui/traces');
    expect(await listed(page)).toEqual([
      [HEALTH_TRACE_ID, start(HEALTH_SPAN), HEALTH_SPAN.name, WEB, '5 ms', '1', 'none'],
      [TRACE_ID, start(ROOT_SPAN), TRACE.rootName, TRACE.rootService, formatDuration(ms(TRACE.durationMs)), String(TRACE.spanCount), '1 error'],
    ]);
    expect(await text(page.getByTestId('traces-count'))).toBe('2 traces, newest first');
    // The flag is a badge with words, not a colour alone.
    expect(await page.locator('[data-testid=trace-errors] .badge-error').count()).toBe(1);
    // Each row is a link to its trace.
    expect(await each<string>(page, '[data-testid=trace-root]', '(a) => a.getAttribute("href")')).toEqual([
      `/ui/traces/${HEALTH_TRACE_ID}`,
      `/ui/traces/${TRACE_ID}`,
    ]);
    await screenshot(page, 'traces');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('filters by service, root span name, minimum duration and errors only, each written in the address', async () => {
    const { page, problems } = await viewer().newPage();
    await viewer().signIn(page, viewer().keys.read, '/ui/traces');
    await settled(page, 'traces');

    // A trace with at least one span of the service: only the checkout trace has a checkout span.
    await page.getByTestId('filter-service').fill(CHECKOUT);
    await page.getByTestId('filter-service').press('Enter');
    expect(await listedIds(page)).toEqual([TRACE_ID]);
    expect(pathOf(page)).toBe(`/ui/traces?service=${CHECKOUT}`);
    await page.getByTestId('filter-service').fill(WEB);
    await page.getByTestId('filter-apply').click();
    expect(await listedIds(page)).toEqual([HEALTH_TRACE_ID, TRACE_ID]);
    expect(pathOf(page)).toBe(`/ui/traces?service=${WEB}`);

    await openList(page);
    await page.getByTestId('filter-name').fill(HEALTH_SPAN.name);
    await page.getByTestId('filter-name').press('Enter');
    expect(await listedIds(page)).toEqual([HEALTH_TRACE_ID]);
    expect(pathOf(page)).toBe('/ui/traces?name=GET+%2Fhealth');
    // Exactly the root span's name: a child span's is no match.
    await page.getByTestId('filter-name').fill(ERROR_SPAN.name);
    await page.getByTestId('filter-name').press('Enter');
    expect(await listedIds(page)).toEqual([]);
    expect(await text(page.getByTestId('traces-empty'))).toBe('No traces started in this time range with these filters.');

    // The 5 ms health check is shorter than 100 ms; the 400 ms trace is not shorter than 400 ms.
    await openList(page);
    await page.getByTestId('filter-min-duration').fill('100ms');
    await page.getByTestId('filter-min-duration').press('Enter');
    expect(await listedIds(page)).toEqual([TRACE_ID]);
    expect(pathOf(page)).toBe('/ui/traces?min_duration=100ms');
    await page.getByTestId('filter-min-duration').fill('0.4s');
    await page.getByTestId('filter-min-duration').press('Enter');
    expect(await listedIds(page)).toEqual([TRACE_ID]);
    await page.getByTestId('filter-min-duration').fill('401ms');
    await page.getByTestId('filter-min-duration').press('Enter');
    expect(await listedIds(page)).toEqual([]);

    await openList(page);
    await page.getByTestId('filter-errors').check();
    expect(await listedIds(page)).toEqual([TRACE_ID]);
    expect(pathOf(page)).toBe('/ui/traces?errors=true');
    await page.getByTestId('filter-errors').uncheck();
    expect(await listedIds(page)).toEqual([HEALTH_TRACE_ID, TRACE_ID]);
    expect(pathOf(page)).toBe('/ui/traces');

    // Each filter was a step: back returns to the one before, fields and all.
    await page.goBack();
    expect(await listedIds(page)).toEqual([TRACE_ID]);
    expect(await page.getByTestId('filter-errors').isChecked()).toBe(true);

    await page.getByTestId('filter-limit').selectOption('20');
    expect(await listedIds(page)).toEqual([TRACE_ID]);
    expect(pathOf(page)).toBe('/ui/traces?errors=true&limit=20');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('opens an address with filters as it was: the fields show them, and together they narrow the list', async () => {
    const { page, problems } = await viewer().newPage();
    // A range of the dataset's own times, however long ago it was sent.
    const from = nanosAt(viewer().now, 600_000);
    const to = nanosAt(viewer().now, -60_000);
    await viewer().signIn(page, viewer().keys.read, `/ui/traces?service=${WEB}&name=GET+%2Fcheckout&min_duration=250ms&errors=true&from=${from}&to=${to}`);
    expect(await listedIds(page)).toEqual([TRACE_ID]);
    expect(await page.getByTestId('filter-service').inputValue()).toBe(WEB);
    expect(await page.getByTestId('filter-name').inputValue()).toBe(ROOT_SPAN.name);
    expect(await page.getByTestId('filter-min-duration').inputValue()).toBe('250ms');
    expect(await page.getByTestId('filter-errors').isChecked()).toBe(true);
    expect(await page.getByTestId('filter-range').inputValue()).toBe('custom');
    expect(await page.getByTestId('filter-from').inputValue()).toBe(nanosToLocalInput(from));
    expect(await page.getByTestId('filter-to').inputValue()).toBe(nanosToLocalInput(to));
    expect(problems).toEqual([]);
    await page.close();
  });

  it('takes a time range: a preset, or a custom from/to that leaves the older trace out', async () => {
    const { page, problems } = await viewer().newPage();
    await viewer().signIn(page, viewer().keys.read, '/ui/traces');
    await settled(page, 'traces');
    // The last day: the dataset is in it however long ago it was sent (the last 15 minutes would hold it only for some).
    await page.getByTestId('filter-range').selectOption('24h');
    expect(await listedIds(page)).toEqual([HEALTH_TRACE_ID, TRACE_ID]);
    expect(pathOf(page)).toBe('/ui/traces?range=24h');

    await page.getByTestId('filter-range').selectOption('custom');
    expect(await listedIds(page)).toEqual([HEALTH_TRACE_ID, TRACE_ID]);
    expect(new URL(page.url()).searchParams.has('range')).toBe(false);
    // From two minutes before the data was sent: the health check (90 s before) is in, the checkout trace (240 s) is not.
    const from = nanosAt(viewer().now, 120_000);
    await page.getByTestId('filter-from').fill(nanosToLocalInput(from));
    expect(await listedIds(page)).toEqual([HEALTH_TRACE_ID]);
    expect(new URL(page.url()).searchParams.get('from')).toBe(from);

    // A To before From is not applied, and says why.
    const to = new URL(page.url()).searchParams.get('to');
    await page.getByTestId('filter-to').fill(nanosToLocalInput(nanosAt(viewer().now, 180_000)));
    expect(await text(page.getByTestId('filter-range-message'))).toBe('From must be before To.');
    expect(new URL(page.url()).searchParams.get('to')).toBe(to);

    await page.getByTestId('filter-range').selectOption('1h');
    expect(await listedIds(page)).toEqual([HEALTH_TRACE_ID, TRACE_ID]);
    expect(pathOf(page)).toBe('/ui/traces');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows the read API’s message when it refuses a filter', async () => {
    const { page, problems } = await viewer().newPage();
    await viewer().signIn(page, viewer().keys.read, '/ui/traces');
    await settled(page, 'traces');
    await page.getByTestId('filter-min-duration').fill('soon');
    await page.getByTestId('filter-min-duration').press('Enter');
    expect(await settled(page, 'traces')).toBe('error');
    expect(await text(page.getByTestId('traces-message'))).toBe('The read API refused a filter: min_duration must be a duration (250ms, 1.5s) or nanoseconds; got "soon"');
    expect(pathOf(page)).toBe('/ui/traces?min_duration=soon');
    expect(await page.getByTestId('trace-row').count()).toBe(0);
    // A 400 is logged by the browser as a failed request; it is the only problem there is.
    expect(problems).toEqual([expect.stringMatching(/^console: Failed to load resource: .*400/)]);
    await page.close();
  });

  it('opens a trace from its row, by click, Enter or Space, keeping the filters for the way back', async () => {
    const { page, problems } = await viewer().newPage();
    await viewer().signIn(page, viewer().keys.read, `/ui/traces?service=${WEB}`);
    await settled(page, 'traces');
    await page.locator(`[data-testid=trace-row][data-trace-id="${TRACE_ID}"] [data-testid=trace-duration]`).click();
    expect(await settled(page, 'traces')).toBe('ready');
    expect(pathOf(page)).toBe(`/ui/traces/${TRACE_ID}?service=${WEB}`);
    await page.getByTestId('trace-detail').waitFor();
    expect(await page.getByTestId('traces-back').getAttribute('href')).toBe(`/ui/traces?service=${WEB}`);
    await page.getByTestId('traces-back').click();
    expect(await listedIds(page)).toEqual([HEALTH_TRACE_ID, TRACE_ID]);
    expect(await page.getByTestId('filter-service').inputValue()).toBe(WEB);

    for (const key of ['Enter', ' ']) {
      await page.locator(`[data-testid=trace-row][data-trace-id="${TRACE_ID}"] [data-testid=trace-root]`).focus();
      await page.keyboard.press(key === ' ' ? 'Space' : key);
      expect(await settled(page, 'traces')).toBe('ready');
      expect(pathOf(page)).toBe(`/ui/traces/${TRACE_ID}?service=${WEB}`);
      // The keyboard goes on from the trace's heading: the next stop is the first span.
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('span-row');
      await page.goBack();
      await settled(page, 'traces');
    }
    expect(problems).toEqual([]);
    await page.close();
  });

  it('lays the trace out as a waterfall: spans nested by parent, bars placed by start and duration on a time axis', async () => {
    const { page, problems } = await viewer().newPage();
    await viewer().signIn(page, viewer().keys.read, `/ui/traces/${TRACE_ID}`);
    expect(await settled(page, 'traces')).toBe('ready');
    expect(await page.getByTestId('span-row-name').allTextContents()).toEqual(TRACE_SPANS.map((s) => s.name));
    expect(await each<string>(page, '[data-testid=span-row]', '(row) => row.dataset.depth')).toEqual(TRACE_SPANS.map((s) => String(s.depth)));
    expect(await each<string>(page, '[data-testid=span-row]', '(row) => row.dataset.spanId')).toEqual(TRACE_SPANS.map((s) => s.spanId));
    expect(await page.getByTestId('span-row-service').allTextContents()).toEqual(TRACE_SPANS.map((s) => s.service));
    expect(await page.getByTestId('span-row-duration').allTextContents()).toEqual(['400 ms', '300 ms', '280 ms', '35 ms']);
    // The one error span says so in words.
    expect(await each<boolean>(page, '[data-testid=span-row]', '(row) => row.querySelector("[data-testid=span-row-error]")?.textContent === "error"')).toEqual(
      TRACE_SPANS.map((s) => s.status.code === 2),
    );
    // Indented by depth.
    const indents = await each<number>(page, '[data-testid=span-row] .wf-label', '(label) => parseFloat(getComputedStyle(label).paddingLeft)');
    expect(indents[0]).toBe(0);
    expect(indents.map((px) => px / (indents[1] ?? 1))).toEqual(TRACE_SPANS.map((s) => s.depth - 1));

    // Bars: at (start − trace start) / 400 ms, as wide as duration / 400 ms, of the track.
    const traceStart = ROOT_SPAN.startAgoMs;
    const expected = TRACE_SPANS.map((s) => [(traceStart - s.startAgoMs) / TRACE.durationMs, (s.startAgoMs - s.endAgoMs) / TRACE.durationMs]);
    const bars = await each<number[]>(
      page,
      '[data-testid=span-bar]',
      '(bar) => { const track = bar.parentElement.getBoundingClientRect(), own = bar.getBoundingClientRect(); return [(own.left - track.left) / track.width, own.width / track.width, own.left]; }',
    );
    expect(bars.length).toBe(expected.length);
    for (const [i, [offset, width]] of expected.entries()) {
      expect(bars[i]?.[0]).toBeCloseTo(offset ?? -1, 3);
      expect(bars[i]?.[1]).toBeCloseTo(width ?? -1, 3);
    }
    // By start: each bar's left edge right of the one before (the spans are listed by start here).
    const lefts = bars.map((bar) => bar[2] ?? 0);
    expect(lefts).toEqual([...lefts].sort((a, b) => a - b));
    expect(new Set(lefts).size).toBe(4);

    expect(await page.getByTestId('waterfall-tick').allTextContents()).toEqual(['0', '100 ms', '200 ms', '300 ms', '400 ms']);
    expect(await text(page.getByTestId('trace-summary'))).toBe(
      `Root span${ROOT_SPAN.name}Started${start(ROOT_SPAN)}Duration400 msSpans4Services${CHECKOUT}, ${WEB}Errors1 error span`,
    );
    expect(problems).toEqual([]);
    await page.close();
  });

  it('opens a span’s attributes, events and links on click, and Escape closes them', async () => {
    const { page, problems } = await viewer().newPage();
    await viewer().signIn(page, viewer().keys.read, `/ui/traces/${TRACE_ID}`);
    await settled(page, 'traces');
    const errorRow = page.locator(`[data-testid=span-row][data-span-id="${ERROR_SPAN.spanId}"]`);
    await errorRow.click();
    const detail = page.getByTestId('span-detail');
    expect(await errorRow.getAttribute('aria-expanded')).toBe('true');
    expect(await text(detail.getByTestId('span-detail-name'))).toBe(ERROR_SPAN.name);
    expect(await text(detail.getByTestId('span-service'))).toBe(CHECKOUT);
    expect(await text(detail.getByTestId('span-kind'))).toBe('server');
    expect(await text(detail.getByTestId('span-status'))).toBe('error · card declined');
    expect(await text(detail.getByTestId('span-start'))).toBe(`${start(ERROR_SPAN)} (+60 ms into the trace)`);
    expect(await text(detail.getByTestId('span-duration'))).toBe('280 ms');
    expect(await text(detail.getByTestId('span-id'))).toBe(ERROR_SPAN.spanId);
    expect(await text(detail.getByTestId('span-parent-id'))).toBe(CLIENT_SPAN.spanId);
    expect(await text(detail.getByTestId('span-scope'))).toBe(`shop.${CHECKOUT}`);
    expect(await attributes(detail.getByTestId('span-attributes'))).toEqual([
      ['payment.amount_cents', '4999'],
      ['payment.method', 'card'],
    ]);
    const events = detail.getByTestId('span-event');
    expect(await events.count()).toBe(2);
    expect([await text(events.nth(0).getByTestId('span-event-at')), await text(events.nth(0).getByTestId('span-event-name'))]).toEqual(['+10 ms', 'card.authorize']);
    expect(await attributes(events.nth(0).getByTestId('span-event-attributes'))).toEqual([['attempt', '1']]);
    expect([await text(events.nth(1).getByTestId('span-event-at')), await text(events.nth(1).getByTestId('span-event-name'))]).toEqual(['+190 ms', 'card.declined']);
    expect(await attributes(events.nth(1).getByTestId('span-event-attributes'))).toEqual([
      ['attempt', '1'],
      ['decline.code', 'insufficient_funds'],
    ]);
    expect(await text(detail.getByTestId('span-links'))).toBe('None.');
    expect(await attributes(detail.getByTestId('span-resource'))).toEqual([['service.name', CHECKOUT]]);
    await screenshot(page, 'trace');

    await page.keyboard.press('Escape');
    expect(await detail.count()).toBe(0);
    expect(await errorRow.getAttribute('aria-expanded')).toBe('false');
    expect(await focusedSpan(page)).toBe(ERROR_SPAN.spanId);

    // The root: its attributes, no parent, no events.
    await page.locator(`[data-testid=span-row][data-span-id="${ROOT_SPAN.spanId}"]`).click();
    expect(await attributes(detail.getByTestId('span-attributes'))).toEqual([
      ['http.request.method', 'GET'],
      ['http.response.status_code', '402'],
      ['http.route', '/checkout'],
    ]);
    expect(await text(detail.getByTestId('span-parent-id'))).toBe('none: a root span');
    expect(await text(detail.getByTestId('span-events'))).toBe('None.');
    expect(await text(detail.getByTestId('span-status'))).toBe('unset');
    // A second click closes it.
    await page.locator(`[data-testid=span-row][data-span-id="${ROOT_SPAN.spanId}"]`).click();
    expect(await detail.count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('works by keyboard: arrows between spans, Enter opens one, its link’s trace opens that trace', async () => {
    const { page, problems } = await viewer().newPage();
    await viewer().signIn(page, viewer().keys.read, `/ui/traces/${TRACE_ID}?errors=true`);
    await settled(page, 'traces');
    await page.keyboard.press('Tab');
    expect(await focusedSpan(page)).toBe(ROOT_SPAN.spanId);
    await page.keyboard.press('End');
    expect(await focusedSpan(page)).toBe(RENDER_SPAN.spanId);
    await page.keyboard.press('ArrowUp');
    expect(await focusedSpan(page)).toBe(ERROR_SPAN.spanId);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const detail = page.getByTestId('span-detail');
    expect(await text(detail.getByTestId('span-detail-name'))).toBe(RENDER_SPAN.name);
    expect(await text(detail.getByTestId('span-kind'))).toBe('internal');
    expect(await text(detail.getByTestId('span-attributes'))).toBe('None.');
    const links = detail.getByTestId('span-link');
    expect(await links.count()).toBe(1);
    expect(await text(links.getByTestId('span-link-trace'))).toBe(HEALTH_TRACE_ID);
    expect(await text(links.getByTestId('span-link-span'))).toBe(HEALTH_SPAN.spanId);
    expect(await text(links)).toContain(', trace state shop=1');
    expect(await attributes(links.getByTestId('span-link-attributes'))).toEqual([['link.reason', 'template warmed by']]);
    // Tab from the row into its details: the close button, then the link.
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('span-detail-close');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('span-link-trace');
    await page.keyboard.press('Enter');
    expect(await settled(page, 'traces')).toBe('ready');
    expect(pathOf(page)).toBe(`/ui/traces/${HEALTH_TRACE_ID}?errors=true`);
    expect(await text(page.getByTestId('trace-id'))).toBe(HEALTH_TRACE_ID);
    expect(await page.getByTestId('span-row-name').allTextContents()).toEqual([HEALTH_SPAN.name]);
    expect(await page.getByTestId('span-row-error').count()).toBe(0);
    expect(await text(page.getByTestId('trace-logs-empty'))).toBe('No logs stored with this trace id.');
    // Enter on the close button closes, as Escape does.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await detail.waitFor();
    await page.getByTestId('span-detail-close').focus();
    await page.keyboard.press('Enter');
    expect(await detail.count()).toBe(0);
    expect(await focusedSpan(page)).toBe(HEALTH_SPAN.spanId);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('lists the trace’s logs oldest first, each with time, severity, service, span and body, and links to them in the logs view', async () => {
    const { page, problems } = await viewer().newPage();
    await viewer().signIn(page, viewer().keys.read, `/ui/traces/${TRACE_ID}`);
    expect(await settled(page, 'traces')).toBe('ready');
    const logs = LOGS.filter((log) => log.traceId === TRACE_ID).sort((a, b) => b.agoMs - a.agoMs);
    const spanName = new Map(TRACE_SPANS.map((s) => [s.spanId, s.name]));
    const shown = page.getByTestId('trace-log');
    expect(await shown.count()).toBe(logs.length);
    const lines: string[][] = [];
    for (let i = 0; i < logs.length; i++) {
      const row = shown.nth(i);
      lines.push(await Promise.all(['trace-log-time', 'trace-log-severity', 'trace-log-service', 'trace-log-span', 'trace-log-body'].map((id) => text(row.getByTestId(id)))));
    }
    expect(lines).toEqual(logs.map((log) => [formatTime(nanosAt(viewer().now, log.agoMs)), log.severityText, log.service, `in ${spanName.get(log.spanId ?? '')}`, log.body]));
    expect(logs.map((log) => log.body)).toEqual(['GET /checkout started', 'card declined by the issuer', 'payment failed: card declined', 'checkout is slow to answer']);

    // The logs view, filtered by the trace id, over the time the trace's logs were looked for.
    const href = new URL((await page.getByTestId('trace-logs-link').getAttribute('href')) ?? '', viewer().url);
    expect(href.pathname).toBe('/ui/logs');
    expect([...href.searchParams]).toEqual([
      ['trace_id', TRACE_ID],
      ['from', String(BigInt(nanosAt(viewer().now, ROOT_SPAN.startAgoMs)) - 60_000_000_000n)],
      ['to', String(BigInt(nanosAt(viewer().now, ROOT_SPAN.endAgoMs)) + 60_000_000_000n)],
    ]);
    await page.getByTestId('trace-logs-link').click();
    await page.getByTestId('view-logs').waitFor();
    expect(pathOf(page)).toBe(href.pathname + href.search);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('says so for a trace id with no spans, or one that is no hex id at all', async () => {
    const { page, problems } = await viewer().newPage();
    const unknown = '0123456789abcdef0123456789abcdef';
    await viewer().signIn(page, viewer().keys.read, `/ui/traces/${unknown}`);
    for (const id of [unknown, 'not-a-trace-id']) {
      if (id !== unknown) await page.goto(`${viewer().url}/ui/traces/${id}`);
      expect(await settled(page, 'traces')).toBe('ready');
      expect(await text(page.getByTestId('trace-id'))).toBe(id);
      expect(await text(page.getByTestId('trace-empty'))).toBe(
        'No spans stored for this trace id. Its spans may not have arrived yet, or were kept elsewhere. Look for logs with this trace id.',
      );
      expect(await page.getByTestId('trace-empty').getByRole('link').getAttribute('href')).toBe(`/ui/logs?trace_id=${id}`);
      expect(await page.getByTestId('span-row').count()).toBe(0);
      expect(await page.getByTestId('trace-logs').count()).toBe(0);
    }
    expect(problems).toEqual([]);
    await page.close();
  });

  it('says why a read failed: the spans’ (nothing is shown), or the logs’ (the spans are)', async () => {
    const { page, problems } = await viewer().newPage();
    const message = 'The store could not be read; try again in 5 seconds.';
    const refuse = { status: 503, contentType: 'application/json', body: JSON.stringify({ message }) };
    await page.route(/\/api\/v1\/query\/spans\?/, (route) => route.fulfill(refuse));
    await viewer().signIn(page, viewer().keys.read, `/ui/traces/${TRACE_ID}`);
    expect(await settled(page, 'traces')).toBe('error');
    expect(await text(page.getByTestId('trace-message'))).toBe(`otelgate answered 503: ${message}`);
    expect(await page.getByTestId('span-row').count()).toBe(0);

    await page.unroute(/\/api\/v1\/query\/spans\?/);
    await page.route(/\/api\/v1\/query\/logs\?/, (route) => route.fulfill(refuse));
    await page.reload();
    expect(await settled(page, 'traces')).toBe('error');
    expect(await page.getByTestId('span-row').count()).toBe(TRACE_SPANS.length);
    expect(await text(page.getByTestId('trace-logs-message'))).toBe(`The logs could not be read: ${message}`);
    expect(await page.getByTestId('trace-log').count()).toBe(0);
    expect(problems).toEqual([expect.stringMatching(/^console: Failed to load resource: .*503/), expect.stringMatching(/^console: Failed to load resource: .*503/)]);
    await page.close();
  });

  it('shows another project’s key none of these traces', async () => {
    const { page, problems } = await viewer().newPage();
    await viewer().signIn(page, viewer().keys.otherRead, '/ui/traces');
    expect(await listedIds(page)).toEqual([]);
    expect(await text(page.getByTestId('traces-empty'))).toBe('No traces started in this time range with these filters.');
    await page.goto(`${viewer().url}/ui/traces/${TRACE_ID}`);
    expect(await settled(page, 'traces')).toBe('ready');
    expect(await page.getByTestId('trace-empty').count()).toBe(1);
    expect(await page.getByTestId('span-row').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('fits a phone’s width: the list as cards, the waterfall with shorter bars and names cut with their full text in a title', async () => {
    const { page, problems } = await viewer().newPage(PHONE);
    await viewer().signIn(page, viewer().keys.read, '/ui/traces');
    expect(await listedIds(page)).toEqual([HEALTH_TRACE_ID, TRACE_ID]);
    expect(await overflow(page)).toBe(0);
    await screenshot(page, 'traces-phone');

    await page.getByTestId('trace-root').nth(1).click();
    expect(await settled(page, 'traces')).toBe('ready');
    expect(await overflow(page)).toBe(0);
    expect(await each<string | null>(page, '[data-testid=span-row-name]', '(name) => name.getAttribute("title")')).toEqual(TRACE_SPANS.map((s) => s.name));
    // The bars keep their places, in a narrower track.
    const bars = await each<number>(page, '[data-testid=span-bar]', '(bar) => bar.getBoundingClientRect().left');
    expect(bars).toEqual([...bars].sort((a, b) => a - b));
    const track = await page.evaluate<number>("document.querySelector('[data-testid=span-row] .wf-track').getBoundingClientRect().width");
    expect(track).toBeGreaterThan(100);
    await page.locator(`[data-testid=span-row][data-span-id="${ERROR_SPAN.spanId}"]`).click();
    await page.getByTestId('span-detail').waitFor();
    expect(await overflow(page)).toBe(0);
    await screenshot(page, 'trace-phone');
    expect(problems).toEqual([]);
    await page.close();
  });
});
