// What the ingest receiver hands its pipelines besides the rows: the time it took the request, the
// key id, the headers include_metadata keeps (never a key's), a signal that tells when the client
// went away, and rows of the batch's own (exclusive).
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { RECEIVER_KEY, startReceiver, type InProcessReceiver } from '../../helpers/receiver.js';
import { waitUntil } from '../../helpers/wait.js';

let receiver: InProcessReceiver | undefined;
afterEach(async () => {
  await receiver?.stop();
  receiver = undefined;
});

async function post(port: number, headers: Record<string, string>): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}/api/v1/ingest`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ message: 'hello' }),
  });
  await response.arrayBuffer();
  return response.status;
}

describe('the client of a batch', () => {
  it('keeps no headers by default, and names the key by its id', async () => {
    receiver = await startReceiver();
    expect(await post(receiver.port, { Authorization: `Bearer ${RECEIVER_KEY}`, 'X-Tenant': 'eu' })).toBe(202);
    expect(receiver.contexts).toHaveLength(1);
    expect(receiver.contexts[0]?.client).toEqual({ keyId: 'inprocess', metadata: {} });
  });

  it('hands on what it decoded as an exclusive batch: rows and attribute maps of its own, one for each record', async () => {
    receiver = await startReceiver();
    const response = await fetch(`http://127.0.0.1:${receiver.port}/api/v1/ingest`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${RECEIVER_KEY}` },
      body: JSON.stringify([{ message: 'a' }, { message: 'b' }]),
    });
    await response.arrayBuffer();
    expect(response.status).toBe(202);
    const batch = receiver.batches[0];
    expect(batch?.exclusive).toBe(true);
    const maps = batch?.signal === 'logs' ? batch.rows.map((row) => row.attributes) : [];
    expect(maps).toHaveLength(2);
    expect(maps[0]).not.toBe(maps[1]);
  });

  it('with include_metadata keeps every header, repeated ones apart, but never Authorization, X-Service-Key, Cookie or Proxy-Authorization', async () => {
    receiver = await startReceiver(['include_metadata: true']);
    const before = BigInt(Date.now()) * 1_000_000n;
    expect(await post(receiver.port, { Authorization: `Bearer ${RECEIVER_KEY}`, 'X-Service-Key': 'otg_other', 'X-Tenant': 'eu', 'X-Trace-Tags': 'a, b', Cookie: 'session=1', 'Proxy-Authorization': 'Basic eA==' })).toBe(202);
    const after = BigInt(Date.now()) * 1_000_000n;
    const metadata = receiver.contexts[0]?.client.metadata ?? {};
    expect(metadata['x-tenant']).toEqual(['eu']);
    expect(metadata['x-trace-tags']).toEqual(['a, b']);
    expect(metadata['content-type']).toEqual(['application/json']);
    expect(Object.keys(metadata).filter((name) => ['authorization', 'x-service-key', 'cookie', 'proxy-authorization'].includes(name))).toEqual([]);
    expect(JSON.stringify(metadata)).not.toContain(RECEIVER_KEY);
    const batch = receiver.batches[0];
    expect(batch?.receivedUnixNano).toBeGreaterThanOrEqual(before);
    expect(batch?.receivedUnixNano).toBeLessThanOrEqual(after);
    // A simple log without a time of its own is given the batch's time, not another reading of the clock.
    expect(batch?.signal === 'logs' && batch.rows[0]?.timeUnixNano).toBe(batch?.receivedUnixNano);
  });

  it('aborts the signal when the client goes away before its answer, and not when it was answered', async () => {
    let release = (): void => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    receiver = await startReceiver([], async (ctx) => {
      if (receiver?.contexts.length === 1) await Promise.race([released, new Promise((resolve) => ctx.signal.addEventListener('abort', resolve))]);
    });
    const port = receiver.port;
    const body = JSON.stringify({ message: 'hello' });
    const req = request({ host: '127.0.0.1', port, path: '/api/v1/ingest', method: 'POST', headers: { Authorization: `Bearer ${RECEIVER_KEY}`, 'Content-Type': 'application/json', 'Content-Length': String(body.length) } });
    req.on('error', () => {});
    req.end(body);
    expect(await waitUntil(() => receiver?.contexts.length === 1)).toBe(true);
    const first = receiver?.contexts[0];
    expect(first?.signal.aborted).toBe(false);
    req.destroy();
    expect(await waitUntil(() => first?.signal.aborted === true)).toBe(true);

    expect(await post(port, { Authorization: `Bearer ${RECEIVER_KEY}` })).toBe(202);
    release();
    expect(receiver.contexts).toHaveLength(2);
    expect(receiver.contexts[1]?.signal.aborted).toBe(false);
  });
});
