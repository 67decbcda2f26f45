// Shutdown with a keep-alive client that keeps sending and another halfway through its headers:
// otelgate stops promptly instead of waiting out either connection.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startGateway } from '../../helpers/gateway.js';

describe('shutdown with busy keep-alive clients', () => {
  it('ends their connections and exits 0 well within shutdown_timeout', async () => {
    const gw = await startGateway();
    const socket = connect(Number(new URL(gw.url).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let received = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => {});
    const closed = new Promise((resolve) => socket.once('close', resolve));
    const body = '{"message":"keep going"}';
    const send = () => socket.write(`POST /api/v1/ingest HTTP/1.1\r\nHost: x\r\nX-Service-Key: ${gw.keys['default']}\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    send();
    for (let i = 0; i < 100 && !received.includes('202 Accepted'); i++) await new Promise((r) => setTimeout(r, 10));
    expect(received).toContain('Connection: keep-alive');

    // A second client is halfway through its headers (read_header_timeout is 10 s here).
    const slow = connect(Number(new URL(gw.url).port), '127.0.0.1');
    await new Promise((resolve) => slow.once('connect', resolve));
    slow.on('error', () => {});
    slow.write('POST /api/v1/ingest HTTP/1.1\r\nHost: x\r\n');
    await new Promise((r) => setTimeout(r, 50));

    const started = Date.now();
    gw.run.child.kill('SIGTERM');
    const sending = setInterval(send, 50);
    const code = await gw.run.exit(10_000);
    clearInterval(sending);
    await closed;
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(gw.run.lines.map((l) => l.msg)).toContain('Shutdown complete.');
  });
});
