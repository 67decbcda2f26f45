// Starting an HTTP(S) server on host:port and naming the address it got (port 0 picks a free one).
import type { Server } from 'node:net';
import type { AddressInfo } from 'node:net';

/** Resolves with the address as host:port ([v6]:port) once listening; rejects with the listen error (a port in use). */
export async function listen(server: Server, port: number, host: string | undefined): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return address.family === 'IPv6' ? `[${address.address}]:${address.port}` : `${address.address}:${address.port}`;
}
