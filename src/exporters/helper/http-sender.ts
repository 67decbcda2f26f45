// The sending side every remote exporter shares: a request (its URL, body, content type and
// headers) goes out through one pooled, keep-alive client made from the confighttp settings, and
// comes back as a classified outcome. The exporter writes only its encoding and its URLs.
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { durationMs } from '../../config/duration.js';
import { VERSION } from '../../version.js';
import { classify } from './classify.js';
import { compressor } from './compression.js';
import { createDispatcher } from './dispatcher.js';
import { headerPairs, joinUrl, type HttpClientConfig } from './http-settings.js';
import type { SendOutcome } from './outcome.js';
import { readBounded, RESPONSE_LIMIT } from './read-body.js';
import { loadTlsOptions } from './tls-settings.js';

export interface HttpRequest {
  /** A path (with any query) added to the endpoint, as the Collector adds /v1/logs; or `url`. */
  path?: string;
  /** An absolute URL used as it is (the Collector's logs_endpoint and the like). */
  url?: string;
  /** Uncompressed; the sender compresses it as `compression` says. */
  body: Uint8Array;
  contentType: string;
  /** Headers of this request only (a tenant's X-Scope-OrgID): they override the configured ones. */
  headers?: Record<string, string>;
}

/** A request ready to be sent, as often as retries need: its body compressed once. */
export interface PreparedRequest {
  readonly url: string;
  readonly origin: string;
  readonly path: string;
  readonly body: Buffer;
  readonly headers: Readonly<Record<string, string>>;
}

export interface HttpSender {
  /** Resolves the URL, merges the headers and compresses the body. Throws on a request that names no URL. */
  prepare(request: HttpRequest): Promise<PreparedRequest>;
  /**
   * One attempt, bounded by `timeout`; never rejects. `signal` (shutdown) cuts it short, as a
   * retryable `aborted` failure: the backend may have received the request all the same.
   */
  send(request: PreparedRequest, signal?: AbortSignal): Promise<SendOutcome>;
  /** Waits for the requests under way, then closes every connection. */
  close(): Promise<void>;
}

export interface HttpSenderOptions {
  /** Default: otelgate/<version> (<platform>/<arch>), as the Collector sends its own name. */
  userAgent?: string;
  /** Bytes read of an answer at most; default RESPONSE_LIMIT. */
  responseLimit?: number;
}

const DEFAULT_USER_AGENT = `otelgate/${VERSION} (${process.platform}/${process.arch})`;

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function lowerCased(headers: Iterable<[string, string]>, into: Record<string, string>): void {
  for (const [name, value] of headers) into[name.toLowerCase()] = value;
}

/**
 * Makes the sender, reading the tls files now: a missing or unusable file throws a ConfigError
 * naming its setting, which stops the exporter at start. Validate the settings first
 * (validateHttpClient).
 */
export function createHttpSender(config: HttpClientConfig, options: HttpSenderOptions = {}): HttpSender {
  const dispatcher: Dispatcher = createDispatcher(config, loadTlsOptions(config.tls));
  const timeoutMs = durationMs(config.timeout);
  const responseLimit = options.responseLimit ?? RESPONSE_LIMIT;
  const { encoding, compress } = compressor(config.compression, config.compression_params.level);
  const configured: Record<string, string> = {};
  lowerCased(headerPairs(config.headers), configured);
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;

  async function prepare(request: HttpRequest): Promise<PreparedRequest> {
    let url: URL;
    if (request.url !== undefined) url = new URL(request.url);
    else if (request.path !== undefined && config.endpoint !== undefined) url = new URL(joinUrl(config.endpoint, request.path));
    else throw new TypeError('a request needs a url, or a path and an endpoint in the settings');
    // Configured headers override User-Agent and Content-Type, as in the Collector; the encoding is the sender's.
    const headers: Record<string, string> = { 'user-agent': userAgent, 'content-type': request.contentType };
    Object.assign(headers, configured);
    if (request.headers !== undefined) lowerCased(Object.entries(request.headers), headers);
    if (encoding !== undefined) headers['content-encoding'] = encoding;
    const raw = Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength);
    const body = await compress(raw);
    return { url: url.href, origin: url.origin, path: `${url.pathname}${url.search}`, body, headers };
  }

  async function send(request: PreparedRequest, signal?: AbortSignal): Promise<SendOutcome> {
    // One controller per attempt carries both its time limit and shutdown.
    const controller = new AbortController();
    const timer =
      timeoutMs > 0 ? setTimeout(() => controller.abort(new DOMException(`no complete answer within timeout ${config.timeout}`, 'TimeoutError')), timeoutMs) : undefined;
    const onShutdown = (): void => controller.abort(new DOMException('the exporter is shutting down', 'AbortError'));
    if (signal?.aborted === true) onShutdown();
    else signal?.addEventListener('abort', onShutdown, { once: true });
    try {
      const answer = await dispatcher.request({
        origin: request.origin,
        path: request.path,
        method: 'POST',
        headers: request.headers,
        body: request.body,
        signal: controller.signal,
      });
      const headers = answer.headers as IncomingHttpHeaders;
      const body = await readBounded(answer.body, responseLimit);
      return classify(
        { response: { status: answer.statusCode, contentType: firstValue(headers['content-type']), retryAfter: firstValue(headers['retry-after']), body } },
        Date.now(),
      );
    } catch (error) {
      return classify({ error }, Date.now());
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onShutdown);
    }
  }

  return { prepare, send, close: () => dispatcher.close() };
}
