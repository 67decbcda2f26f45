// The in-flight budget (max_in_flight_bytes) through the ingest receiver in this process, over real
// sockets: body bytes count as they arrive and decoded rows as they are made; a request that would
// take the budget past its limit is answered 503 with Retry-After, and the budget is whole again
// after. In process, the test sees the bytes held and sends the next request only once the first
// one's are in, where a child process would leave it guessing how long to wait.
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ByteBudget } from '../../../src/receivers/helper/budget.js';
import { RECEIVER_KEY, startReceiver, type InProcessReceiver } from '../../helpers/receiver.js';
import { waitUntil } from '../../helpers/wait.js';

const budgets = vi.hoisted(() => [] as ByteBudget[]);
vi.mock('../../../src/receivers/helper/budget.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../src/receivers/helper/budget.js')>();
  class SeenByTheTest extends actual.ByteBudget {
    constructor(limit: number) {
      super(limit);
      budgets.push(this);
    }
  }
  return { ...actual, ByteBudget: SeenByTheTest };
});

// One largest request must fit the budget: 800,000 body bytes + 1,000 rows × 400 bytes ≤ 1,310,720.
const SETTINGS = ['max_request_body_size: 800000', 'max_records_per_request: 1000', 'max_in_flight_bytes: 1310720'];

let receiver: InProcessReceiver;
let budget: ByteBudget;
const sockets: Socket[] = [];

async function start(): Promise<void> {
  receiver = await startReceiver(SETTINGS);
  expect(budgets).toHaveLength(1);
  budget = budgets[0] as ByteBudget;
}

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await receiver.stop();
  budgets.length = 0;
});

interface Raw {
  socket: Socket;
  received: () => string;
}

async function open(): Promise<Raw> {
  const socket = connect(receiver.port, '127.0.0.1');
  sockets.push(socket);
  await new Promise((resolve) => socket.once('connect', resolve));
  let data = '';
  socket.setEncoding('latin1').on('data', (chunk: string) => (data += chunk));
  socket.on('error', () => {});
  return { socket, received: () => data };
}

const ingestRequest = (body: string): string => `POST /api/v1/ingest HTTP/1.1\r\nHost: x\r\nX-Service-Key: ${RECEIVER_KEY}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

/** The status line, once the whole head of the answer is in. */
async function statusOf(raw: Raw): Promise<string> {
  expect(await waitUntil(() => raw.received().includes('\r\n\r\n')), 'no answer').toBe(true);
  return raw.received().split('\r\n')[0] ?? '';
}

/** 1,000 simple-JSON records of `size` characters each. */
const body = (fill: string, size: number): string => JSON.stringify(Array.from({ length: 1000 }, (_, i) => ({ message: `${i} ${fill.repeat(size)}` })));

describe('max_in_flight_bytes', () => {
  it('answers a body that would take the bytes in flight past it with 503, and frees them after', async () => {
    await start();
    const big = body('x', 760);
    expect(big.length).toBeGreaterThan(770_000);
    expect(big.length).toBeLessThan(800_000);
    const first = await open();
    first.socket.write(ingestRequest(big).slice(0, -50_000));
    expect(await waitUntil(() => budget.inUse === big.length - 50_000), 'the first body’s bytes never all arrived').toBe(true);

    const second = await open();
    second.socket.write(ingestRequest(big).slice(0, -50_000));
    expect(await statusOf(second)).toBe('HTTP/1.1 503 Service Unavailable');
    expect(second.received()).toContain('\r\nRetry-After: 5\r\n');
    expect(budget.inUse).toBe(big.length - 50_000);

    first.socket.write(ingestRequest(big).slice(-50_000));
    expect(await statusOf(first)).toBe('HTTP/1.1 202 Accepted');
    expect(first.received()).toContain('{"accepted":1000,"skipped":0}');
    expect(await waitUntil(() => budget.inUse === 0), 'the budget was not given back').toBe(true);

    const third = await open();
    third.socket.write(ingestRequest(big));
    expect(await statusOf(third)).toBe('HTTP/1.1 202 Accepted');
    expect(receiver.batches.map((b) => b.rows.length)).toEqual([1000, 1000]);
  });

  it('counts decoded rows too: a body whose bytes fit beside another’s but whose rows do not is answered 503', async () => {
    await start();
    const big = body('x', 760);
    const small = body('y', 180);
    const holder = await open();
    holder.socket.write(ingestRequest(big).slice(0, -10_000));
    expect(await waitUntil(() => budget.inUse === big.length - 10_000), 'the first body’s bytes never all arrived').toBe(true);

    // The second body's bytes fit beside the first's; its 1,000 rows at 400 bytes each do not.
    expect(budget.inUse + small.length).toBeLessThan(budget.limit);
    expect(budget.inUse + small.length + 1000 * 400).toBeGreaterThan(budget.limit);
    const second = await open();
    second.socket.write(ingestRequest(small));
    expect(await statusOf(second)).toBe('HTTP/1.1 503 Service Unavailable');
    expect(second.received()).toContain('\r\nRetry-After: 5\r\n');

    holder.socket.write(ingestRequest(big).slice(-10_000));
    expect(await statusOf(holder)).toBe('HTTP/1.1 202 Accepted');
    expect(await waitUntil(() => budget.inUse === 0), 'the budget was not given back').toBe(true);
    const again = await open();
    again.socket.write(ingestRequest(small));
    expect(await statusOf(again)).toBe('HTTP/1.1 202 Accepted');
    expect(again.received()).toContain('{"accepted":1000,"skipped":0}');
    expect(receiver.batches.map((b) => b.rows.length)).toEqual([1000, 1000]);
  });
});
