// The one place that decides what an attempt to send came to, as the Collector's otlphttp
// exporter decides it (the OTLP spec's rules): 2xx is success (with any partial success read);
// 429, 502, 503 and 504 are retryable, 429 and 503 with the Retry-After delay if one was sent;
// every other status is permanent, 500 and 501 included; a failure before an answer (refused,
// reset, timeout, DNS, TLS, proxy) is retryable, except a request that could never be sent.
import { STATUS_CODES } from '../../runtime/http.js';
import { errorMessage } from '../../errors.js';
import { backendMessage } from './backend-message.js';
import type { FailureKind, SendOutcome } from './outcome.js';
import { readPartialSuccess } from './partial-success.js';
import { parseRetryAfter } from './retry-after.js';

/** The parts of a backend's answer that decide the outcome; the body already read, bounded. */
export interface AttemptResponse {
  status: number;
  contentType?: string;
  /** The first Retry-After value, if any. */
  retryAfter?: string;
  body: Buffer;
}

/** One attempt: the backend answered, or the request failed before an answer (the error thrown). */
export type Attempt = { response: AttemptResponse } | { error: unknown };

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);
/** The statuses the OTLP spec lets carry Retry-After (throttling); the Collector ignores it on 502 and 504. */
const THROTTLE_STATUS = new Set([429, 503]);

const ERROR_CODES: Record<string, FailureKind> = {
  ECONNREFUSED: 'connection_refused',
  ECONNRESET: 'connection_reset',
  ECONNABORTED: 'connection_reset',
  EPIPE: 'connection_reset',
  UND_ERR_SOCKET: 'connection_reset',
  UND_ERR_CLOSED: 'connection_reset',
  ETIMEDOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_FAIL: 'dns',
  EAI_NODATA: 'dns',
  EAI_NONAME: 'dns',
  UND_ERR_INVALID_ARG: 'invalid_request',
  ERR_INVALID_URL: 'invalid_request',
  ERR_INVALID_HTTP_TOKEN: 'invalid_request',
  ERR_INVALID_CHAR: 'invalid_request',
};

// OpenSSL's certificate verification codes (CERT_HAS_EXPIRED, UNABLE_TO_VERIFY_LEAF_SIGNATURE, ...)
// and Node's own TLS and OpenSSL error codes.
const TLS_CODE = /^(ERR_SSL_|ERR_TLS_|CERT_|CRL_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH|INVALID_CA|INVALID_PURPOSE|PATH_LENGTH_EXCEEDED|ERROR_IN_)/;

// undici reports a proxy's refusal of a tunnel (CONNECT) or of authentication as these.
const PROXY_MESSAGE = /^Proxy (response \(\d+\) !== 200|Authentication Required)/;

const FAILURE_TEXT: Record<FailureKind, string> = {
  http_status: 'the backend refused the request',
  grpc_status: 'the backend refused the call',
  connection_refused: 'connection refused',
  connection_reset: 'connection closed before an answer',
  timeout: 'timed out',
  dns: 'the host name could not be resolved',
  tls: 'TLS failed',
  proxy: 'the proxy refused the request',
  network: 'network error',
  aborted: 'aborted by shutdown',
  invalid_request: 'the request cannot be sent',
};

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** What kind of failure an error thrown by a request is. */
export function failureKind(error: unknown): FailureKind {
  // undici's refused tunnel is a RequestAbortedError, named AbortError: read its message first.
  if (error instanceof Error && PROXY_MESSAGE.test(error.message)) return 'proxy';
  const name = error instanceof Error ? error.name : undefined;
  if (name === 'TimeoutError') return 'timeout';
  if (name === 'AbortError') return 'aborted';
  const code = errorCode(error);
  if (code !== undefined) {
    const known = ERROR_CODES[code];
    if (known !== undefined) return known;
    if (TLS_CODE.test(code)) return 'tls';
  }
  const cause = error instanceof Error ? error.cause : undefined;
  return cause === undefined ? 'network' : failureKind(cause);
}

function classifyError(error: unknown): SendOutcome {
  const failure = failureKind(error);
  return {
    kind: failure === 'invalid_request' ? 'permanent' : 'retryable',
    failure,
    message: `${FAILURE_TEXT[failure]}: ${errorMessage(error)}`,
  };
}

function classifyResponse(response: AttemptResponse, nowMs: number): SendOutcome {
  const { status } = response;
  if (status >= 200 && status <= 299) {
    const reading = readPartialSuccess(response.body, response.contentType);
    if ('unreadable' in reading) return { kind: 'success', status, unreadableBody: reading.unreadable };
    return reading.partial === undefined ? { kind: 'success', status } : { kind: 'success', status, partial: reading.partial };
  }
  const said = backendMessage(response.body, response.contentType);
  const answered = `the backend answered ${status}${STATUS_CODES[status] === undefined ? '' : ` ${STATUS_CODES[status]}`}`;
  const outcome: SendOutcome = {
    kind: RETRYABLE_STATUS.has(status) ? 'retryable' : 'permanent',
    failure: 'http_status',
    status,
    message: said === '' ? answered : `${answered}: ${said}`,
  };
  if (said !== '') outcome.backendMessage = said;
  if (THROTTLE_STATUS.has(status) && response.retryAfter !== undefined) {
    const delay = parseRetryAfter(response.retryAfter, nowMs);
    if (delay !== undefined) outcome.retryAfterMs = delay;
  }
  return outcome;
}

/** The outcome of one attempt; `nowMs` (epoch ms) is only read to turn a Retry-After date into a delay. */
export function classify(attempt: Attempt, nowMs: number): SendOutcome {
  return 'response' in attempt ? classifyResponse(attempt.response, nowMs) : classifyError(attempt.error);
}
