// The client of one request as the pipelines see it (the Collector's client.Info).
import { KEY_HEADERS, type Principal } from '../../auth/authenticator.js';
import type { ClientInfo } from '../../runtime/component.js';

/** Credentials for other parties than otelgate: never written to a queue on disk either. */
const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(['cookie', 'proxy-authorization']);

const NO_METADATA: ClientInfo['metadata'] = Object.freeze({});

/**
 * With `include_metadata`, the request's headers (or gRPC metadata) are given, and every one is
 * kept but those that carry a key or a cookie, by lower-case name, repeated ones kept apart. The
 * transport's header limit (Node's 16 KiB for HTTP, grpc-js's for gRPC) bounds what a client can
 * make us keep. Without it, none are given: Node builds headersDistinct only when asked.
 */
export function clientInfo(principal: Principal, headers?: Readonly<Record<string, readonly string[] | undefined>>): ClientInfo {
  if (headers === undefined) return { keyId: principal.keyId, metadata: NO_METADATA };
  const metadata: Record<string, readonly string[]> = Object.create(null) as Record<string, readonly string[]>;
  for (const name of Object.keys(headers)) {
    const values = headers[name];
    if (values !== undefined && !KEY_HEADERS.has(name) && !CREDENTIAL_HEADERS.has(name)) metadata[name] = values;
  }
  return { keyId: principal.keyId, metadata };
}
