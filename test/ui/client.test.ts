// The viewer's read API client (ui/src/api.ts) and address state (ui/src/url.ts) in a real
// Chromium, against the built otelgate holding the viewer's dataset: what each method asks for, that
// it reads with the key the tab keeps, what an error and a refused key become, and the filters
// written to and read from the query string.
//
// How: the two modules are bundled here with esbuild, as the viewer's build does, and loaded by a
// page that Playwright answers at otelgate's own origin, so that the client's same-origin reads
// reach the real read API. The page's code is written as text: this project's types have no DOM.
import { build } from 'esbuild-wasm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../helpers/chromium.js';
import { ROOT } from '../helpers/cli.js';
import { CHECKOUT, GAUGE, TRACE_ID, TRACE_SPANS } from '../helpers/viewer-dataset.js';
import { BROWSER_TESTS, startViewer, type Viewer } from '../helpers/viewer.js';

const available = chromiumAvailable();
let viewer: Viewer;
let page: Page;
/** The read API paths the page asked for, with their query strings. */
const asked: string[] = [];

beforeAll(async () => {
  if (!available) return;
  viewer = await startViewer();
  const bundled = await build({
    stdin: { contents: "import * as api from './ui/src/api'; import * as url from './ui/src/url'; globalThis.viewer = { api, url };", resolveDir: ROOT, sourcefile: 'client.ts', loader: 'ts' },
    tsconfig: `${ROOT}ui/tsconfig.json`,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
  });
  page = (await viewer.newPage()).page;
  await page.route(`${viewer.url}/client/**`, (route) =>
    route.request().url().endsWith('.js')
      ? route.fulfill({ contentType: 'text/javascript', body: bundled.outputFiles[0]?.text ?? '' })
      : route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>client</title><script src="/client/modules.js"></script>' }),
  );
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/v1/query/')) asked.push(url.pathname + url.search);
  });
  await page.goto(`${viewer.url}/client/`);
}, 60_000);

afterAll(async () => {
  await viewer?.stop();
});

/** Runs `body` (statements, `api` and `url` in scope, `await` allowed) on the page; resolves with what it returns. */
const run = <T>(body: string): Promise<T> => page.evaluate<T>(`(async () => { const { api, url } = globalThis.viewer; ${body} })()`);

/** Keeps `key` for the tab (nothing for undefined), as the sign-in does. */
const keep = (key: string | undefined) => run<void>(key === undefined ? 'sessionStorage.clear();' : `api.storeKey(${JSON.stringify(key)});`);

/** The outcome of one call of the client: its answer, or its error's status and message. */
const outcome = (call: string) =>
  run<unknown>(`
    let refused = 0;
    const client = new api.Api(() => refused++);
    try {
      return { answer: await client.${call}, refused };
    } catch (error) {
      return { status: error.status, message: error.message, refused, isApiError: error instanceof api.ApiError };
    }
  `);

