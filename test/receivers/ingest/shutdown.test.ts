// Shutdown with a keep-alive client that keeps sending and another halfway through its headers:
// otelgate cuts both connections instead of waiting them out. Waiting either out would outlast
// shutdown_timeout (15 s): the slow client has 60 s for its headers here, and the other never
// falls idle. So a clean exit, whenever it comes, shows neither was waited for.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { GATEWAY_CONFIG, startGateway } from '../../helpers/gateway.js';
import { waitUntil } from '../../helpers/wait.js';

describe('shutdown with busy keep-alive clients', () => {
  it('ends their connections and exits 0 within shutdown_timeout', async () => {
    const gw = await startGateway({ config: (keys) => GATEWAY_CONFIG(keys, '    read_header_timeout: 60s') });
    const socket = connect(Number(new URL(gw.url).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let received = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => {});
    const closed = new Promise((resolve) => socket.once('close', resolve));
    const body = '{"message":"keep going"}';
    const send = () => socket.write(`POST /api/v1/ingest HTTP/1.1\r\nHost: x\r\nX-Service-Key: ${gw.keys['default']}\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    send();
    expect(await waitUntil(() => received.includes('\r\n\r\n'))).toBe(true);
    expect(received).toContain('202 Accepted');
    expect(received).toContain('Connection: keep-alive');

    // A second client is halfway through its headers.
    const slow = connect(Number(new URL(gw.url).port), '127.0.0.1');
    await new Promise((resolve) => slow.once('connect', resolve));
    slow.on('error', () => {});
    slow.write('POST /api/v1/ingest HTTP/1.1\r\nHost: x\r\n');
    // Connections are taken in the order they came: once a later one is answered, otelgate holds the slow one.
    const later = await fetch(`${gw.url}/api/v1/ingest`, { method: 'POST', body, headers: { 'X-Service-Key': gw.keys['default'] as string, Connection: 'close' } });
    expect(later.status).toBe(202);

    gw.run.child.kill('SIGTERM');
    const sending = setInterval(send, 50);
    try {
      // Beyond shutdown_timeout: a shutdown that waited would end in exit 1, "Shutdown timed out".
      expect(await gw.run.exit(20_000)).toBe(0);
    } finally {
      clearInterval(sending);
    }
    await closed;
    expect(gw.run.lines.map((l) => l.msg)).toContain('Shutdown complete.');
  });
});
