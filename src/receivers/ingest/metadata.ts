// The client of one request as the pipelines see it (the Collector's client.Info).
import type { IncomingMessage } from 'node:http';
import { KEY_HEADERS, type Principal } from '../../auth/authenticator.js';
import type { ClientInfo } from '../../runtime/component.js';

/** Credentials for other parties than otelgate: never written to a queue on disk either. */
const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(['cookie', 'proxy-authorization']);

const NO_METADATA: ClientInfo['metadata'] = Object.freeze({});

/**
 * With `include_metadata`, every header but those that carry a key or a cookie, as Node has them (lower-case
 * names, repeated headers kept apart). Node's header limit (16 KiB) bounds what a client can make us keep.
 */
export function clientInfo(req: IncomingMessage, principal: Principal, includeMetadata: boolean): ClientInfo {
  if (!includeMetadata) return { keyId: principal.keyId, metadata: NO_METADATA };
  const metadata: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  const headers = req.headersDistinct;
  for (const name of Object.keys(headers)) {
    if (!KEY_HEADERS.has(name) && !CREDENTIAL_HEADERS.has(name)) metadata[name] = headers[name] as string[];
  }
  return { keyId: principal.keyId, metadata };
}
