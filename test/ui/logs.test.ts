// The logs view in a real Chromium, on the dataset of test/helpers/viewer-dataset.ts: the rows
// newest first with their severity colours, each filter giving exactly its rows and written into the
// address (which opens the view as it was), the histogram's totals by severity, a row opened by
// keyboard to all of it and its trace link, live mode showing a log sent while the page is open,
// 10,000 rows virtualised, a project's key seeing only its own rows, and the read API's refusal
// shown. Tests that send data of their own do it in a project of their own (viewer().newProject).
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatTime, severityBand, type SeverityBand } from '../../ui/src/lib/format.js';
import { nanosToLocalInput } from '../../ui/src/lib/range.js';
import { CHECKOUT, ERROR_EVENTS, errorBody, LOGS, logsExport, nanosAt, OTHER_LOG, ROOT_SPAN, SEVERITY_COUNTS, TRACE_ID, WEB, type DatasetLog } from '../helpers/viewer-dataset.js';
import { BROWSER_TESTS, focused, overflow, pathOf, PHONE, ready, sameZone, screenshot, useViewer } from '../helpers/viewer.js';
import { waitUntil } from '../helpers/wait.js';

const { available, viewer } = useViewer();

// ---- what the view should show ----

/** A row as sent; its badge says the severity text as sent (Sentry's level is lower case). */
type Expected = Omit<DatasetLog, 'spanId' | 'attributes'>;

/** The project's log rows in the order they were stored: each service's OTLP logs (logsExport groups them), then Sentry's events. */
const STORED: Expected[] = [
  ...[WEB, CHECKOUT].flatMap((service) => LOGS.filter((log) => log.service === service)),
  ...ERROR_EVENTS.map((error) => ({ body: errorBody(error), severityNumber: 17, severityText: 'error', service: WEB, agoMs: error.agoMs })),
];
/** Newest first; of two at the same time, the one stored last first (the read API's order). */
const NEWEST_FIRST = [...STORED].reverse().sort((a, b) => a.agoMs - b.agoMs);

const bodiesOf = (rows: readonly Expected[]): string[] => rows.map((row) => row.body);

function bandCounts(rows: readonly { severityNumber: number }[]): Record<SeverityBand, number> {
  const counts: Record<SeverityBand, number> = { unspecified: 0, trace: 0, debug: 0, info: 0, warn: 0, error: 0, fatal: 0 };
  for (const row of rows) counts[severityBand(row.severityNumber)] += 1;
  return counts;
}

// ---- reading the page ----

const focusedIndex = (page: Page) => page.evaluate<string | null>("document.activeElement?.getAttribute('data-index') ?? null");
/** An expression: the computed `properties` of the first element `selector` finds. */
const styleOf = (selector: string, ...properties: string[]): string =>
  `(() => { const style = getComputedStyle(document.querySelector(${JSON.stringify(selector)})); return ${JSON.stringify(properties)}.map((p) => style[p]); })()`;
/** The bodies of the rows in the DOM, in their order (all of them while the list fits in view). */
const bodies = (page: Page) => page.getByTestId('log-body').allTextContents();

/** Waits for the rows to be `expected` (a filter's answer comes a moment after its click), then asserts it. */
async function expectRows(page: Page, expected: readonly string[]): Promise<void> {
  await waitUntil(async () => JSON.stringify(await bodies(page)) === JSON.stringify(expected));
  expect(await bodies(page)).toEqual(expected);
  await ready(page, 'logs');
  expect(await page.getByTestId('logs-count').getAttribute('data-count')).toBe(String(expected.length));
}

async function totals(page: Page): Promise<Record<SeverityBand, number>> {
  const bands: SeverityBand[] = ['unspecified', 'trace', 'debug', 'info', 'warn', 'error', 'fatal'];
  const counts = await Promise.all(bands.map(async (band) => Number(await page.getByTestId(`histogram-total-${band}`).textContent())));
  return Object.fromEntries(bands.map((band, i) => [band, counts[i]])) as Record<SeverityBand, number>;
}

/** The histogram says `expected` (it may take a poll to), and its total is their sum. */
async function expectTotals(page: Page, expected: Record<SeverityBand, number>): Promise<void> {
  await waitUntil(async () => JSON.stringify(await totals(page)) === JSON.stringify(expected));
  expect(await totals(page)).toEqual(expected);
  expect(Number(await page.getByTestId('histogram-total').textContent())).toBe(Object.values(expected).reduce((a, b) => a + b, 0));
}

