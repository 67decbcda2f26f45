// Starting a server on host:port and naming the address it got (port 0 picks a free one).
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

/** host and port of an endpoint: "localhost:4318", ":4318", "[::1]:4318". */
export function parseEndpoint(endpoint: string): { host: string | undefined; port: number } | undefined {
  const match = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(endpoint);
  if (match === null) return undefined;
  const port = Number(match[3]);
  if (port > 65535) return undefined;
  const host = match[1] ?? match[2];
  return { host: host === '' ? undefined : host, port };
}
