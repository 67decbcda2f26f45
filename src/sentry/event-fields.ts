// What error events and transactions (both Sentry events) map alike: the resource, the scope, and
// the attributes from tags, user, request and the event's own fields.
import type { MutableAttributes } from '../model/anyvalue.js';
import type { Resource, Scope } from '../model/resource.js';
import { sdkOf, type DecodeContext } from './context.js';
import { eventId } from './ids.js';
import { isObject, nonEmpty, scalarText, str, type JsonObject } from './json.js';

/** The tag that names the service (the OTel attribute's name): it goes to the resource, not the row. */
const SERVICE_TAG = 'service.name';

/** `tags` as an object, or as the list of [key, value] pairs some SDKs send; values as text. */
export function tagsOf(event: JsonObject): Map<string, string> {
  const tags = new Map<string, string>();
  const value = event['tags'];
  if (Array.isArray(value)) {
    for (const pair of value) {
      if (!Array.isArray(pair) || pair.length !== 2) continue;
      const key = str(pair[0]);
      const text = scalarText(pair[1]);
      if (key !== undefined && text !== undefined) tags.set(key, text);
    }
  } else if (isObject(value)) {
    for (const key of Object.keys(value)) {
      const text = scalarText(value[key]);
      if (text !== undefined) tags.set(key, text);
    }
  }
  return tags;
}

/** service.name from the `service.name` tag, else `server_name`; service.version, environment and host from the event. */
export function eventResource(context: DecodeContext, event: JsonObject, tags: Map<string, string>): Resource {
  const host = nonEmpty(event['server_name']);
  return context.resource({
    service: [tags.get(SERVICE_TAG), host],
    host,
    release: nonEmpty(event['release']),
    environment: nonEmpty(event['environment']),
  });
}

export function eventScope(context: DecodeContext, event: JsonObject): Scope {
  return context.scope(sdkOf(event['sdk']));
}

/**
 * The attributes an event gives every row made from it: its tags, then its user, request and
 * sentry.* fields (which win over a tag of the same name).
 */
export function eventAttributes(event: JsonObject, tags: Map<string, string>, into: MutableAttributes): void {
  for (const [key, value] of tags) if (key !== SERVICE_TAG) into[key] = value;
  userAttributes(event['user'], into);
  requestAttributes(event['request'], into);
  const id = eventId(event['event_id']);
  if (id !== undefined) into['sentry.event_id'] = id;
  const platform = nonEmpty(event['platform']);
  if (platform !== undefined) into['sentry.platform'] = platform;
  const sdk = sdkOf(event['sdk']);
  if (sdk !== undefined) {
    into['sentry.sdk.name'] = sdk.name;
    if (sdk.version !== '') into['sentry.sdk.version'] = sdk.version;
  }
}

/** The address an SDK writes when it asks Sentry to fill in the sender's: no address. */
const AUTO_IP = '{{auto}}';

function userAttributes(user: unknown, into: MutableAttributes): void {
  if (!isObject(user)) return;
  const id = scalarText(user['id']);
  if (id !== undefined && id !== '') into['user.id'] = id;
  const email = nonEmpty(user['email']);
  if (email !== undefined) into['user.email'] = email;
  const name = nonEmpty(user['username']) ?? nonEmpty(user['name']);
  if (name !== undefined) into['user.name'] = name;
  const ip = nonEmpty(user['ip_address']);
  if (ip !== undefined && ip !== AUTO_IP) into['client.address'] = ip;
}

function requestAttributes(request: unknown, into: MutableAttributes): void {
  if (!isObject(request)) return;
  const method = nonEmpty(request['method']);
  if (method !== undefined) into['http.request.method'] = method;
  const url = nonEmpty(request['url']);
  if (url === undefined) return;
  // Python's SDK sends the query apart from the URL; url.full has both.
  const query = nonEmpty(request['query_string']);
  into['url.full'] = query !== undefined && !url.includes('?') ? `${url}?${query}` : url;
}
