// Issue 19: every view's first render under 1 s against a store holding a million rows of each
// signal. Makes such a store (viewer-store.mjs), starts the built otelgate on it, and in Debian's
// headless Chromium opens each view with a read key, timing from the navigation's start until the
// view says data-state="ready" (its data on screen); reports the median of ROUNDS per view.
//   node bench/viewer.mjs [rows]          (npm run build first; writes bench/out/viewer.json)
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { generateKey } from '../dist/auth/key.js';
import { writeKeysFile } from '../dist/auth/keysfile.js';
import { makeViewerStore } from './viewer-store.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..');
const ROWS = Number(process.argv[2] ?? 1_000_000);
const ROUNDS = 5;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dir = mkdtempSync(join(tmpdir(), 'otelgate-viewer-bench-'));
const store = join(dir, 'store.db');
const made = performance.now();
makeViewerStore(store, ROWS, 'default');
console.log(`store of ${ROWS} rows of each signal made in ${((performance.now() - made) / 1000).toFixed(1)} s`);
const key = generateKey();
const keysFile = join(dir, 'keys.yaml');
writeKeysFile(keysFile, [{ id: key.id, project: 'default', sha256: key.sha256, scopes: ['read'] }]);
const config = join(dir, 'config.yaml');
writeFileSync(
  config,
  `extensions:
  apikeyauth: {keys_file: ${keysFile}}
receivers:
  ingest: {endpoint: 127.0.0.1:0, auth: {authenticator: apikeyauth}}
exporters:
  store: {path: ${store}}
service:
  extensions: [apikeyauth]
  pipelines:
    logs: {receivers: [ingest], exporters: [store]}
    traces: {receivers: [ingest], exporters: [store]}
    metrics: {receivers: [ingest], exporters: [store]}
`,
);

const child = spawn(process.execPath, ['dist/cli.js', 'run', '--config', config], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
const port = await new Promise((resolve, reject) => {
  let output = '';
  const onData = (chunk) => {
    output += chunk;
    const found = /"endpoint":"127\.0\.0\.1:(\d+)","tls"/.exec(output);
    if (output.includes('Everything is ready') && found) resolve(found[1]);
  };
  child.stdout.setEncoding('utf8').on('data', onData);
  child.stderr.setEncoding('utf8').on('data', onData);
  child.once('exit', (code) => reject(new Error(`otelgate exited ${code}:\n${output}`)));
});
const origin = `http://127.0.0.1:${port}`;

// The views as a user first opens them: the default range (the last hour, which holds every row).
const VIEWS = [
  ['logs', '/ui/logs'],
  ['traces', '/ui/traces'],
  ['trace', `/ui/traces/000000000012d687${(ROWS / 10 - 1).toString(16).padStart(16, '0')}`],
  ['metrics', '/ui/metrics?name=metric.1'],
  ['errors', '/ui/errors'],
];

/** In the page: resolves when the view's root says ready or error, with performance.now() then. */
const READY = `new Promise((resolve) => {
  const look = () => {
    const view = document.querySelector('[data-state=ready], [data-state=error]');
    if (view === null) return false;
    resolve({ state: view.getAttribute('data-state'), atMs: performance.now(), text: view.textContent.slice(0, 300) });
    return true;
  };
  if (look()) return;
  const observer = new MutationObserver(() => { if (look()) observer.disconnect(); });
  observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'] });
})`;

const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
const results = {};
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(60_000);
  await page.goto(`${origin}/ui/signin`);
  await page.getByTestId('signin-key').fill(key.key);
  await page.getByTestId('signin-key').press('Enter');
  await page.getByTestId('nav').waitFor();
  for (const [name, path] of VIEWS) {
    const times = [];
    for (let r = 0; r < ROUNDS; r++) {
      await page.goto(`${origin}${path}`);
      // Timed in the page, from the navigation's start, the moment the view's state changes: a
      // locator's wait polls, at intervals of up to half a second.
      const { state, atMs, text } = await page.evaluate(READY);
      if (state !== 'ready') throw new Error(`${path}: the view said ${state}: ${text}`);
      times.push(atMs);
    }
    results[name] = { medianMs: Math.round(median(times)), ms: times.map(Math.round) };
    console.log(`${name} (${path}): first render ${results[name].medianMs} ms (median of ${ROUNDS}: ${results[name].ms.join(', ')})`);
  }
} finally {
  await browser.close();
  child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
mkdirSync(join(HERE, 'out'), { recursive: true });
writeFileSync(join(HERE, 'out', 'viewer.json'), `${JSON.stringify({ rows: ROWS, results }, null, 2)}\n`);
