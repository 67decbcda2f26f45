// The metrics view in a real Chromium, against the dataset's gauge, two-series counter and histogram
// (test/helpers/viewer-dataset.ts): the names listed, each type drawn as it should be (values,
// per-second rates, interval counts and quantiles as histogram_quantile gives them), with the
// numbers read from the view's table and legend, the unit on the axis, the choice of series and
// mode kept in the address, another project seeing none of it, by keyboard and at a phone's width.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatNumber, formatTime } from '../../ui/src/lib/format.js';
import { nanosToLocalInput } from '../../ui/src/lib/range.js';
import { GAUGE, HISTOGRAM, METRIC_NAMES, nanosAt, SUM } from '../helpers/viewer-dataset.js';
import { BROWSER_TESTS, overflow, pathOf, PHONE, ready, sameZone, screenshot, useViewer } from '../helpers/viewer.js';

const { available, viewer } = useViewer();

const METRICS = [GAUGE, SUM, HISTOGRAM];
/** What metric_names says of each: its type and how many series it has. */
const FACTS = new Map<string, { type: string; series: number }>([
  [GAUGE.name, { type: 'gauge', series: 1 }],
  [SUM.name, { type: 'sum', series: SUM.series.length }],
  [HISTOGRAM.name, { type: 'histogram', series: 1 }],
]);

async function texts(page: Page, testid: string): Promise<string[]> {
  return page.getByTestId(testid).allTextContents();
}

/** The table's rows: series, time, the value as shown and the exact value. */
async function table(page: Page): Promise<{ series: string; time: string; shown: string; value: number }[]> {
  if ((await page.getByTestId('table-toggle').getAttribute('aria-expanded')) !== 'true') await page.getByTestId('table-toggle').click();
  await page.getByTestId('metric-table').waitFor();
  const rows = page.getByTestId('metric-row');
  const out = [];
  for (let i = 0; i < (await rows.count()); i++) {
    const row = rows.nth(i);
    out.push({
      series: (await row.getByTestId('metric-cell-series').textContent()) ?? '',
      time: (await row.getByTestId('metric-cell-time').textContent()) ?? '',
      shown: (await row.getByTestId('metric-cell-value').textContent()) ?? '',
      value: Number(await row.getAttribute('data-value')),
    });
  }
  return out;
}

const timeAt = (agoMs: number): string => formatTime(nanosAt(viewer().now, agoMs));
const row = (series: string, agoMs: number, value: number) => ({ series, time: timeAt(agoMs), shown: formatNumber(value), value });

/** The counter's per-second rate between each point and the one before: the increase over the seconds between them. */
function counterRates(series: (typeof SUM.series)[number]): { agoMs: number; rate: number }[] {
  return series.points.slice(1).map((point, i) => {
    const before = series.points[i]!;
    return { agoMs: point.agoMs, rate: (point.value - before.value) / ((before.agoMs - point.agoMs) / 1000) };
  });
}

const SUM_LABELS = SUM.series.map((series) => `${SUM.service} · http.route=${series.attributes['http.route']}`);

/** The histogram's one interval drawn: the second (cumulative) point minus the first. */
const FIRST = HISTOGRAM.points[0]!;
const SECOND = HISTOGRAM.points[1]!;
const INTERVAL = {
  count: SECOND.count - FIRST.count,
  sum: SECOND.sum - FIRST.sum,
  buckets: SECOND.bucketCounts.map((n, i) => n - FIRST.bucketCounts[i]!),
};

