// What log and span v2 items map alike: the attributes the SDK adds to each record that say what
// its resource and scope are, moved there as events' fields are (src/sentry/event-fields.ts).
import type { MutableAttributes } from '../model/anyvalue.js';
import type { Resource, Scope } from '../model/resource.js';
import type { DecodeContext } from './context.js';

/** Removes a string attribute, handing it back; an attribute of another type stays where it is. */
export function takeString(attributes: MutableAttributes, key: string): string | undefined {
  const value = attributes[key];
  if (typeof value !== 'string') return undefined;
  delete attributes[key];
  return value === '' ? undefined : value;
}

/**
 * The record's resource and scope from its attributes: `service.name` (else, for logs, the SDK's
 * server name in `server.address`, which is also host.name, as events' `server_name`), and
 * `sentry.release` and `sentry.environment` as service.version and deployment.environment.name,
 * each moved out of the attributes; the scope is `sentry.sdk.name`/`.version`, which stay as on
 * events. `user.ip_address` becomes `client.address` as on events, unless the record has one.
 */
export function itemOrigin(context: DecodeContext, attributes: MutableAttributes, serverAddressIsHost: boolean): { resource: Resource; scope: Scope } {
  const service = takeString(attributes, 'service.name');
  const host = serverAddressIsHost ? takeString(attributes, 'server.address') : undefined;
  const resource = context.resource({ service: [service, host], host, release: takeString(attributes, 'sentry.release'), environment: takeString(attributes, 'sentry.environment') });
  const name = attributes['sentry.sdk.name'];
  const version = attributes['sentry.sdk.version'];
  const scope = context.scope(typeof name === 'string' && name !== '' ? { name, version: typeof version === 'string' ? version : '' } : undefined);
  if (attributes['client.address'] === undefined) {
    const ip = takeString(attributes, 'user.ip_address');
    if (ip !== undefined) attributes['client.address'] = ip;
  }
  return { resource, scope };
}
