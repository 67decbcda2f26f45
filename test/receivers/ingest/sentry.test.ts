// The Sentry path's contract over real HTTP, on the receiver in process: its paths, every way an
// SDK presents its key, every Content-Encoding an SDK sends, mangled envelopes, envelopes of only
// items that are not stored, a 10,000-item envelope, 401 and 503. What each item becomes is
// test/sentry/'s; that the real SDK gets it there is sentry-sdk.test.ts's.
import { brotliCompressSync, deflateSync, gzipSync, zstdCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RetryableError } from '../../../src/errors.js';
import type { Batch } from '../../../src/model/batch.js';
import { RECEIVER_KEY, startReceiver, type InProcessReceiver } from '../../helpers/receiver.js';
import { envelope } from '../../helpers/sentry.js';

const EVENT_ID = '9a1f0d3c2b7e4f8a8c6d5e4f3a2b1c0d';
const event = (message: string) => ({ header: { type: 'event' }, payload: { event_id: EVENT_ID, message, timestamp: 1_700_000_000 } });
const logItem = (count: number) => ({
  header: { type: 'log', item_count: count, content_type: 'application/vnd.sentry.items.log+json' },
  payload: { version: 2, items: Array.from({ length: count }, (_, i) => ({ timestamp: 1_700_000_000 + i, level: 'info', body: `log ${i}` })) },
});
const UNAUTHORIZED = [401, '{"message":"API key invalid."}'];

let receiver: InProcessReceiver;
/** Whether the pipeline refuses for now (a full queue, say): answered 503. */
let refusing = false;

beforeAll(async () => {
  receiver = await startReceiver([], async () => {
    if (refusing) throw new RetryableError('the queue is full');
  });
});

afterAll(async () => {
  await receiver.stop();
});

async function post(path: string, body: Buffer | string, headers: Record<string, string> = {}): Promise<[number, string]> {
  const response = await fetch(`http://127.0.0.1:${receiver.port}${path}`, { method: 'POST', body, headers });
  return [response.status, await response.text()];
}

/** The bodies of the log rows of the batches handed on since `from`, with their project. */
const storedSince = (from: number): [string, unknown][] => receiver.batches.slice(from).flatMap((batch) => (batch.signal === 'logs' ? batch.rows.map((row): [string, unknown] => [batch.project, row.body]) : []));