/** A fresh page signed in with `key` at `path`, its first rows on screen. */
async function open(path: string, key = viewer().keys.read, viewport?: { width: number; height: number }) {
  const watched = await viewer().newPage(viewport);
  await viewer().signIn(watched.page, key, path);
  await ready(watched.page, 'logs');
  return watched;
}

/** The key/value pairs of one of the detail's attribute tables. */
async function attributePairs(page: Page, testid: string): Promise<[string, string][]> {
  const keys = await page.locator(`[data-testid=${testid}] [data-testid=attribute-key]`).allTextContents();
  const values = await page.locator(`[data-testid=${testid}] [data-testid=attribute-value]`).allTextContents();
  return keys.map((key, i) => [key, values[i] ?? '']);
}

async function send(key: string, logs: readonly DatasetLog[], now: number): Promise<void> {
  const response = await fetch(`${viewer().url}/v1/logs`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(logsExport(now, logs)),
  });
  expect([response.status, await response.text()]).toEqual([200, '{}']);
}

// ---- the filters ----

interface FilterCase {
  name: string;
  /** Sets the filter the way a user does. */
  act: (page: Page) => Promise<void>;
  /** What the address then holds. */
  search: () => string;
  keep: (row: Expected) => boolean;
  /** The field that shows the filter when the address is opened again, and its value. */
  field: () => [string, string];
}

/** A custom range from 400 s to 200 s before the dataset was sent, as a datetime-local input takes it: to the second. */
const CUSTOM = { fromAgoMs: 400_000, toAgoMs: 200_000 };
const toSecond = (ms: number): number => Math.floor(ms / 1000) * 1000;
/** As the browser writes a datetime-local input's value (no :00 seconds): what the field shows, and what a user types. */
const localInput = (ms: number): string => nanosToLocalInput(String(BigInt(toSecond(ms)) * 1_000_000n));
const customNanos = () => ({ from: BigInt(toSecond(viewer().now - CUSTOM.fromAgoMs)) * 1_000_000n, to: BigInt(toSecond(viewer().now - CUSTOM.toAgoMs)) * 1_000_000n });

const FILTERS: FilterCase[] = [
  {
    name: 'service',
    act: async (page) => {
      await page.getByTestId('filter-service').fill(CHECKOUT);
      await page.getByTestId('filter-service').press('Enter');
    },
    search: () => `?service=${CHECKOUT}`,
    keep: (row) => row.service === CHECKOUT,
    field: () => ['filter-service', CHECKOUT],
  },
  {
    name: 'minimum severity',
    act: (page) => page.getByTestId('filter-severity').selectOption('warn').then(() => undefined),
    search: () => '?severity_min=warn',
    keep: (row) => row.severityNumber >= 13,
    field: () => ['filter-severity', 'warn'],
  },
  {
    name: 'trace id',
    act: async (page) => {
      await page.getByTestId('filter-trace').fill(` ${TRACE_ID} `);
      await page.getByTestId('filter-apply').click();
    },
    search: () => `?trace_id=${TRACE_ID}`,
    keep: (row) => row.traceId === TRACE_ID,
    field: () => ['filter-trace', TRACE_ID],
  },
  {
    name: 'text in the body',
    act: async (page) => {
      await page.getByTestId('filter-q').fill('card');
      await page.getByTestId('filter-q').press('Enter');
    },
    search: () => '?q=card',
    keep: (row) => row.body.includes('card'),
    field: () => ['filter-q', 'card'],
  },
  {
    name: 'custom range',
    act: async (page) => {
      await sameZone(page, viewer().now);
      await page.getByTestId('filter-range').selectOption('custom');
      await page.getByTestId('filter-from').fill(localInput(viewer().now - CUSTOM.fromAgoMs));
      // Each edit that leaves a valid range applies.
      await page.getByTestId('filter-to').fill(localInput(viewer().now - CUSTOM.toAgoMs));
    },
    search: () => `?from=${customNanos().from}&to=${customNanos().to}`,
    keep: (row) => {
      const time = BigInt(nanosAt(viewer().now, row.agoMs));
      return time >= customNanos().from && time < customNanos().to;
    },
    field: () => ['filter-from', localInput(viewer().now - CUSTOM.fromAgoMs)],
  },
];

