// The connection pool a sender keeps, made from the client settings: undici's Agent (a pool per
// origin, keep-alive), or its ProxyAgent when proxy_url is set.
import { Agent, ProxyAgent, type Dispatcher } from 'undici';
import { durationMs } from '../../config/duration.js';
import type { HttpClientConfig } from './http-settings.js';
import type { TlsOptions } from './tls-settings.js';

export function createDispatcher(config: HttpClientConfig, tls: TlsOptions): Dispatcher {
  const idleMs = durationMs(config.idle_conn_timeout);
  const pool: Agent.Options = {
    connections: config.max_conns_per_host === 0 ? null : config.max_conns_per_host,
    // A server's Keep-Alive hint may shorten the idle time, never lengthen it.
    keepAliveTimeout: idleMs,
    keepAliveMaxTimeout: idleMs,
    // undici's way to say "no keep-alive": one request per connection.
    pipelining: config.disable_keep_alives ? 0 : 1,
  };
  if (config.proxy_url === undefined) return new Agent({ ...pool, connect: tls.backend });
  return new ProxyAgent({
    ...pool,
    uri: config.proxy_url,
    // As Go's transport: a CONNECT tunnel for https:// endpoints, a plain forward request for http:// ones.
    proxyTunnel: false,
    requestTls: tls.backend,
    proxyTls: tls.proxy,
  });
}