describe('the Sentry path', () => {
  it.each([
    ['/api/1/envelope/', 'envelope'],
    ['/api/4507/envelope', 'envelope'],
    ['/api/1/store/', 'store'],
    ['/api/99/store', 'store'],
  ])('takes %s (the number is ignored: the project is the key\'s)', async (path, kind) => {
    const from = receiver.batches.length;
    const body = kind === 'envelope' ? envelope({ event_id: EVENT_ID }, event('hello')) : JSON.stringify(event('hello').payload);
    expect(await post(path, body, { 'X-Sentry-Auth': `Sentry sentry_version=7, sentry_key=${RECEIVER_KEY}` })).toEqual([200, `{"id":"${EVENT_ID}"}`]);
    expect(storedSince(from)).toEqual([['default', 'hello']]);
  });

  it('answers other paths 404 naming its paths, and other methods 405', async () => {
    const [status, text] = await post('/api/one/envelope/', 'x');
    expect(status).toBe(404);
    expect(JSON.parse(text).message).toContain('/api/<project id>/envelope/, /api/<project id>/store/');
    const get = await fetch(`http://127.0.0.1:${receiver.port}/api/1/envelope/`);
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
  });

  it.each([
    ['X-Sentry-Auth, the key last', {}, { 'X-Sentry-Auth': `Sentry sentry_version=7, sentry_client=sentry.python/2.0.0, sentry_key=${RECEIVER_KEY}` }, ''],
    ['X-Sentry-Auth, the value quoted', {}, { 'X-Sentry-Auth': `Sentry sentry_key="${RECEIVER_KEY}",sentry_version="7"` }, ''],
    ['Authorization: Sentry …', {}, { Authorization: `Sentry sentry_key=${RECEIVER_KEY}, sentry_version=7` }, ''],
    ['the sentry_key query parameter', {}, {}, `?sentry_version=7&sentry_key=${RECEIVER_KEY}&sentry_client=sentry.javascript.browser%2F11.12.0`],
    ['the envelope header\'s dsn', { dsn: `https://${RECEIVER_KEY}@otelgate.example/1` }, {}, ''],
    ['Authorization: Bearer', {}, { Authorization: `Bearer ${RECEIVER_KEY}` }, ''],
    ['X-Service-Key', {}, { 'X-Service-Key': RECEIVER_KEY }, ''],
  ])('takes the key from %s', async (_how, header, headers, query) => {
    const from = receiver.batches.length;
    expect(await post(`/api/1/envelope/${query}`, envelope({ event_id: EVENT_ID, ...header }, event('keyed')), headers)).toEqual([200, `{"id":"${EVENT_ID}"}`]);
    expect(storedSince(from)).toEqual([['default', 'keyed']]);
  });

  it.each([
    ['no key at all', {}, {}, ''],
    ['an unknown key in X-Sentry-Auth', {}, { 'X-Sentry-Auth': 'Sentry sentry_key=otg_unknown000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }, ''],
    ['an unknown key in the query', {}, {}, '?sentry_key=nope'],
    ['an unknown key in the dsn', { dsn: 'https://otg_unknown000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA@h/1' }, {}, ''],
    ['an unknown Bearer key, whatever the dsn says', { dsn: `https://${RECEIVER_KEY}@h/1` }, { Authorization: 'Bearer otg_unknown000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }, ''],
  ])('answers 401 for %s and stores nothing', async (_how, header, headers, query) => {
    const from = receiver.batches.length;
    expect(await post(`/api/1/envelope/${query}`, envelope({ event_id: EVENT_ID, ...header }, event('refused')), headers)).toEqual(UNAUTHORIZED);
    expect(storedSince(from)).toEqual([]);
  });

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
    ['zstd', zstdCompressSync],
  ])('reads a body sent with Content-Encoding: %s', async (encoding, compress) => {
    const from = receiver.batches.length;
    const body = compress(envelope({ event_id: EVENT_ID }, event(`packed with ${encoding}`)));
    expect(await post(`/api/1/envelope/?sentry_key=${RECEIVER_KEY}`, body, { 'Content-Encoding': encoding })).toEqual([200, `{"id":"${EVENT_ID}"}`]);
    expect(storedSince(from)).toEqual([['default', `packed with ${encoding}`]]);
  });

  it('refuses another Content-Encoding with 415 naming those it takes', async () => {
    const [status, text] = await post(`/api/1/envelope/?sentry_key=${RECEIVER_KEY}`, 'x', { 'Content-Encoding': 'compress' });
    expect([status, JSON.parse(text)]).toEqual([415, { message: 'Unsupported Content-Encoding "compress". Supported: gzip, deflate, br, zstd (or none).' }]);
  });

  it('keeps what it can read of a truncated envelope and of one whose length lies, answering 200', async () => {
    const whole = envelope({ event_id: EVENT_ID }, event('first'), event('second'));
    let from = receiver.batches.length;
    expect(await post(`/api/1/envelope/?sentry_key=${RECEIVER_KEY}`, whole.subarray(0, whole.length - 10))).toEqual([200, `{"id":"${EVENT_ID}"}`]);
    expect(storedSince(from)).toEqual([['default', 'first']]);
    // A length past the end, or one that cuts the payload short: the payload is read as its line
    // (docs/sentry.md), and the item after it kept.
    from = receiver.batches.length;
    const lying = Buffer.from(`{"event_id":"${EVENT_ID}"}\n{"type":"event","length":9999}\n{"message":"past the end"}\n`);
    expect(await post(`/api/1/envelope/?sentry_key=${RECEIVER_KEY}`, lying)).toEqual([200, `{"id":"${EVENT_ID}"}`]);
    expect(storedSince(from)).toEqual([['default', 'past the end']]);
    from = receiver.batches.length;
    const short = Buffer.from(`{"event_id":"${EVENT_ID}"}\n{"type":"event","length":5}\n{"message":"cut"}\n{"type":"event"}\n{"message":"after"}\n`);
    expect(await post(`/api/1/envelope/?sentry_key=${RECEIVER_KEY}`, short)).toEqual([200, `{"id":"${EVENT_ID}"}`]);
    expect(storedSince(from)).toEqual([
      ['default', 'cut'],
      ['default', 'after'],
    ]);
  });

  it('answers 200 {} for an envelope of only items it does not store, and hands nothing on', async () => {
    const from = receiver.batches.length;
    const body = envelope({}, { header: { type: 'client_report' }, payload: { discarded_events: [] } }, { header: { type: 'session' }, payload: { sid: 'x', status: 'ok' } });
    expect(await post(`/api/1/envelope/?sentry_key=${RECEIVER_KEY}`, body)).toEqual([200, '{}']);
    expect(receiver.batches.length).toBe(from);
  });

  it('takes a 10,000-item log envelope whole, as one batch', async () => {
    const from = receiver.batches.length;
    expect(await post(`/api/1/envelope/?sentry_key=${RECEIVER_KEY}`, envelope({}, logItem(10_000)))).toEqual([200, '{}']);
    const batches = receiver.batches.slice(from);
    expect(batches.map((b) => [b.signal, b.rows.length])).toEqual([['logs', 10_000]]);
    expect((batches[0] as Batch<'logs'>).rows[9_999]?.body).toBe('log 9999');
  });

  it('answers 503 with Retry-After: 5 when the pipeline cannot take the rows now', async () => {
    refusing = true;
    try {
      const response = await fetch(`http://127.0.0.1:${receiver.port}/api/1/envelope/?sentry_key=${RECEIVER_KEY}`, { method: 'POST', body: envelope({ event_id: EVENT_ID }, event('later')) });
      expect([response.status, response.headers.get('retry-after'), await response.text()]).toEqual([503, '5', '{"message":"Log storage is temporarily unavailable. Please retry."}']);
    } finally {
      refusing = false;
    }
  });
});
