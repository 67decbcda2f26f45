// Makes the golden Sentry envelopes in testdata/sentry/ with the real @sentry/node SDK:
//
//   node_modules/.bin/node test/sentry/capture.mjs
//
// This process is the stand-in for Sentry: a loopback server that keeps every body the SDK posts
// (inflated when the SDK compressed it). The SDK runs in a child process per trace lifecycle,
// `static` (spans inside a transaction event) and `stream` (span v2 items, SDK 11's default),
// because its init instruments node:http process-wide: in this process it would trace the
// stand-in's own requests too. The child serves one instrumented request, POST /checkout, whose
// handler makes nested spans, an error with a cause and logs, then reports messages at each level.
//
// Ids and times change with every run: after re-capturing, update the values test/sentry/ asserts.
// SENTRY_DEBUG=1 shows the SDK's own log of what it does.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = join(ROOT, 'testdata', 'sentry');
/** A key in otelgate's form; not a real one. */
const KEY = 'otg_golden0000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const LIFECYCLES = ['static', 'stream'];

// `node capture.mjs <lifecycle> <dsn> [large]` plays the scene alone against a DSN (the receiver's
// test points it at otelgate); `large` adds an event over the 32 KiB past which the SDK compresses.
if (process.argv[2] === undefined) {
  for (const lifecycle of LIFECYCLES) await record(lifecycle);
} else {
  await scene(process.argv[2], process.argv[3], process.argv[4] === 'large');
}

function inflate(encoding, body) {
  switch (encoding) {
    case 'gzip':
      return zlib.gunzipSync(body);
    case 'deflate':
      return zlib.inflateSync(body);
    case 'br':
      return zlib.brotliDecompressSync(body);
    case undefined:
    case 'identity':
      return body;
    default:
      throw new Error(`the SDK sent Content-Encoding ${encoding}`);
  }
}

/** Runs the scene in a child with the SDK, keeping what it posts under testdata/sentry/<lifecycle>/. */
async function record(lifecycle) {
  const requests = [];
  const sink = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const encoding = req.headers['content-encoding'];
      requests.push({ method: req.method, url: req.url, encoding, contentType: req.headers['content-type'], body: inflate(encoding, Buffer.concat(chunks)) });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise((resolve) => sink.listen(0, '127.0.0.1', resolve));
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), lifecycle, `http://${KEY}@127.0.0.1:${sink.address().port}/1`], { stdio: 'inherit' });
  const code = await new Promise((resolve) => child.on('exit', resolve));
  sink.close();
  if (code !== 0) throw new Error(`the ${lifecycle} scene exited with ${code}`);

  const dir = join(OUT, lifecycle);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const manifest = requests.map((request, i) => {
    const text = request.body.toString('utf8');
    const types = new Set([...text.matchAll(/^\{"type":"([a-z_]+)"/gm)].map((m) => m[1]));
    const file = `${String(i + 1).padStart(2, '0')}-${[...types].join('+')}.envelope`;
    writeFileSync(join(dir, file), request.body);
    const { body, ...rest } = request;
    return { file, ...rest };
  });
  writeFileSync(join(dir, 'requests.json'), JSON.stringify(manifest, null, 2) + '\n');
  console.log(`${lifecycle}: ${readdirSync(dir).join(' ')}`);
}

/** The child: the SDK pointed at `dsn`, reporting one scripted scene. */
async function scene(lifecycle, dsn, large) {
  const Sentry = await import('@sentry/node');
  Sentry.init({
    dsn,
    release: 'shop@1.4.2',
    environment: 'golden',
    serverName: 'capture-host',
    enableLogs: true,
    tracesSampleRate: 1,
    traceLifecycle: lifecycle,
    debug: process.env.SENTRY_DEBUG === '1',
    initialScope: { tags: { team: 'payments', region: 'eu-west-1' } },
  });
  const { createServer, request } = await import('node:http');

  function connect() {
    throw new TypeError('socket closed');
  }
  function charge() {
    try {
      connect();
    } catch (cause) {
      throw new Error('payment failed', { cause });
    }
  }

  // Served as the request arrives, without waiting for its body: what the handler reports then
  // carries the request (the SDK's request data) and the server span's trace.
  const app = createServer(async (req, res) => {
    req.resume();
    Sentry.setUser({ id: 'u-42', email: 'ada@example.com', username: 'ada', ip_address: '203.0.113.7' });
    await Sentry.startSpan({ name: 'load cart', op: 'db.query', attributes: { 'db.system.name': 'postgresql', 'cart.items': 3, 'cart.total': 12.5, 'cart.open': true } }, async () => {
      await Sentry.startSpan({ name: 'decode rows', op: 'function' }, () => new Promise((resolve) => setTimeout(resolve, 5)));
    });
    Sentry.startSpan({ name: 'POST https://psp.example/charge', op: 'http.client' }, (span) => span.setStatus({ code: 2, message: 'internal_error' }));
    try {
      charge();
    } catch (error) {
      Sentry.captureException(error);
    }
    Sentry.logger.info(Sentry.logger.fmt`cart ${'c-7'} loaded with ${3} items`, { 'cart.total': 12.5 });
    Sentry.logger.warn('card expires soon', { 'card.months_left': 1 });
    Sentry.logger.error('charge declined', { 'psp.code': 'do_not_honor', retry: false });
    // 200, not a 4xx: the SDK drops the transactions of requests answered 401-404 and 3xx.
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('declined');
  });
  await new Promise((resolve) => app.listen(0, '127.0.0.1', resolve));
  await new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: app.address().port, method: 'POST', path: '/checkout?cart=c-7', headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', reject);
    req.end('{"cart":"c-7"}');
  });
  app.close();

  for (const level of ['fatal', 'error', 'warning', 'log', 'info', 'debug']) Sentry.captureMessage(`checkout note at ${level}`, level);
  Sentry.withScope((scope) => {
    scope.setTag('service.name', 'checkout');
    Sentry.captureMessage('tagged with its service');
  });
  if (large) Sentry.captureException(new RangeError(`too large: ${'x'.repeat(40_000)}`));
  await Sentry.close(5000);
}
