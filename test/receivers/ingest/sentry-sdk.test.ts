// The real @sentry/node SDK, pointed at the built otelgate by its DSN, in both of its trace
// lifecycles (spans inside a transaction event, and SDK 11's default of streamed span items): its
// errors, messages, spans and logs are stored as rows of the DSN key's project and read back with
// a read-only key of the same project. The scene (test/sentry/capture.mjs) serves one instrumented
// request with nested spans, an error with a cause and logs, reports a message at every level and
// one event over the 32 KiB past which the SDK compresses its body.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey, type NewKey } from '../../../src/auth/key.js';
import { writeKeysFile } from '../../../src/auth/keysfile.js';
import { ROOT } from '../../helpers/cli.js';
import { startGateway, STORE_CONFIG, type Gateway } from '../../helpers/gateway.js';
import { waitUntil } from '../../helpers/wait.js';

type Row = Record<string, unknown>;
const LIFECYCLES = ['static', 'stream'] as const;

let gw: Gateway;
/** Per lifecycle (its own project): the DSN's key, which may only send, and a key that may only read. */
const keys = new Map<string, { dsn: NewKey; reader: NewKey }>();

beforeAll(async () => {
  gw = await startGateway({ config: STORE_CONFIG(join(mkdtempSync(join(tmpdir(), 'otelgate-sentry-')), 'store.db')) });
  const entries = LIFECYCLES.flatMap((project) => {
    const pair = { dsn: generateKey(), reader: generateKey() };
    keys.set(project, pair);
    return [
      { id: pair.dsn.id, project, sha256: pair.dsn.sha256, scopes: ['ingest' as const] },
      { id: pair.reader.id, project, sha256: pair.reader.sha256, scopes: ['read' as const] },
    ];
  });
  writeKeysFile(gw.keysFile, entries);
  expect(await waitUntil(() => gw.run.lines.some((l) => l.msg === 'Reloaded API keys' && l['keys'] === entries.length))).toBe(true);
}, 60_000);

afterAll(async () => {
  await gw.stop();
});

const attributes = (row: Row): Row => row['attributes'] as Row;
/** The request's server span: named by its route in a transaction, by its method alone when streamed (the SDK names it so). */
const serverSpan = (spans: Row[]): Row => spans.find((s) => attributes(s)['sentry.op'] === 'http.server') ?? {};
const byBody = (rows: Row[], body: string): Row => rows.find((r) => r['body'] === body) ?? {};