describe.skipIf(!available)('the metrics view in Chromium', BROWSER_TESTS, () => {
  it('lists exactly the project’s metrics, and draws the gauge’s values with its unit on the axis', async () => {
    const { page, problems } = await viewer().newPage();
    await viewer().signIn(page, viewer().keys.read, '/ui/metrics');
    await ready(page, 'metrics');
    const options = await page.getByTestId('metric-name').locator('option').allTextContents();
    expect(options).toEqual(
      METRIC_NAMES.map((name) => {
        const metric = METRICS.find((m) => m.name === name)!;
        const facts = FACTS.get(name)!;
        return `${name} (${facts.type}, ${metric.unit}) · ${facts.series} series`;
      }),
    );

    await page.getByTestId('metric-name').selectOption({ label: options[METRIC_NAMES.indexOf(GAUGE.name)]! });
    await ready(page, 'metrics');
    expect(pathOf(page)).toBe(`/ui/metrics?name=${encodeURIComponent(GAUGE.name)}`);
    expect(await page.getByTestId('metric-heading').textContent()).toBe(GAUGE.name);
    expect(await page.getByTestId('metric-description').textContent()).toBe(GAUGE.description);
    // UCUM's By, as the axis says it.
    expect(await page.getByTestId('metric-axis-label').textContent()).toBe('bytes');
    expect(await texts(page, 'series-label')).toEqual([GAUGE.service]);
    expect(await page.getByTestId('metric-chart').getAttribute('data-series')).toBe('1');
    expect(await page.locator('[data-testid=metric-chart] canvas').count()).toBe(1);
    // The legend shows the last value until the cursor is on the chart.
    expect(await texts(page, 'series-value')).toEqual([formatNumber(GAUGE.points.at(-1)!.value)]);
    expect(await table(page)).toEqual(GAUGE.points.map((point) => row(GAUGE.service, point.agoMs, point.value)));

    // A custom range that leaves the first point out, applied as each field is edited: to the second, in the browser's zone.
    const fromMs = Math.floor((viewer().now - (GAUGE.points[0]!.agoMs + GAUGE.points[1]!.agoMs) / 2) / 1000) * 1000;
    const toMs = Math.floor(viewer().now / 1000) * 1000 + 60_000;
    await sameZone(page, viewer().now);
    const field = (ms: number): string => nanosToLocalInput(String(BigInt(ms) * 1_000_000n));
    await page.getByTestId('filter-range').selectOption('custom');
    await page.getByTestId('filter-from').fill(field(fromMs));
    await page.getByTestId('filter-to').fill(field(toMs));
    await page.locator('[data-testid=metric-row]').nth(GAUGE.points.length - 2).waitFor();
    expect(pathOf(page)).toBe(`/ui/metrics?name=${encodeURIComponent(GAUGE.name)}&from=${fromMs}000000&to=${toMs}000000`);
    await page.locator(`[data-testid=metric-row]:nth-child(${GAUGE.points.length})`).waitFor({ state: 'detached' });
    expect(await table(page)).toEqual(GAUGE.points.slice(1).map((point) => row(GAUGE.service, point.agoMs, point.value)));

    // The service: the checkout service sent the histogram only; the gauge, still named in the address, has no series there.
    await page.getByTestId('filter-service').fill(HISTOGRAM.service);
    await page.getByTestId('filter-service').press('Enter');
    await page.getByTestId('series-empty').waitFor();
    await ready(page, 'metrics');
    expect(new URL(page.url()).searchParams.get('service')).toBe(HISTOGRAM.service);
    expect(await page.getByTestId('series-empty').textContent()).toBe(`No series of ${GAUGE.name} in this range.`);
    expect(await page.getByTestId('metric-name').locator('option').allTextContents()).toEqual([GAUGE.name, `${HISTOGRAM.name} (histogram, ${HISTOGRAM.unit}) · 1 series`]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('draws the cumulative counter as per-second rates of each series, "/s" on the axis; the choice of series is in the address', async () => {
    const { page, problems } = await viewer().newPage();
    await viewer().signIn(page, viewer().keys.read, `/ui/metrics?name=${encodeURIComponent(SUM.name)}`);
    await ready(page, 'metrics');
    expect(await page.getByTestId('metric-axis-label').textContent()).toBe('request/s');
    expect(await page.getByTestId('metric-note').textContent()).toContain('per second');
    expect(await texts(page, 'series-label')).toEqual(SUM_LABELS);
    expect(await page.getByTestId('metric-chart').getAttribute('data-series')).toBe(String(SUM.series.length));
    await screenshot(page, 'metrics');
    const expected = SUM.series.flatMap((series, i) => counterRates(series).map(({ agoMs, rate }) => row(SUM_LABELS[i]!, agoMs, rate)));
    // Hand-checked once: /cart 5 → 7 in a minute is 2/60 per second; /checkout 60 → 85 is 25/60.
    expect(expected.map((r) => r.value)).toEqual([2 / 60, 5 / 60, 8 / 60, 1 / 60, 15 / 60, 15 / 60, 20 / 60, 25 / 60]);
    expect(await table(page)).toEqual(expected);
    expect(await page.locator('[data-testid=metric-table] th').last().textContent()).toBe('Value (request/s)');

    // Only /checkout: the other's entry stays in the legend, unticked, and leaves the chart and the table.
    await page.getByTestId('series-toggle').first().uncheck();
    await page.locator('[data-testid=metric-chart][data-series="1"]').waitFor();
    expect(await page.getByTestId('series-toggle').evaluateAll((boxes) => boxes.map((box) => (box as unknown as { checked: boolean }).checked))).toEqual([false, true]);
    const checkout = expected.filter((r) => r.series === SUM_LABELS[1]);
    expect(await table(page)).toEqual(checkout);
    const chosen = pathOf(page);
    expect(new URL(page.url()).searchParams.get('series')).toBe(JSON.stringify([[SUM.service, SUM.series[1]!.attributes]]));

    // The address alone brings the same view back.
    await page.goto(`${viewer().url}${chosen}`);
    await ready(page, 'metrics');
    expect(await page.getByTestId('metric-chart').getAttribute('data-series')).toBe('1');
    expect(await texts(page, 'series-label')).toEqual(SUM_LABELS);
    expect(await table(page)).toEqual(checkout);

    await page.getByTestId('series-all').click();
    await page.locator(`[data-testid=metric-chart][data-series="${SUM.series.length}"]`).waitFor();
    expect(new URL(page.url()).searchParams.has('series')).toBe(false);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('draws the histogram as its interval counts, means, and quantiles as histogram_quantile estimates them; the mode is in the address', async () => {
    const { page, problems } = await viewer().newPage();
    await viewer().signIn(page, viewer().keys.read, `/ui/metrics?name=${encodeURIComponent(HISTOGRAM.name)}`);
    await ready(page, 'metrics');
    expect(await texts(page, 'series-label')).toEqual([HISTOGRAM.service]);
    expect(await page.getByTestId('metric-mode').inputValue()).toBe('count');
    expect(await page.getByTestId('metric-axis-label').textContent()).toBe('count');
    // Cumulative: the first point's counts are since its start, so only the interval after it is drawn.
    expect(INTERVAL.count).toBe(15);
    expect(await table(page)).toEqual([row(HISTOGRAM.service, SECOND.agoMs, INTERVAL.count)]);

    await page.getByTestId('metric-mode').selectOption('mean');
    await page.getByTestId('metric-axis-label').filter({ hasText: HISTOGRAM.unit }).waitFor();
    expect(await table(page)).toEqual([row(HISTOGRAM.service, SECOND.agoMs, INTERVAL.sum / INTERVAL.count)]);

    await page.getByTestId('metric-mode').selectOption('quantile');
    await page.getByTestId('metric-quantile').selectOption('0.5');
    // The interval's buckets are 3, 5, 4, 2, 1 over the bounds 10, 50, 100, 500: the median's rank
    // 7.5 falls in (10, 50] past the 3 below it, 4.5 of its 5; the 0.9's rank 13.5 in (100, 500]
    // past 12, 1.5 of its 2; the 0.99's rank 14.85 in +Inf, which histogram_quantile gives as the
    // highest bound.
    const [b0, b1, b2, b3] = HISTOGRAM.bounds as [number, number, number, number];
    const [c0, c1, c2, c3] = INTERVAL.buckets as [number, number, number, number];
    const median = b0 + (b1 - b0) * ((0.5 * INTERVAL.count - c0) / c1);
    const p90 = b2 + (b3 - b2) * ((0.9 * INTERVAL.count - (c0 + c1 + c2)) / c3);
    expect([median, p90]).toEqual([46, 400]);
    await page.locator(`[data-testid=metric-row][data-value="${median}"]`).waitFor();
    expect(await table(page)).toEqual([row(HISTOGRAM.service, SECOND.agoMs, median)]);
    await page.getByTestId('metric-quantile').selectOption('0.9');
    await page.locator(`[data-testid=metric-row][data-value="${p90}"]`).waitFor();
    expect(await table(page)).toEqual([row(HISTOGRAM.service, SECOND.agoMs, p90)]);
    expect(await page.getByTestId('metric-axis-label').textContent()).toBe(HISTOGRAM.unit);
    const address = pathOf(page);
    expect(address).toBe(`/ui/metrics?name=${encodeURIComponent(HISTOGRAM.name)}&mode=quantile&q=0.9`);

    await page.goto(`${viewer().url}/ui/metrics?name=${encodeURIComponent(HISTOGRAM.name)}&mode=quantile&q=0.99`);
    await ready(page, 'metrics');
    expect([await page.getByTestId('metric-mode').inputValue(), await page.getByTestId('metric-quantile').inputValue()]).toEqual(['quantile', '0.99']);
    expect((await table(page)).map((r) => r.value)).toEqual([b3]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('is used by keyboard: the metric’s select, a series’ checkbox and the table’s button', async () => {
    const { page, problems } = await viewer().newPage();
    await viewer().signIn(page, viewer().keys.read, `/ui/metrics?name=${encodeURIComponent(GAUGE.name)}`);
    await ready(page, 'metrics');
    await page.getByTestId('metric-name').focus();
    // The counter's name sorts just before the gauge's.
    expect(METRIC_NAMES.indexOf(SUM.name)).toBe(METRIC_NAMES.indexOf(GAUGE.name) - 1);
    await page.keyboard.press('ArrowUp');
    await page.getByTestId('metric-heading').filter({ hasText: SUM.name }).waitFor();
    await ready(page, 'metrics');
    await page.getByTestId('series-toggle').nth(1).focus();
    expect(await page.evaluate<string>('getComputedStyle(document.activeElement).outlineStyle')).toBe('solid');
    await page.keyboard.press('Space');
    await page.locator('[data-testid=metric-chart][data-series="1"]').waitFor();
    await page.getByTestId('table-toggle').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('metric-table').waitFor();
    expect(await texts(page, 'metric-cell-series')).toEqual(counterRates(SUM.series[0]!).map(() => SUM_LABELS[0]));
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows another project’s key none of these metrics', async () => {
    const { page, problems } = await viewer().newPage();
    await viewer().signIn(page, viewer().keys.otherRead, '/ui/metrics');
    await ready(page, 'metrics');
    expect(await page.getByTestId('metrics-empty').textContent()).toBe('No metrics were stored in this range.');
    expect(await page.getByTestId('metric-name').count()).toBe(0);
    // Named in the address, the project's metric has no series for this key either.
    await page.goto(`${viewer().url}/ui/metrics?name=${encodeURIComponent(SUM.name)}`);
    await ready(page, 'metrics');
    expect(await page.getByTestId('series-empty').textContent()).toBe(`No series of ${SUM.name} in this range.`);
    expect(await page.getByTestId('metric-chart').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('fits a phone’s width, chart and all', async () => {
    const { page, problems } = await viewer().newPage(PHONE);
    await viewer().signIn(page, viewer().keys.read, `/ui/metrics?name=${encodeURIComponent(SUM.name)}`);
    await ready(page, 'metrics');
    await page.getByTestId('table-toggle').click();
    await page.getByTestId('metric-table').waitFor();
    expect(await overflow(page)).toBe(0);
    const chart = await page.getByTestId('metric-chart').boundingBox();
    expect(chart !== null && chart.width > 300 && chart.width <= PHONE.width).toBe(true);
    await screenshot(page, 'metrics-phone');
    expect(problems).toEqual([]);
    await page.close();
  });
});
