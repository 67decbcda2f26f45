// deliver(): the sender and the retry loop together against a real backend, the waits on a clock
// the test moves: Retry-After 3 honoured, a permanent 400 not retried, a backend down then up,
// shutdown during a wait, and one compressed body for every attempt.
import { afterEach, describe, expect, it } from 'vitest';
import { deliver } from '../../../src/exporters/helper/deliver.js';
import { createHttpSender, type HttpRequest, type HttpSender } from '../../../src/exporters/helper/http-sender.js';
import type { Clock } from '../../../src/exporters/helper/retry.js';
import { ok, startBackend, type Backend, type Handler } from '../../helpers/http-backend.js';
import { clientSettings, policy } from './settings-helper.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function backend(handler: Handler, port = 0): Promise<Backend> {
  const started = await startBackend(handler, undefined, port);
  cleanup.push(() => started.close());
  return started;
}

function sender(endpoint: string): HttpSender {
  const made = createHttpSender(clientSettings({ endpoint }));
  cleanup.push(() => made.close());
  return made;
}

/** Waits return at once and move the clock on; `during` runs inside each wait (to restart a backend, or to shut down). */
function testClock(during?: (waits: number) => Promise<void> | void): Clock & { sleeps: number[] } {
  let time = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => time,
    sleep: async (ms) => {
      sleeps.push(ms);
      time += ms;
      await during?.(sleeps.length);
    },
  };
}

/** Answers each request with the next of `answers` (status, headers, body), then 200. */
function scripted(answers: [number, Record<string, string>, string][]): Handler {
  let next = 0;
  return (request, res, req) => {
    const answer = answers[next++];
    if (answer === undefined) ok(request, res, req);
    else res.writeHead(answer[0], { 'content-type': 'text/plain', ...answer[1] }).end(answer[2]);
  };
}

const REQUEST: HttpRequest = { path: '/v1/logs', body: Buffer.from('x'.repeat(10_000)), contentType: 'application/x-protobuf' };
const NO_JITTER = { randomization_factor: 0 };

describe('deliver', () => {
  it('honours Retry-After: 3 on a 429 over a shorter backoff', async () => {
    const server = await backend(scripted([[429, { 'retry-after': '3' }, 'slow down']]));
    const clock = testClock();
    const result = await deliver(sender(server.url), REQUEST, policy({ ...NO_JITTER, initial_interval: '1s' }), { clock });
    expect(result).toEqual({ kind: 'success', outcome: { kind: 'success', status: 200 }, attempts: 2 });
    expect(clock.sleeps).toEqual([3000]);
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry a permanent 400, and keeps the backend\'s words', async () => {
    const server = await backend(scripted([[400, {}, 'log record has no body']]));
    const clock = testClock();
    expect(await deliver(sender(server.url), REQUEST, policy({}), { clock })).toEqual({
      kind: 'permanent',
      outcome: {
        kind: 'permanent',
        failure: 'http_status',
        status: 400,
        backendMessage: 'log record has no body',
        message: 'the backend answered 400 Bad Request: log record has no body',
      },
      attempts: 1,
    });
    expect(clock.sleeps).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('delivers once a backend that was down comes up, the same body each attempt', async () => {
    const first = await startBackend(ok);
    const { port, url } = first;
    await first.close();
    let revived: Backend | undefined;
    const clock = testClock(async (waits) => {
      if (waits === 2) revived = await backend(ok, port);
    });
    const result = await deliver(sender(url), REQUEST, policy(NO_JITTER), { clock });
    expect(result).toEqual({ kind: 'success', outcome: { kind: 'success', status: 200 }, attempts: 3 });
    expect(clock.sleeps).toEqual([5000, 7500]);
    expect(revived?.requests.map((r) => r.body.equals(REQUEST.body as Buffer))).toEqual([true]);
  });

  it('gives up, still retryable, when max_elapsed_time runs out on a backend that stays down', async () => {
    const server = await backend(scripted(Array.from({ length: 20 }, () => [503, {}, 'ingesters unavailable'] as [number, Record<string, string>, string])));
    const clock = testClock();
    const result = await deliver(sender(server.url), REQUEST, policy({ ...NO_JITTER, max_elapsed_time: '1m' }), { clock });
    expect(result).toMatchObject({ kind: 'gave_up', reason: 'max_elapsed_time', attempts: 5, outcome: { kind: 'retryable', status: 503 } });
    // 5 + 7.5 + 11.25 + 16.875 = 40.625 s; 25.3125 s more would pass 1 m.
    expect(clock.sleeps).toEqual([5000, 7500, 11250, 16875]);
    expect(new Set(server.requests.map((r) => r.raw.toString('base64'))).size).toBe(1);
  });

  it('stops at shutdown during a wait, without another attempt', async () => {
    const server = await backend(scripted(Array.from({ length: 20 }, () => [502, {}, ''] as [number, Record<string, string>, string])));
    const shutdown = new AbortController();
    const clock = testClock((waits) => {
      if (waits === 2) shutdown.abort();
    });
    const result = await deliver(sender(server.url), REQUEST, policy({ max_elapsed_time: '0' }), { clock, signal: shutdown.signal });
    expect(result).toMatchObject({ kind: 'aborted', attempts: 2, outcome: { kind: 'retryable', status: 502 } });
    expect(server.requests).toHaveLength(2);
  });
});
