// What a receiver asks of the authenticator extension it names: who is this request, before its body is read.
import type { IncomingHttpHeaders } from 'node:http';
import type { Component } from '../runtime/component.js';

/**
 * What a key may do: `ingest` writes its project's data, `read` reads it (the read API). A DSN ships
 * inside browser bundles, so a key that leaves the building should be able to write and no more.
 */
export type Scope = 'ingest' | 'read';

export const SCOPES: readonly Scope[] = ['ingest', 'read'];

export interface Principal {
  project: string;
  /** The key's public id: the only part of a key that may appear in logs. */
  keyId: string;
}

export interface Authenticator extends Component {
  /** Who presents a key that may do `scope`; undefined for no key, an unknown or revoked one, or one without that scope alike. */
  authenticate(headers: IncomingHttpHeaders, scope: Scope): Principal | undefined;
  /** The same for a key presented another way (an error-reporting SDK's auth header or query string). */
  authenticateKey(key: string, scope: Scope): Principal | undefined;
}

export function isAuthenticator(component: Component | undefined): component is Authenticator {
  return component !== undefined && typeof (component as Partial<Authenticator>).authenticate === 'function';
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The request headers a key can come in, by lower-case name (X-Sentry-Auth: a Sentry SDK's): never kept, logged or passed on. */
export const KEY_HEADERS: ReadonlySet<string> = new Set(['authorization', 'x-service-key', 'x-sentry-auth']);

/** The key a request presents: `Authorization: Bearer KEY`, else `X-Service-Key: KEY`. */
export function presentedKey(headers: IncomingHttpHeaders): string | undefined {
  const authorization = headers.authorization;
  if (authorization !== undefined) {
    const match = BEARER.exec(authorization);
    if (match !== null) return match[1];
  }
  const serviceKey = headers['x-service-key'];
  if (typeof serviceKey === 'string' && serviceKey.trim() !== '') return serviceKey.trim();
  return undefined;
}
