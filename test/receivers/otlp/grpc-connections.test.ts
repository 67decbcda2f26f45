// The otlp receiver's gRPC side serves at most max_connections connections at once: one beyond is
// closed as it opens, and a place freed is taken again.
import { connect, type ClientHttp2Session } from 'node:http2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Service } from '../../../src/runtime/service.js';
import { startGrpcReceiver, switchableExporter } from '../../helpers/components.js';
import { waitUntil } from '../../helpers/wait.js';

const MAX = 2;
const pipeline = switchableExporter();
let lines: Record<string, unknown>[] = [];
let service: Service;
let address = '';
const sessions: ClientHttp2Session[] = [];

/** An HTTP/2 connection, and whether the server served it (sent its SETTINGS) or closed it. */
function open(): { session: ClientHttp2Session; served: Promise<boolean> } {
  const session = connect(`http://${address}`);
  sessions.push(session);
  session.on('error', () => {});
  const served = new Promise<boolean>((resolve) => {
    session.once('remoteSettings', () => resolve(true));
    session.once('close', () => resolve(false));
  });
  return { session, served };
}

beforeAll(async () => {
  ({ service, address, lines } = await startGrpcReceiver(`{endpoint: "127.0.0.1:0", max_connections: ${MAX}}`, pipeline));
});

afterAll(async () => {
  for (const session of sessions) session.destroy();
  await service.shutdown();
});

describe('the otlp receiver over gRPC, max_connections', () => {
  it('closes a connection beyond max_connections as it opens, logs it once, and serves a new one when a place is free', async () => {
    const first = open();
    const second = open();
    expect([await first.served, await second.served]).toEqual([true, true]);
    expect(await open().served).toBe(false);
    expect(await open().served).toBe(false);
    expect(lines.filter((l) => l['msg'] === 'A gRPC connection beyond max_connections was closed as it opened').map((l) => l['max_connections'])).toEqual([MAX]);
    first.session.destroy();
    // The server counts the connection gone once its socket has closed on its side.
    expect(await waitUntil(async () => await open().served)).toBe(true);
    expect(second.session.closed || second.session.destroyed).toBe(false);
  });
});