describe.each(LIFECYCLES)('the Sentry Node SDK (%s spans) pointed at otelgate by its DSN', (lifecycle) => {
  let logs: Row[] = [];
  let spans: Row[] = [];
  let text = '';

  beforeAll(async () => {
    const { dsn, reader } = keys.get(lifecycle) as { dsn: NewKey; reader: NewKey };
    // The SDK flushes and has every request answered before it exits; an answer means stored.
    await promisify(execFile)(process.execPath, [join(ROOT, 'test/sentry/capture.mjs'), lifecycle, `${gw.url.replace('//', `//${dsn.key}@`)}/4507`, 'large'], { timeout: 60_000 });
    const [logAnswer, spanAnswer] = await Promise.all([gw.read('logs', reader.key, { limit: '1000' }), gw.read('spans', reader.key, { limit: '1000' })]);
    expect([logAnswer.status, spanAnswer.status]).toEqual([200, 200]);
    logs = logAnswer.body.rows ?? [];
    spans = spanAnswer.body.rows ?? [];
    text = logAnswer.text + spanAnswer.text;
  }, 90_000);

  it('stores the error with its cause as a log row with the exception attributes, in the trace of the request', () => {
    const error = byBody(logs, 'Error: payment failed');
    expect(error).toMatchObject({ severity_number: 17, severity_text: 'error', service_name: 'capture-host' });
    expect(attributes(error)).toMatchObject({
      'exception.type': 'Error',
      'exception.message': 'payment failed',
      'user.id': 'u-42',
      'user.email': 'ada@example.com',
      'user.name': 'ada',
      'http.request.method': 'POST',
      team: 'payments',
      region: 'eu-west-1',
      'sentry.platform': 'node',
      'sentry.sdk.name': 'sentry.javascript.node',
    });
    expect(attributes(error)['url.full']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/checkout\?cart=c-7$/);
    expect(attributes(error)['sentry.event_id']).toMatch(/^[0-9a-f]{32}$/);
    const stack = attributes(error)['exception.stacktrace'] as string;
    expect(stack).toMatch(/^Error: payment failed\n {4}at charge \(/);
    // As Node prints an error with its cause: the cause's frames indented under it.
    expect(stack).toMatch(/\n {2}\[cause\]: TypeError: socket closed\n {6}at connect \(/);
    expect(error['resource']).toMatchObject({ 'service.version': 'shop@1.4.2', 'deployment.environment.name': 'golden' });
    const server = serverSpan(spans);
    expect([error['trace_id'], error['span_id']]).toEqual([server['trace_id'], server['span_id']]);
  });

  it('stores a message at every level with its severity, and takes service.name from a tag', () => {
    const levels = logs.filter((r) => String(r['body']).startsWith('checkout note at ')).map((r) => [r['body'], r['severity_number'], r['severity_text']]);
    expect(levels.sort()).toEqual(
      [
        ['checkout note at debug', 5, 'debug'],
        ['checkout note at error', 17, 'error'],
        ['checkout note at fatal', 21, 'fatal'],
        ['checkout note at info', 9, 'info'],
        ['checkout note at log', 9, 'log'],
        ['checkout note at warning', 13, 'warning'],
      ].sort(),
    );
    expect(byBody(logs, 'tagged with its service')['service_name']).toBe('checkout');
  });

  it('stores the SDK’s logs (Sentry.logger) with their severity and typed attributes', () => {
    expect(byBody(logs, 'cart c-7 loaded with 3 items')).toMatchObject({ severity_number: 9, attributes: expect.objectContaining({ 'cart.total': 12.5 }) });
    expect(byBody(logs, 'card expires soon')).toMatchObject({ severity_number: 13, attributes: expect.objectContaining({ 'card.months_left': 1 }) });
    expect(byBody(logs, 'charge declined')).toMatchObject({ severity_number: 17, attributes: expect.objectContaining({ 'psp.code': 'do_not_honor', retry: false }) });
  });

  it('stores an event large enough that the SDK compresses it', () => {
    const large = logs.find((r) => String(r['body']).startsWith('RangeError: too large: ')) ?? {};
    expect(String(large['body']).length).toBe('RangeError: too large: '.length + 40_000);
    expect(attributes(large)['exception.type']).toBe('RangeError');
  });

  it('stores the nested spans as one trace: the server span, its children and grandchild, with kinds and the failed call’s status', () => {
    const named = new Map(spans.map((s) => [s['name'], s]));
    const serverName = lifecycle === 'static' ? 'POST /checkout' : 'POST';
    expect([...named.keys()].sort()).toEqual([serverName, 'POST https://psp.example/charge', 'decode rows', 'load cart'].sort());
    const server = named.get(serverName) as Row;
    const load = named.get('load cart') as Row;
    expect(new Set(spans.map((s) => s['trace_id'])).size).toBe(1);
    expect([server['kind'], load['kind'], named.get('decode rows')?.['kind'], named.get('POST https://psp.example/charge')?.['kind']]).toEqual([2, 3, 1, 3]);
    expect([load['parent_span_id'], named.get('decode rows')?.['parent_span_id'], named.get('POST https://psp.example/charge')?.['parent_span_id']]).toEqual([server['span_id'], load['span_id'], server['span_id']]);
    expect(named.get('POST https://psp.example/charge')).toMatchObject({ status_code: 2, status_message: 'internal_error' });
    expect(attributes(load)).toMatchObject({ 'db.system.name': 'postgresql', 'cart.items': 3, 'cart.total': 12.5, 'cart.open': true });
    expect(Number(server['duration_nano'])).toBeGreaterThan(Number(load['duration_nano']));
  });

  it('never stores the DSN’s key, which the SDK propagates in its baggage', () => {
    expect(text).not.toContain((keys.get(lifecycle) as { dsn: NewKey }).dsn.key);
    expect(text).not.toContain((keys.get(lifecycle) as { dsn: NewKey }).dsn.id);
  });

  it('lets the DSN’s key send but not read, and the reading key read but not send', async () => {
    const { dsn, reader } = keys.get(lifecycle) as { dsn: NewKey; reader: NewKey };
    expect((await gw.read('logs', dsn.key)).status).toBe(401);
    const sent = await fetch(`${gw.url}/api/1/envelope/?sentry_key=${reader.key}`, { method: 'POST', body: '{}\n' });
    expect([sent.status, await sent.text()]).toEqual([401, '{"message":"API key invalid."}']);
  });
});