describe.skipIf(!available)('the viewer’s read API client', BROWSER_TESTS, () => {
  it('reads /logs, /spans and /metrics with the key the tab keeps: the rows the API answers', async () => {
    await keep(viewer.keys.read);
    const direct = async (what: 'logs' | 'spans' | 'metrics', params: Record<string, string>) => ({ answer: (await viewer.gateway.read(what, viewer.keys.read, params)).body, refused: 0 });
    expect(await outcome(`logs({ service: '${CHECKOUT}', limit: 100 })`)).toEqual(await direct('logs', { service: CHECKOUT, limit: '100' }));
    const spans = (await outcome(`spans({ trace_id: '${TRACE_ID}' })`)) as { answer: { rows: { name: string }[] } };
    expect(spans).toEqual(await direct('spans', { trace_id: TRACE_ID }));
    expect(spans.answer.rows.map((row) => row.name).sort()).toEqual(TRACE_SPANS.map((span) => span.name).sort());
    expect(await outcome(`metrics({ name: '${GAUGE.name}' })`)).toEqual(await direct('metrics', { name: GAUGE.name }));
  });

  it('asks each path with its parameters as the read API spells them, leaving out what is unset or empty', async () => {
    await keep(viewer.keys.read);
    asked.length = 0;
    const calls = [
      "logs({ from: '2026-11-22T08:00:00Z', to: '1795000000000000000', service: '', severity_min: 'warn', trace_id: undefined, q: 'a b&c', limit: 5 })",
      "spans({ trace_id: 'abc', name: 'GET /' })",
      "metrics({ name: 'm', limit: 1 })",
      "logCounts({ step: '1m', severity_min: 'error' })",
      "traceSummaries({ errors: true, min_duration: '250ms', name: 'GET /x', limit: 10 })",
      "metricNames({ service: 'web' })",
      "metricSeries({ name: 'http.server.requests', attributes: { 'http.route': '/cart', n: 1 }, max_points: 10 })",
      "errorGroups({ step: '30s' })",
    ];
    for (const call of calls) await outcome(call);
    expect(asked).toEqual([
      '/api/v1/query/logs?from=2026-11-22T08%3A00%3A00Z&to=1795000000000000000&severity_min=warn&q=a+b%26c&limit=5',
      '/api/v1/query/spans?trace_id=abc&name=GET+%2F',
      '/api/v1/query/metrics?name=m&limit=1',
      '/api/v1/query/log_counts?step=1m&severity_min=error',
      '/api/v1/query/trace_summaries?errors=true&min_duration=250ms&name=GET+%2Fx&limit=10',
      '/api/v1/query/metric_names?service=web',
      `/api/v1/query/metric_series?name=http.server.requests&attributes=${encodeURIComponent('{"http.route":"/cart","n":1}').replaceAll('%20', '+')}&max_points=10`,
      '/api/v1/query/error_groups?step=30s',
    ]);
  });

  it('throws an ApiError with the status and the API’s message for an answer that is not a 200', async () => {
    await keep(viewer.keys.read);
    expect(await outcome('logs({ limit: 0 })')).toEqual({ status: 400, message: 'limit must be an integer from 1 to 10000; got "0"', refused: 0, isApiError: true });
  });

  it('signs out on a 401: a key that may only send, or no key at all (then nothing is asked)', async () => {
    await keep(viewer.keys.ingest);
    expect(await outcome('logs({})')).toEqual({ status: 401, message: 'API key invalid.', refused: 1, isApiError: true });
    await keep(undefined);
    asked.length = 0;
    expect(await outcome('spans({})')).toEqual({ status: 401, message: 'Not signed in.', refused: 1, isApiError: true });
    expect(asked).toEqual([]);
  });

  it('checks a key for the sign-in with one read, whatever the tab keeps', async () => {
    await keep(undefined);
    const check = (key: string) => run<unknown>(`try { await api.checkKey(${JSON.stringify(key)}); return 'ok'; } catch (error) { return error.status; }`);
    expect([await check(viewer.keys.read), await check(viewer.keys.ingest), await check(viewer.keys.otherRead)]).toEqual(['ok', 401, 'ok']);
    expect(await run<number>('return sessionStorage.length;')).toBe(0);
  });
});

describe.skipIf(!available)('the viewer’s address state', BROWSER_TESTS, () => {
  it('routes each path under /ui/ to its view', async () => {
    const paths = ['/ui/', '/ui/logs', '/ui/logs/', `/ui/traces/${TRACE_ID}`, '/ui/traces/a%2Fb', '/ui/traces/%E0%A4%A', '/ui/metrics', '/ui/errors', '/ui/signin', '/ui/nope', '/ui/logs/x', '/ui/traces/a/b', '/elsewhere'];
    expect(await run(`return ${JSON.stringify(paths)}.map((path) => url.routeOf(path));`)).toEqual([
      { view: 'home' },
      { view: 'logs' },
      { view: 'logs' },
      { view: 'traces', traceId: TRACE_ID },
      { view: 'traces', traceId: 'a/b' },
      { view: 'unknown' },
      { view: 'metrics' },
      { view: 'errors' },
      { view: 'signin' },
      { view: 'unknown' },
      { view: 'unknown' },
      { view: 'unknown' },
      { view: 'unknown' },
    ]);
  });

  it('links to a trace’s page with its id as one path segment that routes back to it, keeping the query given', async () => {
    expect(await run(`return [url.traceHref(${JSON.stringify(TRACE_ID)}), url.traceHref('a/b?c#d %', '?range=15m'), url.routeOf(new URL(url.traceHref('a/b?c#d %', '?range=15m'), location.href).pathname)];`)).toEqual([
      `/ui/traces/${TRACE_ID}`,
      '/ui/traces/a%2Fb%3Fc%23d%20%25?range=15m',
      { view: 'traces', traceId: 'a/b?c#d %' },
    ]);
  });

  it('writes filters into the query string, keeping other parameters and leaving defaults out, and reads them back', async () => {
    const state = await run<unknown[]>(`
      const defaults = { service: '', q: '', severity: 'info' };
      history.replaceState(null, '', '/client/?keep=1&severity=warn');
      const states = [url.readFilters(defaults)];
      const before = history.length;
      url.writeFilters({ service: 'web', q: 'a b' }, defaults);
      states.push(location.search, history.length - before);
      url.writeFilters({ severity: 'info', q: '' }, defaults, 'push');
      states.push(location.search, history.length - before, url.readFilters(defaults));
      return states;
    `);
    expect(state).toEqual([
      { service: '', q: '', severity: 'warn' },
      '?keep=1&severity=warn&service=web&q=a+b',
      0,
      '?keep=1&service=web',
      1,
      { service: 'web', q: '', severity: 'info' },
    ]);
  });
});