describe.skipIf(!available)('the logs view', BROWSER_TESTS, () => {
  it('lists the project’s logs newest first, coloured by severity, with the histogram of their counts', async () => {
    const { page, problems } = await open('/ui/logs');
    expect(pathOf(page)).toBe('/ui/logs');
    await expectRows(page, bodiesOf(NEWEST_FIRST));
    expect(await page.getByTestId('logs-count').textContent()).toBe(`${NEWEST_FIRST.length} log records, newest first.`);
    expect(await page.getByTestId('log-service').allTextContents()).toEqual(NEWEST_FIRST.map((row) => row.service));
    expect(await page.getByTestId('log-severity').allTextContents()).toEqual(NEWEST_FIRST.map((row) => row.severityText));
    const classes = await Promise.all(NEWEST_FIRST.map((_, i) => page.getByTestId('log-severity').nth(i).getAttribute('class')));
    expect(classes).toEqual(NEWEST_FIRST.map((row) => `badge sev-fill sev-${severityBand(row.severityNumber)}`));
    // The colours themselves: white on the band's colour.
    expect(await page.evaluate<string[]>(styleOf('[data-testid=log-severity]', 'color', 'backgroundColor'))).toEqual(['rgb(255, 255, 255)', 'rgb(139, 10, 80)']);
    await sameZone(page, viewer().now);
    expect(await page.getByTestId('log-time').first().textContent()).toBe(formatTime(nanosAt(viewer().now, NEWEST_FIRST[0]?.agoMs ?? 0)));
    // Only a row with a trace id links to its trace.
    expect(await page.getByTestId('log-trace').count()).toBe(NEWEST_FIRST.filter((row) => row.traceId !== undefined).length);
    expect(await page.getByTestId('log-trace').first().getAttribute('href')).toBe(`/ui/traces/${TRACE_ID}`);

    expect(bandCounts(NEWEST_FIRST)).toEqual(SEVERITY_COUNTS);
    await expectTotals(page, SEVERITY_COUNTS);
    // The default range, the last hour, in 60 buckets of a minute.
    expect(await page.getByTestId('histogram-chart').getAttribute('data-buckets')).toBe('60');
    expect(await page.getByTestId('histogram-step').textContent()).toBe('per 1 min');
    expect(await page.getByTestId('histogram-chart').getAttribute('aria-label')).toMatch(/: 1 trace, 1 debug, 3 info, 1 warn, 5 error, 1 fatal\.$/);
    // One rectangle per band of each non-empty minute, in the band's colour.
    expect(await page.locator('[data-testid=histogram-chart] rect.sev-fatal').count()).toBe(1);
    expect(await page.evaluate<string[]>(styleOf('[data-testid=histogram-chart] rect.sev-fatal', 'fill'))).toEqual(['rgb(139, 10, 80)']);
    await screenshot(page, 'logs');
    expect(problems).toEqual([]);
    await page.close();
  });

  it.each(FILTERS)('filters by $name: exactly its rows and counts, written into the address, which opens them again', async (filter) => {
    const { page, problems } = await open('/ui/logs');
    await filter.act(page);
    const expected = NEWEST_FIRST.filter(filter.keep);
    // Every filter leaves some rows out and keeps some.
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(NEWEST_FIRST.length);
    await expectRows(page, bodiesOf(expected));
    expect(pathOf(page)).toBe(`/ui/logs${filter.search()}`);
    await expectTotals(page, bandCounts(expected));
    expect(problems).toEqual([]);
    await page.close();

    const again = await open(`/ui/logs${filter.search()}`);
    await expectRows(again.page, bodiesOf(expected));
    await expectTotals(again.page, bandCounts(expected));
    const [field, value] = filter.field();
    expect(await again.page.getByTestId(field).inputValue()).toBe(value);
    expect(pathOf(again.page)).toBe(`/ui/logs${filter.search()}`);
    expect(again.problems).toEqual([]);
    await again.page.close();
  });

  it('opens an address of several filters as it was, and Back returns to the filters before', async () => {
    const { page, problems } = await open(`/ui/logs?service=${WEB}&severity_min=error&q=declined&limit=100`);
    await expectRows(page, ['payment failed: card declined']);
    expect(await page.getByTestId('filter-service').inputValue()).toBe(WEB);
    expect(await page.getByTestId('filter-severity').inputValue()).toBe('error');
    expect(await page.getByTestId('filter-q').inputValue()).toBe('declined');
    expect(await page.getByTestId('filter-limit').inputValue()).toBe('100');
    await page.getByTestId('filter-service').fill('');
    await page.getByTestId('filter-service').press('Enter');
    await expectRows(page, ['payment failed: card declined', 'card declined by the issuer']);
    expect(pathOf(page)).toBe('/ui/logs?severity_min=error&q=declined&limit=100');
    await page.getByTestId('filter-severity').selectOption('fatal');
    await expectRows(page, []);
    expect(await page.getByTestId('logs-empty').textContent()).toBe('No log records match these filters in this range.');
    await expectTotals(page, bandCounts([]));
    await page.goBack();
    await expectRows(page, ['payment failed: card declined', 'card declined by the issuer']);
    expect(await page.getByTestId('filter-severity').inputValue()).toBe('error');
    await page.goBack();
    await expectRows(page, ['payment failed: card declined']);
    expect(await page.getByTestId('filter-service').inputValue()).toBe(WEB);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('opens a row by keyboard to its attributes, resource and scope, closes it with Escape, and links to its trace', async () => {
    const { page, problems } = await open('/ui/logs');
    await expectRows(page, bodiesOf(NEWEST_FIRST));
    await sameZone(page, viewer().now);
    // From the top of the page, Tab reaches the table's first row after the filters.
    await page.locator('h1').click();
    for (let i = 0; i < 20 && (await focused(page)) !== 'log-row'; i++) await page.keyboard.press('Tab');
    expect([await focused(page), await focusedIndex(page)]).toEqual(['log-row', '0']);
    expect(await page.evaluate<string>('getComputedStyle(document.activeElement).outlineStyle')).toBe('solid');

    const target = NEWEST_FIRST.findIndex((row) => row.body === 'GET /checkout started');
    for (let i = 0; i < target; i++) await page.keyboard.press('ArrowDown');
    expect(await focusedIndex(page)).toBe(String(target));
    await page.keyboard.press('Enter');
    await page.getByTestId('log-detail').waitFor();
    expect(await page.evaluate<string>('document.activeElement.id')).toBe('log-detail-title');
    const time = nanosAt(viewer().now, ROOT_SPAN.startAgoMs);
    expect(await page.getByTestId('detail-body').textContent()).toBe('GET /checkout started');
    expect(await page.getByTestId('detail-time').textContent()).toBe(`${formatTime(time)} (${time} ns)`);
    expect(await page.getByTestId('detail-observed').textContent()).toBe('none');
    expect(await page.getByTestId('detail-severity').textContent()).toBe('INFO');
    expect(await page.getByTestId('detail-severity-number').textContent()).toBe('9 (info)');
    expect(await page.getByTestId('detail-service').textContent()).toBe(WEB);
    expect(await page.getByTestId('detail-trace').textContent()).toBe(TRACE_ID);
    expect(await page.getByTestId('detail-trace').getAttribute('href')).toBe(`/ui/traces/${TRACE_ID}`);
    expect(await page.getByTestId('detail-span').textContent()).toBe(ROOT_SPAN.spanId);
    expect(await page.getByTestId('detail-flags').textContent()).toBe('0');
    expect(await page.getByTestId('detail-event').textContent()).toBe('none');
    expect(await page.getByTestId('detail-scope').textContent()).toBe('shop.web');
    expect(await attributePairs(page, 'detail-attributes')).toEqual([
      ['http.request.method', 'GET'],
      ['http.route', '/checkout'],
    ]);
    expect(await attributePairs(page, 'detail-resource')).toEqual([['service.name', WEB]]);
    await screenshot(page, 'logs-detail');

    await page.keyboard.press('Escape');
    await page.getByTestId('log-detail').waitFor({ state: 'detached' });
    expect([await focused(page), await focusedIndex(page)]).toEqual(['log-row', String(target)]);

    // Space opens too; a row without a trace has no link to one.
    const signedIn = NEWEST_FIRST.findIndex((row) => row.body === 'user 42 signed in');
    await page.keyboard.press('End');
    expect(await focusedIndex(page)).toBe(String(NEWEST_FIRST.length - 1));
    for (let i = NEWEST_FIRST.length - 1; i > signedIn; i--) await page.keyboard.press('ArrowUp');
    await page.keyboard.press(' ');
    await page.getByTestId('detail-body').getByText('user 42 signed in').waitFor();
    expect(await attributePairs(page, 'detail-attributes')).toEqual([['user.id', '42']]);
    expect(await page.getByTestId('detail-trace-id').textContent()).toBe('none');
    await page.keyboard.press('Escape');
    await page.getByTestId('log-detail').waitFor({ state: 'detached' });
    expect(await focusedIndex(page)).toBe(String(signedIn));

    // To the trace: open the row again, Tab past Close to the link, Enter.
    await page.keyboard.press('Home');
    for (let i = 0; i < target; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByTestId('log-detail').waitFor();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('log-detail-close');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('detail-trace');
    await page.keyboard.press('Enter');
    await page.getByTestId('view-traces').waitFor();
    expect(pathOf(page)).toBe(`/ui/traces/${TRACE_ID}`);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('follows a row’s trace link from the table', async () => {
    const { page, problems } = await open(`/ui/logs?q=${encodeURIComponent('payment failed')}`);
    await expectRows(page, ['payment failed: card declined']);
    await page.getByTestId('log-trace').click();
    await page.getByTestId('view-traces').waitFor();
    expect(pathOf(page)).toBe(`/ui/traces/${TRACE_ID}`);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('in live mode, shows a log sent after the page loaded on top, and counts it', async () => {
    const keys = await viewer().newProject('live');
    const before: DatasetLog = { body: 'sent before the page', severityNumber: 9, severityText: 'INFO', service: WEB, agoMs: 60_000 };
    await send(keys.ingest, [before], Date.now());
    const { page, problems } = await open('/ui/logs', keys.read);
    await expectRows(page, [before.body]);
    expect(await page.getByTestId('logs-live').count()).toBe(0);
    await page.getByTestId('filter-live').check();
    expect(pathOf(page)).toBe('/ui/logs?live=1');
    await page.getByTestId('logs-live').waitFor();

    const after: DatasetLog = { body: 'sent while the page is open', severityNumber: 17, severityText: 'ERROR', service: CHECKOUT, agoMs: 0 };
    // From a client whose clock is an hour fast: not shown before its time, and holding back none of the others.
    const ahead: DatasetLog = { body: 'timestamped an hour ahead', severityNumber: 13, severityText: 'WARN', service: WEB, agoMs: -3_600_000 };
    await send(keys.ingest, [ahead], Date.now());
    await send(keys.ingest, [after], Date.now());
    await expectRows(page, [after.body, before.body]);
    await expectTotals(page, { ...bandCounts([]), info: 1, error: 1 });
    expect(await page.getByTestId('filter-live').isChecked()).toBe(true);

    // Off again: what arrives next waits for the next read.
    await page.getByTestId('filter-live').uncheck();
    expect(pathOf(page)).toBe('/ui/logs');
    await page.getByTestId('logs-live').waitFor({ state: 'detached' });
    expect(problems).toEqual([]);
    await page.close();

    // Opened with live=1, it is live from the start.
    const again = await open('/ui/logs?live=1&limit=100', keys.read);
    await again.page.getByTestId('logs-live').waitFor();
    const third: DatasetLog = { body: 'sent to a page opened live', severityNumber: 13, severityText: 'WARN', service: WEB, agoMs: 0 };
    await send(keys.ingest, [third], Date.now());
    await expectRows(again.page, [third.body, after.body, before.body]);
    expect(await again.page.getByTestId('logs-live-missed').count()).toBe(0);

    // More than the limit between two reads: the newest are shown, and the view says that some were not.
    // All at one time a second ahead, so that no read comes between them however the reads and the send fall.
    const burst: DatasetLog[] = Array.from({ length: 101 }, (_, i) => ({ body: `burst ${i}`, severityNumber: 9, severityText: 'INFO', service: WEB, agoMs: -1000 }));
    await send(keys.ingest, burst, Date.now());
    await again.page.getByTestId('logs-live-missed').waitFor();
    expect(await again.page.getByTestId('logs-live-missed').textContent()).toBe('More than 100 records arrived between two updates: the older of them are not shown. Apply to read the range again.');
    expect(await again.page.getByTestId('logs-count').getAttribute('data-count')).toBe('100');
    // Of equal times, the last stored first.
    expect(await again.page.getByTestId('log-body').first().textContent()).toBe('burst 100');
    expect(again.problems).toEqual([]);
    await again.page.close();
  });

  it('holds 10,000 rows with only those in view in the DOM, and scrolls to the oldest', async () => {
    const keys = await viewer().newProject('bulk');
    const ROWS = 10_000;
    const bands = [0, 1, 5, 9, 13, 17, 21];
    const logs: DatasetLog[] = Array.from({ length: ROWS }, (_, i) => ({
      body: `bulk log ${String(i).padStart(5, '0')}`,
      severityNumber: bands[i % bands.length] as number,
      severityText: '',
      service: i % 2 === 0 ? WEB : CHECKOUT,
      // The oldest first, 50 ms apart, the newest 50 ms before now.
      agoMs: (ROWS - i) * 50,
    }));
    await send(keys.ingest, logs, Date.now());
    expect(await waitUntil(async () => (await viewer().gateway.read('logs', keys.read, { limit: '10000' })).body.rows?.length === ROWS)).toBe(true);

    const { page, problems } = await open('/ui/logs?limit=10000', keys.read);
    const newest = `bulk log ${String(ROWS - 1).padStart(5, '0')}`;
    const oldest = 'bulk log 00000';
    expect(await page.getByTestId('logs-count').getAttribute('data-count')).toBe(String(ROWS));
    expect(await page.getByTestId('logs-count').textContent()).toBe('10,000 log records, newest first. That is the limit: narrow the filters or show more rows for older ones.');
    expect(await page.getByTestId('log-body').first().textContent()).toBe(newest);
    const inDom = () => page.getByTestId('log-row').count();
    expect(await inDom()).toBeLessThan(50);
    expect(await page.getByTestId('log-table').getAttribute('aria-rowcount')).toBe(String(ROWS + 1));
    await expectTotals(page, bandCounts(logs));

    await page.evaluate("(() => { const box = document.querySelector('[data-testid=log-scroll]'); box.scrollTop = box.scrollHeight; })()");
    await page.getByTestId('log-body').getByText(oldest, { exact: true }).waitFor();
    expect(await page.getByTestId('log-body').last().textContent()).toBe(oldest);
    expect(await page.getByTestId('log-row').last().getAttribute('data-index')).toBe(String(ROWS - 1));
    expect(await inDom()).toBeLessThan(50);

    // By keyboard: Home goes back to the newest, End to the oldest.
    await page.getByTestId('log-row').last().focus();
    await page.keyboard.press('Home');
    expect(await focusedIndex(page)).toBe('0');
    expect(await page.getByTestId('log-body').first().textContent()).toBe(newest);
    await page.keyboard.press('End');
    expect(await focusedIndex(page)).toBe(String(ROWS - 1));
    expect(await page.locator('[data-testid=log-row]:focus [data-testid=log-body]').textContent()).toBe(oldest);
    await page.keyboard.press('PageUp');
    expect(Number(await focusedIndex(page))).toBeLessThan(ROWS - 5);
    expect(await inDom()).toBeLessThan(50);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows another project’s key only its own log', async () => {
    const { page, problems } = await open('/ui/logs', viewer().keys.otherRead);
    await expectRows(page, [OTHER_LOG.body]);
    await expectTotals(page, { ...bandCounts([]), info: 1 });
    expect(await page.getByTestId('log-service').allTextContents()).toEqual([OTHER_LOG.service]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows what the read API refused', async () => {
    const { page } = await viewer().newPage();
    await viewer().signIn(page, viewer().keys.read, '/ui/logs?limit=0');
    await page.locator('[data-testid=view-logs][data-state=error]').waitFor();
    expect(await page.getByTestId('logs-error').textContent()).toBe('The read API refused a filter: limit must be an integer from 1 to 10000; got "0"');
    expect(await page.getByTestId('log-table').count()).toBe(0);
    // A limit of the list mends it.
    await page.getByTestId('filter-limit').selectOption('100');
    await expectRows(page, bodiesOf(NEWEST_FIRST));
    expect(await page.getByTestId('logs-error').textContent()).toBe('');
    await page.close();
  });

  it('fits a phone’s width, and a row opens over the whole screen', async () => {
    const { page, problems } = await open('/ui/logs', viewer().keys.read, PHONE);
    await expectRows(page, bodiesOf(NEWEST_FIRST));
    expect(await overflow(page)).toBe(0);
    await screenshot(page, 'logs-phone');
    await page.getByTestId('log-row').first().click();
    await page.getByTestId('log-detail').waitFor();
    const box = await page.getByTestId('log-detail').boundingBox();
    expect(box).toEqual({ x: 0, y: 0, width: PHONE.width, height: PHONE.height });
    expect(await overflow(page)).toBe(0);
    await screenshot(page, 'logs-detail-phone');
    await page.getByTestId('log-detail-close').click();
    await page.getByTestId('log-detail').waitFor({ state: 'detached' });
    expect(await focusedIndex(page)).toBe('0');
    expect(problems).toEqual([]);
    await page.close();
  });
});
